package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
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

  /** What the cache knows of one pod. Guarded by {@link #lock}. */
  private static final class PodState {
    /** The pod, with {@link PodInfo#nodeName()} the node it counts on. */
    PodInfo pod;

    boolean assumed;
    boolean bindingFinished;
    long deadline;

    PodState(PodInfo pod, boolean assumed) {
      this.pod = pod;
      this.assumed = assumed;
    }
  }

  /** One node name's state: the node as put (if it is), its pods, and the last {@link NodeInfo} built. */
  private static final class NodeEntry {
    /** The node as put, without pods; null while the node is not put (its pods wait for it). */
    @Nullable NodeInfo node;

    /** The pods counted on the node, by uid, in the order they came. */
    final LinkedHashMap<String, PodInfo> pods = new LinkedHashMap<>();

    /** The last {@link NodeInfo} handed out; null if none was built yet. */
    @Nullable NodeInfo built;

    boolean nodeChanged = true;
    boolean podsChanged = true;

    /** Its index in the last node list; valid while no node was added or removed since. */
    int position = -1;
    /** Whether it is in {@link #dirty}. */
    boolean queued;

    /** @return this node with its pods, rebuilt only as far as something changed; node must be put */
    NodeInfo current() {
      var n = node;
      if (n == null) {
        throw new IllegalStateException("a node that is not put has no NodeInfo");
      }
      var last = built;
      if (last != null && !nodeChanged && !podsChanged) {
        return last;
      }
      NodeInfo fresh;
      if (last != null && !podsChanged) {
        // Only the node object changed: its pods and their sums stay as they were.
        fresh =
            new NodeInfo(
                n.name(),
                n.labels(),
                n.taints(),
                n.unschedulable(),
                n.allocatable(),
                last.requested(),
                last.nonZeroRequested(),
                n.images(),
                last.pods());
      } else {
        fresh =
            NodeInfo.builder(n.name())
                .labels(n.labels())
                .taints(n.taints())
                .unschedulable(n.unschedulable())
                .allocatable(n.allocatable())
                .images(n.images())
                .pods(new ArrayList<>(pods.values()))
                .build();
      }
      built = fresh;
      nodeChanged = false;
      podsChanged = false;
      return fresh;
    }
  }

  private final Ticker ticker;
  /** How long a finished binding's assumption lives unconfirmed; 0 means forever. */
  private final long assumedTtlNanos;

  private final ReentrantLock lock = new ReentrantLock();
  /** Every node name that is put or has pods waiting for it, sorted so that node lists come in name order. */
  private final TreeMap<String, NodeEntry> nodes = new TreeMap<>();

  private final Map<String, PodState> pods = new HashMap<>();
  /** The assumed subset of {@link #pods}, in the order they were assumed. */
  private final LinkedHashMap<String, PodState> assumed = new LinkedHashMap<>();

  private int putNodes;
  /** The last node list handed out. */
  private @Nullable CachedNodes lastNodes;
  /** Whether a node was added or removed since the last node list: the next one walks every node. */
  private boolean structureChanged = true;
  /** The put nodes whose object or pods changed since the last node list (when the structure did not). */
  private final List<NodeEntry> dirty = new ArrayList<>();

  /**
   * @param ticker the only source of time, for assumption deadlines
   * @param assumedTtl how long an assumption lives after {@link #finishBinding} unless the watch confirms it;
   *     {@link Duration#ZERO} keeps assumptions until confirmed, forgotten or removed (kube-scheduler's
   *     behaviour since v1.23); not negative (the facade's {@code Options} validates it)
   */
  public SchedulerCache(Ticker ticker, Duration assumedTtl) {
    assert !assumedTtl.isNegative() : "assumedTtl " + assumedTtl;
    this.assumedTtlNanos = assumedTtl.toNanos();
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
    lock.lock();
    try {
      var entry = nodes.computeIfAbsent(node.name(), name -> new NodeEntry());
      var previous = entry.node;
      if (node.equals(previous)) {
        return;
      }
      var lastBuilt = entry.built;
      var previousImages =
          previous != null ? previous.images() : lastBuilt != null ? lastBuilt.images() : null;
      if (previousImages != null
          && previousImages != node.images()
          && previousImages.equals(node.images())) {
        // Same images in a new list: keep the old list so identity-keyed image counts stay valid.
        node =
            new NodeInfo(
                node.name(),
                node.labels(),
                node.taints(),
                node.unschedulable(),
                node.allocatable(),
                node.requested(),
                node.nonZeroRequested(),
                previousImages,
                node.pods());
      }
      if (previous == null) {
        putNodes++;
        structureChanged = true;
      }
      entry.node = node;
      entry.nodeChanged = true;
      markDirty(entry);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes a node the node watch shows deleted. Pods still counted on it are kept (their deletions may
   * arrive later on the pod watch) and count again if a node of that name is put again.
   *
   * @return whether the node was put
   */
  public boolean removeNode(String name) {
    lock.lock();
    try {
      var entry = nodes.get(name);
      if (entry == null || entry.node == null) {
        return false;
      }
      entry.node = null;
      putNodes--;
      if (entry.pods.isEmpty()) {
        nodes.remove(name);
      }
      structureChanged = true;
      return true;
    } finally {
      lock.unlock();
    }
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
    lock.lock();
    try {
      var state = pods.get(pod.uid());
      if (state == null) {
        pods.put(pod.uid(), new PodState(pod, false));
        addToNode(pod);
        return;
      }
      if (state.assumed) {
        state.assumed = false;
        assumed.remove(pod.uid());
      }
      if (state.pod.equals(pod)) {
        return;
      }
      if (!state.pod.nodeName().equals(pod.nodeName())) {
        removeFromNode(state.pod);
      }
      state.pod = pod;
      // On the same node this replaces the pod in place, keeping its position.
      addToNode(pod);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes a pod the pod watch shows deleted (or no longer holding resources), bound or assumed.
   *
   * @return whether the cache knew the pod
   */
  public boolean removePod(String uid) {
    lock.lock();
    try {
      var state = pods.remove(uid);
      if (state == null) {
        return false;
      }
      assumed.remove(uid);
      removeFromNode(state.pod);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Drops what a fresh list of the cluster no longer shows: nodes not in {@code nodeNames} and bound pods
   * not in {@code podUids}. Assumed pods stay: the list may predate their binding. For informers started
   * again after their watches were lost, which replay every object as added but not the deletions missed.
   *
   * @return how many nodes and pods were dropped
   */
  public int retainOnly(Set<String> nodeNames, Set<String> podUids) {
    lock.lock();
    try {
      int dropped = 0;
      for (var uid : new ArrayList<>(pods.keySet())) {
        var state = pods.get(uid);
        if (!state.assumed && !podUids.contains(uid)) {
          pods.remove(uid);
          removeFromNode(state.pod);
          dropped++;
        }
      }
      for (var name : new ArrayList<>(nodes.keySet())) {
        if (!nodeNames.contains(name) && removeNode(name)) {
          dropped++;
        }
      }
      return dropped;
    } finally {
      lock.unlock();
    }
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
    lock.lock();
    try {
      var known = pods.get(pod.uid());
      if (known != null) {
        throw new IllegalStateException(
            "pod "
                + pod.key()
                + " (uid "
                + pod.uid()
                + ") cannot be assumed: it is already "
                + (known.assumed ? "assumed on " : "bound to ")
                + known.pod.nodeName());
      }
      var state = new PodState(placed, true);
      pods.put(pod.uid(), state);
      assumed.put(pod.uid(), state);
      addToNode(placed);
      return placed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Records that the binding call for an assumed pod returned: its assumption now expires {@code
   * assumedTtl} from now unless the watch confirms it first. Calling it again restarts the wait.
   *
   * @return whether the pod is assumed (if not, nothing changed)
   */
  public boolean finishBinding(String uid) {
    lock.lock();
    try {
      var state = assumed.get(uid);
      if (state == null) {
        return false;
      }
      state.bindingFinished = true;
      state.deadline = ticker.nanoTime() + assumedTtlNanos;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Undoes an assumption whose binding failed: the node's usage is again exactly what it was without the
   * pod. A pod already confirmed by the watch stays: it is bound after all.
   *
   * @return whether an assumption was undone
   */
  public boolean forget(String uid) {
    lock.lock();
    try {
      var state = assumed.remove(uid);
      if (state == null) {
        return false;
      }
      pods.remove(uid);
      removeFromNode(state.pod);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Undoes every assumption whose binding finished more than {@code assumedTtl} ago without the watch
   * confirming it. Called periodically; the caller logs and requeues what comes back.
   *
   * @return the expired pods, each with the node it was assumed on, in the order they were assumed
   */
  public List<PodInfo> expire() {
    if (assumedTtlNanos == 0) {
      return List.of();
    }
    lock.lock();
    try {
      long now = ticker.nanoTime();
      var expired = new ArrayList<PodInfo>();
      var it = assumed.values().iterator();
      while (it.hasNext()) {
        var state = it.next();
        // Compared as a difference: nanoTime may wrap around.
        if (state.bindingFinished && now - state.deadline > 0) {
          it.remove();
          pods.remove(state.pod.uid());
          removeFromNode(state.pod);
          expired.add(state.pod);
        }
      }
      return List.copyOf(expired);
    } finally {
      lock.unlock();
    }
  }

  /** @return whether the pod of this uid is assumed and not yet confirmed */
  public boolean isAssumed(String uid) {
    lock.lock();
    try {
      return assumed.containsKey(uid);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The state a decision reads: every put node, sorted by name, with the pods bound and assumed on it and
   * their summed usage. Each pod's {@link PodInfo#nodeName()} is its node's name.
   *
   * @return an immutable list, safe to keep and share; the same list while nothing changed
   */
  public CachedNodes nodes() {
    lock.lock();
    try {
      var last = lastNodes;
      if (last != null && !structureChanged && dirty.isEmpty()) {
        return last;
      }
      CachedNodes fresh;
      if (last == null || structureChanged) {
        var infos = new NodeInfo[putNodes];
        var positions = new HashMap<String, Integer>(putNodes * 2);
        int i = 0;
        for (var entry : nodes.values()) {
          if (entry.node != null) {
            entry.position = i;
            positions.put(entry.node.name(), i);
            infos[i++] = entry.current();
          }
        }
        fresh = new CachedNodes(infos, positions);
      } else {
        var infos = last.copyOfNodes();
        for (var entry : dirty) {
          infos[entry.position] = entry.current();
        }
        fresh = new CachedNodes(infos, last.positions());
      }
      for (var entry : dirty) {
        entry.queued = false;
      }
      dirty.clear();
      structureChanged = false;
      lastNodes = fresh;
      return fresh;
    } finally {
      lock.unlock();
    }
  }

  /** @return how many nodes are put */
  public int nodeCount() {
    lock.lock();
    try {
      return putNodes;
    } finally {
      lock.unlock();
    }
  }

  /** @return how many pods the cache knows, bound or assumed, including those whose node is not put */
  public int podCount() {
    lock.lock();
    try {
      return pods.size();
    } finally {
      lock.unlock();
    }
  }

  /** @return how many pods are assumed and not yet confirmed */
  public int assumedCount() {
    lock.lock();
    try {
      return assumed.size();
    } finally {
      lock.unlock();
    }
  }

  /** Counts {@code pod} on its node, replacing a pod of the same uid there. Lock held. */
  private void addToNode(PodInfo pod) {
    var entry = nodes.computeIfAbsent(pod.nodeName(), name -> new NodeEntry());
    entry.pods.put(pod.uid(), pod);
    changedPods(entry);
  }

  /** Stops counting {@code pod} on its node. Lock held. */
  private void removeFromNode(PodInfo pod) {
    var entry = nodes.get(pod.nodeName());
    if (entry == null || entry.pods.remove(pod.uid()) == null) {
      throw new IllegalStateException("pod " + pod.key() + " was not counted on node " + pod.nodeName());
    }
    changedPods(entry);
    if (entry.node == null && entry.pods.isEmpty()) {
      nodes.remove(pod.nodeName());
    }
  }

  private void changedPods(NodeEntry entry) {
    entry.podsChanged = true;
    if (entry.node != null) {
      markDirty(entry);
    }
  }

  /** Notes a put node to rebuild at the next node list. Lock held. */
  private void markDirty(NodeEntry entry) {
    if (!entry.queued && !structureChanged) {
      entry.queued = true;
      dirty.add(entry);
    }
  }

  private static void requireName(String what, String name) {
    if (name.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank, was '" + name + "'");
    }
  }
}
