package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.informer.cycle.Reporting;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informers' handlers, as kube-scheduler's {@code eventhandlers.go}: they sort every pod and node event
 * into the {@link SchedulingQueue} (a pod for us: unscheduled, ours, not being deleted), the {@link
 * SchedulerCache} (a pod on a node, a node) and the typed {@link ClusterEvent}s that move waiting pods.
 *
 * <p>A pod for us is converted to a {@link PodInfo} here, once per update that changes more than its status,
 * and queued as a {@link QueuedPod}; the fabric8 {@link Pod} it came from is kept beside it ({@link
 * #pendingPod}) for the binder and the reporter, until the pod is bound, deleted or no longer ours. A pod
 * seen bound leaves the queue at once; if a binding of ours whose answer was lost had put it there, the
 * {@link Reporting} hears of it then. A pod deleted, bound (by anyone) or no longer ours releases the volumes it
 * held reserved in the {@link StorageCache} (kube's Unreserve).
 *
 * <p>Called from the informers' threads (fabric8 calls one informer's handlers one at a time); never blocks.
 */
public final class EventHandlers {

  private static final Logger LOG = LoggerFactory.getLogger(EventHandlers.class);
  private static final Set<ClusterChange> POD_DELETED = ClusterChange.of(ClusterChange.ASSIGNED_POD_DELETED);

  private final Set<String> profiles;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final StorageCache storage;
  private final ClusterEventMoves moves;
  private final Reporting reporting;
  private final Consumer<String> boundPodLeaving;
  /**
   * The pods in the queue (or in a cycle), as the last event showed them, in their {@linkplain
   * InformerStores kept form}: what the binder and the reporter write about.
   */
  private final Map<String, Pod> pending = new ConcurrentHashMap<>();
  private final UnaryOperator<Pod> keep = InformerStores.podKeeper();

  public EventHandlers(
      Set<String> profiles,
      SchedulingQueue queue,
      SchedulerCache cache,
      StorageCache storage,
      ClusterEventMoves moves,
      Reporting reporting) {
    this(profiles, queue, cache, storage, moves, reporting, uid -> {});
  }

  /**
   * @param boundPodLeaving told the uid of a pod on a node that is gone or now terminating, after the cache
   *     knows it (the {@link io.kubesched.informer.cycle.PreemptionCycle} releases the preemptor whose last
   *     victim it was)
   */
  public EventHandlers(
      Set<String> profiles,
      SchedulingQueue queue,
      SchedulerCache cache,
      StorageCache storage,
      ClusterEventMoves moves,
      Reporting reporting,
      Consumer<String> boundPodLeaving) {
    this.boundPodLeaving = boundPodLeaving;
    this.profiles = Set.copyOf(profiles);
    this.queue = queue;
    this.cache = cache;
    this.storage = storage;
    this.moves = moves;
    this.reporting = reporting;
  }

  /** @return the pod of that uid as the last event showed it, while it is ours and unbound; else null */
  public @Nullable Pod pendingPod(String uid) {
    return pending.get(uid);
  }

  /** After a relist: forgets the pods of ours that {@code podUids} no longer has (deleted while unwatched). */
  void retainOnly(Set<String> podUids) {
    pending.keySet().removeIf(uid -> {
      if (podUids.contains(uid)) {
        return false;
      }
      queue.delete(uid);
      storage.release(uid);
      return true;
    });
  }

  /** @return the handler for the pod informer */
  public ResourceEventHandler<Pod> pods() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        podChanged(null, pod);
      }

      @Override
      public void onUpdate(Pod oldPod, Pod newPod) {
        podChanged(oldPod, newPod);
      }

      @Override
      public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
        podDeleted(pod);
      }
    };
  }

  /** @return the handler for the node informer */
  public ResourceEventHandler<Node> nodes() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Node node) {
        var added = putNode(node);
        if (added != null) { // a node left out helps nobody
          queue.moveOnClusterChange(ClusterEvent.NODE_ADD, new ClusterUpdate.NodeAdded(added));
        }
      }

      @Override
      public void onUpdate(Node oldNode, Node newNode) {
        var after = putNode(newNode);
        var changes = NodeChanges.changes(oldNode, newNode);
        if (after == null || changes.isEmpty()) {
          return;
        }
        // only the pods one of whose rejecting filters registers what changed (kube's EventsToRegister) and
        // says the change may help (its queueing hint)
        var before = nodeInfo(oldNode);
        queue.moveOnClusterChange(ClusterEvent.NODE_UPDATE, before == null
            ? new ClusterUpdate.NodeAdded(after) // it was left out: it is new to the scheduler
            : new ClusterUpdate.NodeUpdated(before, after, changes));
      }

      @Override
      public void onDelete(Node node, boolean deletedFinalStateUnknown) {
        cache.removeNode(node.getMetadata().getName());
        moves.nodeDeleted(PodFilters.labels(node)); // only pods that spread over its domains
      }
    };
  }

  private void podChanged(@Nullable Pod oldPod, Pod pod) {
    var uid = NodeListing.uid(pod);
    if (PodFilters.isAssigned(pod)) {
      pending.remove(uid);
      storage.release(uid); // its volumes are bound (by us) or no longer wait for it (bound elsewhere)
      var queued = queue.delete(uid); // bound, by us or anyone: nothing left to schedule
      if (PodFilters.isTerminal(pod)) {
        var counted = cache.pod(uid);
        cache.removePod(uid);
        if (oldPod != null && !PodFilters.isTerminal(oldPod)) {
          assignedPodGone(ClusterEvent.ASSIGNED_POD_FINISHED, counted, pod); // it frees its node
        }
        return;
      }
      var info = putBoundPod(pod); // confirms the assumption if this loop bound it
      if (info != null && info.terminating()) {
        boundPodLeaving.accept(uid);
      }
      var triedNode = queued == null ? null : queued.progress().unconfirmedNode();
      if (info != null && info.nodeName().equals(triedNode)) {
        reporting.lateBinding(info, triedNode);
      }
      if (oldPod == null || !PodFilters.isAssigned(oldPod)) {
        moves.assignedPodAdded(PodFilters.namespace(pod), PodFilters.labels(pod));
      } else {
        moves.assignedPodUpdated(PodFilters.namespace(pod), PodFilters.labels(oldPod), PodFilters.labels(pod));
      }
    } else if (isOurs(pod)) {
      // The kept form, as the informer's store holds it: the object an add or update hands over is the
      // full one (managed fields, annotations, env...), and a backlog of pending pods would hold all of it.
      // Kept once, then converted, compared and handed to the binder in that one form.
      var kept = keep.apply(pod);
      pending.put(uid, kept);
      // Our own condition and event writes change only the status: they must not retry the pod.
      if (oldPod == null || changedBeyondStatus(oldPod, kept)) {
        queue.add(toQueued(kept));
        if (LOG.isTraceEnabled()) {
          LOG.trace("Queued {}/{} ({})", PodFilters.namespace(pod), pod.getMetadata().getName(),
              oldPod == null ? "added" : "changed");
        }
      } else if (!Objects.equals(nominatedNodeName(oldPod), nominatedNodeName(kept))) {
        // A nomination written by another scheduler (or a leader before us): the nominator follows it, the pod
        // stays where it waits.
        var queued = toQueued(kept);
        var info = queued.info();
        if (info != null) {
          queue.observe(info);
        } else {
          queue.add(queued); // a status that cannot be read (a bad start time): the attempt reports it
        }
      }
    } else {
      pending.remove(uid); // e.g. now being deleted
      storage.release(uid);
      queue.delete(uid);
    }
  }

  private void podDeleted(Pod pod) {
    var uid = NodeListing.uid(pod);
    pending.remove(uid);
    storage.release(uid);
    var counted = cache.pod(uid);
    boolean wasCounted = cache.removePod(uid);
    boundPodLeaving.accept(uid);
    queue.delete(uid);
    if (wasCounted || PodFilters.occupiesNode(pod)) {
      assignedPodGone(ClusterEvent.ASSIGNED_POD_DELETE, counted, pod); // its node has room again
    }
  }

  /**
   * Moves the pods a bound pod's leaving may help, asking their hints about it as the cache counted it (or as the
   * watch shows it); by the kind of change alone when it cannot be read.
   */
  private void assignedPodGone(ClusterEvent event, @Nullable PodInfo counted, Pod pod) {
    var gone = counted;
    if (gone == null) {
      try {
        gone = PodAdapter.toPodInfo(pod);
      } catch (MalformedObjectException e) {
        queue.moveOnClusterChange(event, POD_DELETED);
        return;
      }
    }
    queue.moveOnClusterChange(event, new ClusterUpdate.AssignedPodDeleted(gone));
  }

  private static @Nullable String nominatedNodeName(Pod pod) {
    var status = pod.getStatus();
    return status == null ? null : status.getNominatedNodeName();
  }

  /** The queue's item for a pod of ours: converted now, or carrying why it cannot be. */
  private static QueuedPod toQueued(Pod pod) {
    try {
      return QueuedPod.of(PodAdapter.toPodInfo(pod));
    } catch (MalformedObjectException e) {
      var entry = PodFilters.queueEntry(pod);
      return new QueuedPod(
          entry.uid(), entry.namespace(), entry.name(), entry.priority(), entry.profile(), entry.gated(),
          null, e, QueuedPod.Progress.NONE);
    }
  }

  /** Records a bound pod in the cache, or drops it with a warning if it cannot be read. */
  private @Nullable PodInfo putBoundPod(Pod pod) {
    try {
      var info = PodAdapter.toPodInfo(pod);
      cache.putPod(info);
      return info;
    } catch (MalformedObjectException e) {
      cache.removePod(NodeListing.uid(pod));
      LOG.warn("Bound pod left out of the node list: {}", e.getMessage());
      return null;
    }
  }

  /** @return the node as put; null when it cannot be read and was left out */
  private @Nullable NodeInfo putNode(Node node) {
    try {
      var info = NodeAdapter.toNodeInfo(node, List.of());
      cache.putNode(info);
      return info;
    } catch (MalformedObjectException e) {
      cache.removeNode(node.getMetadata().getName());
      LOG.warn("Leaving node out of the node list: {}", e.getMessage());
      return null;
    }
  }

  /** @return the node as the cache had it before an update; null when it could not be read (it was left out) */
  private static @Nullable NodeInfo nodeInfo(Node node) {
    try {
      return NodeAdapter.toNodeInfo(node, List.of());
    } catch (MalformedObjectException e) {
      return null;
    }
  }

  private boolean isOurs(Pod pod) {
    var schedulerName = PodAdapter.schedulerName(pod);
    return profiles.contains(schedulerName) && PodFilters.needsScheduling(pod, schedulerName);
  }

  /**
   * Whether an update changed more than the pod's status (kube-scheduler's {@code isPodUpdated}), so that
   * our own condition writes do not retry a waiting pod; a change of {@code status.resourceClaimStatuses} counts
   * too (kube's {@code UpdatePodGeneratedResourceClaim} event: the claim made from a template is now named, so the
   * pod waiting for it may fit). The old pod comes from the informer's store, which keeps only what the scheduler
   * reads ({@link InformerStores}), so both are compared in that form: a change of a field the scheduler does not
   * read (an annotation, an env var) does not count either.
   */
  static boolean changedBeyondStatus(Pod oldPod, Pod pod) {
    try {
      var before = InformerStores.kept(oldPod);
      var after = InformerStores.kept(pod);
      return !Objects.equals(before.getSpec(), after.getSpec())
          || !Objects.equals(before.getMetadata().getLabels(), after.getMetadata().getLabels())
          || !Objects.equals(claimStatuses(before), claimStatuses(after));
    } catch (RuntimeException malformed) { // fabric8's Quantity.equals parses, and throws on "12x"
      return true;
    }
  }

  private static Object claimStatuses(Pod pod) {
    var status = pod.getStatus();
    return status == null ? List.of() : status.getResourceClaimStatuses();
  }
}
