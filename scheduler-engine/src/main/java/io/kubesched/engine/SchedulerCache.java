package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The node state every scheduling decision reads, kept up to date event by event as kube-scheduler's cache
 * is: the nodes as the node watch shows them, the pods the pod watch shows bound to them, and the pods this
 * scheduler has placed but not yet seen bound ("assumed").
 *
 * <p>A pod's life in the cache, by uid:
 *
 * <ul>
 *   <li>{@link #assume} — the scheduler chose a node: the pod counts on it at once, so the next decision
 *       sees it;
 *   <li>{@link #finishBinding} — the binding call returned; from now the assumption expires after {@code
 *       assumedTtl} unless the watch confirms it;
 *   <li>{@link #putPod} — the watch shows the pod bound: adds it, updates it, or confirms its assumption;
 *       a confirmed pod never expires;
 *   <li>{@link #forget} — the binding failed: the assumption is undone;
 *   <li>{@link #expire} — assumptions whose deadline passed are undone and handed back;
 *   <li>{@link #removePod} — the pod is gone from the cluster.
 * </ul>
 *
 * <p>A pod may name a node the cache does not know (the pod watch ran ahead of the node watch, or the node
 * was deleted first): it is kept, and counts on the node as soon as {@link #putNode} adds it. Only put
 * nodes appear in {@link #nodes()}.
 *
 * <p>Cost: {@link #nodes()} costs one step per node changed since the last one, plus a copy of the
 * array of references, as kube-scheduler's incremental {@code UpdateSnapshot}; only when nodes were added or
 * removed does it walk all nodes again. A node whose object and pods did not change since the last node list
 * is handed out as the very same {@link NodeInfo}, and a node whose images
 * did not change keeps the same {@link NodeInfo#images()} list, so that caches keyed on identity (the
 * image locality scorer's) stay valid. Only a changed node is rebuilt, in time proportional to its pods.
 * Usage ({@link NodeInfo#requested()}, {@link NodeInfo#nonZeroRequested()}) is summed afresh from the
 * node's pods whenever they change, never subtracted, so removing a pod restores the usage exactly even
 * where the sums saturated.
 *
 * <p>Thread-safe: the informers' handlers and the scheduling worker may call any method at the same time;
 * every method holds one short lock and never blocks otherwise. Time comes only from the {@link Ticker}.
 */
public final class SchedulerCache {

  private final Ticker ticker;

  private final ReentrantLock lock = new ReentrantLock();
  /** The nodes and the pods counted on them, and the node list handed out. Guarded by {@link #lock}. */
  private final NodeList nodes = new NodeList();
  /** Every pod known, bound or assumed, with the assumptions' deadlines. Guarded by {@link #lock}. */
  private final PodStates pods;

  /**
   * @param ticker the only source of time, for assumption deadlines
   * @param assumedTtl how long an assumption lives after {@link #finishBinding} unless the watch confirms it;
   *     {@link Duration#ZERO} keeps assumptions until confirmed, forgotten or removed (kube-scheduler's
   *     behaviour since v1.23); not negative (the facade's {@code Options} validates it)
   */
  public SchedulerCache(Ticker ticker, Duration assumedTtl) {
    assert !assumedTtl.isNegative() : "assumedTtl " + assumedTtl;
    this.pods = new PodStates(assumedTtl.toNanos());
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Adds or replaces a node as the node watch shows it. The pods the cache knows on it stay; they count on
   * the new node object. Putting a node equal to the one already put changes nothing.
   *
   * @param node the node without pods (its own {@code requested} sums are not read)
   * @throws IllegalArgumentException if {@code node} has pods or a blank name
   */
  public void putNode(NodeInfo node) {
    requireName("node name", node.name());
    if (!node.pods().isEmpty()) {
      throw new IllegalArgumentException(
          "node " + node.name() + " must be put without pods, had " + node.pods().size());
    }
    locked(() -> nodes.putNode(node));
  }

  /**
   * Removes a node the node watch shows deleted. Pods still counted on it are kept (their deletions may
   * arrive later on the pod watch) and count again if a node of that name is put again.
   *
   * @return whether the node was put
   */
  public boolean removeNode(String name) {
    return locked(() -> nodes.removeNode(name));
  }

  /**
   * Records a pod the pod watch shows bound: adds it to its node, or replaces the cached pod of the same
   * uid (moving it if its node changed). If the pod was assumed, this confirms the assumption: the pod keeps
   * counting once, on the node the watch shows, and never expires. Putting a pod equal to the one cached
   * changes no node.
   *
   * @param pod a pod with a node name
   * @throws IllegalArgumentException if {@code pod} has a blank node name
   */
  public void putPod(PodInfo pod) {
    requireName("nodeName of pod " + pod.key(), pod.nodeName());
    locked(
        () -> {
          var state = pods.get(pod.uid());
          if (state == null) {
            pods.add(pod, false);
            nodes.addPod(pod);
            return;
          }
          pods.confirm(state);
          var previous = state.pod();
          if (previous.equals(pod)) {
            return;
          }
          if (!previous.nodeName().equals(pod.nodeName())) {
            nodes.removePod(previous);
          }
          pods.replace(state, pod);
          // On the same node this replaces the pod in place, keeping its position.
          nodes.addPod(pod);
        });
  }

  /**
   * Removes a pod the pod watch shows deleted (or no longer holding resources), bound or assumed.
   *
   * @return whether the cache knew the pod
   */
  public boolean removePod(String uid) {
    return locked(() -> uncount(pods.remove(uid)));
  }

  /**
   * Drops what a fresh list of the cluster no longer shows: nodes not in {@code nodeNames} and bound pods
   * not in {@code podUids}. Assumed pods stay: the list may predate their binding. For informers started
   * again after their watches were lost, which replay every object as added but not the deletions missed.
   *
   * @return how many nodes and pods were dropped
   */
  public int retainOnly(Set<String> nodeNames, Set<String> podUids) {
    return locked(
        () -> {
          var droppedPods = pods.retainBound(podUids);
          for (var pod : droppedPods) {
            nodes.removePod(pod);
          }
          return droppedPods.size() + nodes.retainNodes(nodeNames);
        });
  }

  /**
   * Records that the scheduler placed {@code pod} on {@code nodeName}: it counts there at once. The
   * assumption lasts until {@link #putPod confirmed}, {@link #forget forgotten}, {@link #removePod removed}
   * or, after {@link #finishBinding}, {@link #expire expired}.
   *
   * @param pod the pod being bound; its own node name is replaced by {@code nodeName}
   * @param nodeName the chosen node
   * @return the pod as counted, with {@code nodeName} as its node name
   * @throws IllegalArgumentException if {@code nodeName} is blank
   * @throws IllegalStateException if the cache already knows the pod's uid, assumed or bound
   */
  public PodInfo assume(PodInfo pod, String nodeName) {
    requireName("node name for pod " + pod.key(), nodeName);
    var placed = pod.nodeName().equals(nodeName) ? pod : pod.toBuilder().nodeName(nodeName).build();
    return locked(
        () -> {
          var known = pods.get(pod.uid());
          if (known != null) {
            throw new IllegalStateException(
                "pod "
                    + pod.key()
                    + " (uid "
                    + pod.uid()
                    + ") cannot be assumed: it is already "
                    + (known.isAssumed() ? "assumed on " : "bound to ")
                    + known.pod().nodeName());
          }
          pods.add(placed, true);
          nodes.addPod(placed);
          return placed;
        });
  }

  /**
   * Records that the binding call for an assumed pod returned: its assumption now expires {@code
   * assumedTtl} from now unless the watch confirms it first. Calling it again restarts the wait.
   *
   * @return whether the pod is assumed (if not, nothing changed)
   */
  public boolean finishBinding(String uid) {
    return locked(() -> pods.finishBinding(uid, ticker.nanoTime()));
  }

  /**
   * Undoes an assumption whose binding failed: the node's usage is again exactly what it was without the
   * pod. A pod already confirmed by the watch stays: it is bound after all.
   *
   * @return whether an assumption was undone
   */
  public boolean forget(String uid) {
    return locked(() -> uncount(pods.forget(uid)));
  }

  /**
   * Undoes every assumption whose binding finished more than {@code assumedTtl} ago without the watch
   * confirming it. Called periodically; the caller logs and requeues what comes back.
   *
   * @return the expired pods, each with the node it was assumed on, in the order they were assumed
   */
  public List<PodInfo> expire() {
    if (!pods.expires()) {
      return List.of();
    }
    return locked(
        () -> {
          var expired = pods.expire(ticker.nanoTime());
          for (var pod : expired) {
            nodes.removePod(pod);
          }
          return List.copyOf(expired);
        });
  }

  /**
   * @return the pod of this uid as the cache holds it (bound or assumed), or null if it holds none: gone, or
   *     never seen on a node
   */
  public @Nullable PodInfo pod(String uid) {
    return locked(() -> {
      var state = pods.get(uid);
      return state == null ? null : state.pod();
    });
  }

  /** @return whether the pod of this uid is assumed and not yet confirmed */
  public boolean isAssumed(String uid) {
    return locked(() -> pods.isAssumed(uid));
  }

  /**
   * @param group a pod group
   * @return how many of its members are assumed or bound in the cache (kube's {@code ScheduledPodsCount}):
   *     those a group's attempt counts as placed already. Pods being deleted count as long as the cache has them.
   */
  public int placedMembers(PodGroupRef group) {
    Objects.requireNonNull(group, "group");
    return locked(() -> pods.placedMembers(group));
  }

  /**
   * The state a decision reads: every put node, sorted by name, with the pods bound and assumed on it and
   * their summed usage. Each pod's {@link PodInfo#nodeName()} is its node's name.
   *
   * @return an immutable list, safe to keep and share; the same list while nothing changed
   */
  public CachedNodes nodes() {
    return locked(() -> nodes.current());
  }

  /** @return how many nodes are put */
  public int nodeCount() {
    return locked(() -> nodes.size());
  }

  /** @return how many pods the cache knows, bound or assumed, including those whose node is not put */
  public int podCount() {
    return locked(() -> pods.size());
  }

  /** @return how many pods are assumed and not yet confirmed */
  public int assumedCount() {
    return locked(() -> pods.assumedCount());
  }

  /**
   * Stops counting a pod the pod books just forgot on its node. Lock held.
   *
   * @return whether there was such a pod
   */
  private boolean uncount(@Nullable PodInfo forgotten) {
    if (forgotten == null) {
      return false;
    }
    nodes.removePod(forgotten);
    return true;
  }

  /** @return what {@code read} returns, run under the lock */
  private <T> T locked(Supplier<T> read) {
    lock.lock();
    try {
      return read.get();
    } finally {
      lock.unlock();
    }
  }

  /** Runs {@code change} under the lock. */
  private void locked(Runnable change) {
    lock.lock();
    try {
      change.run();
    } finally {
      lock.unlock();
    }
  }

  private static void requireName(String what, String name) {
    if (name.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank, was '" + name + "'");
    }
  }
}
