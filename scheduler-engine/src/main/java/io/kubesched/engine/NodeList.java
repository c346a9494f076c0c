package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The {@link SchedulerCache}'s nodes by name, each a {@link NodeState}, and the node list it hands out,
 * updated incrementally as kube-scheduler's {@code UpdateSnapshot} updates its snapshot: {@link #current()}
 * costs one step per node changed since the last list plus a copy of the array of references, and walks
 * every node again only when a node was added or removed since. A name is known while its node is put or
 * pods are counted on it; only put nodes are listed.
 *
 * <p>Not thread-safe: guarded by the cache's lock.
 */
final class NodeList {

  /** Every node name that is put or has pods waiting for it, sorted so that node lists come in name order. */
  private final TreeMap<String, NodeState> nodes = new TreeMap<>();

  private int putNodes;

  /** The last node list handed out. */
  private @Nullable CachedNodes last;

  /** Whether a node was added or removed since the last node list: the next one walks every node. */
  private boolean structureChanged = true;

  /** The put nodes whose object or pods changed since the last node list (when the structure did not). */
  private final List<NodeState> dirty = new ArrayList<>();

  /** @return how many nodes are put */
  int size() {
    return putNodes;
  }

  /**
   * Adds or replaces a node; pods already counted under its name count on it.
   *
   * @param node the node without pods
   */
  void putNode(NodeInfo node) {
    var state = nodes.computeIfAbsent(node.name(), name -> new NodeState());
    boolean added = !state.isPut();
    if (!state.setNode(node)) {
      return;
    }
    if (added) {
      putNodes++;
      structureChanged = true;
    }
    markDirty(state);
  }

  /**
   * Removes a node; pods counted on it are kept and count again if a node of that name is put again.
   *
   * @return whether the node was put
   */
  boolean removeNode(String name) {
    var state = nodes.get(name);
    if (state == null || !state.isPut()) {
      return false;
    }
    state.clearNode();
    putNodes--;
    if (state.isUnused()) {
      nodes.remove(name);
    }
    structureChanged = true;
    return true;
  }

  /**
   * Removes every put node whose name is not in {@code names}.
   *
   * @return how many nodes were removed
   */
  int retainNodes(Set<String> names) {
    int removed = 0;
    for (var name : new ArrayList<>(nodes.keySet())) {
      if (!names.contains(name) && removeNode(name)) {
        removed++;
      }
    }
    return removed;
  }

  /** Counts {@code pod} on the node its node name names, put or not, replacing a pod of the same uid there. */
  void addPod(PodInfo pod) {
    var state = nodes.computeIfAbsent(pod.nodeName(), name -> new NodeState());
    state.putPod(pod);
    podsChanged(state);
  }

  /**
   * Stops counting {@code pod} on the node its node name names.
   *
   * @throws IllegalStateException if it was not counted there: the cache's books disagree
   */
  void removePod(PodInfo pod) {
    var state = nodes.get(pod.nodeName());
    if (state == null || !state.removePod(pod)) {
      throw new IllegalStateException("pod " + pod.key() + " was not counted on node " + pod.nodeName());
    }
    podsChanged(state);
    if (state.isUnused()) {
      nodes.remove(pod.nodeName());
    }
  }

  /**
   * @return every put node with its pods, in name order; the same list while nothing changed, and the same
   *     {@link NodeInfo} for each node that did not change
   */
  CachedNodes current() {
    var previous = last;
    if (previous != null && !structureChanged && dirty.isEmpty()) {
      return previous;
    }
    CachedNodes fresh;
    if (previous == null || structureChanged) {
      var infos = new NodeInfo[putNodes];
      var positions = new HashMap<String, Integer>(putNodes * 2);
      int i = 0;
      for (var entry : nodes.entrySet()) {
        var state = entry.getValue();
        if (state.isPut()) {
          state.position = i;
          positions.put(entry.getKey(), i);
          infos[i++] = state.current();
        }
      }
      fresh = new CachedNodes(infos, positions);
    } else {
      var changed = new int[dirty.size()];
      var replacements = new NodeInfo[changed.length];
      for (int i = 0; i < changed.length; i++) {
        var state = dirty.get(i);
        changed[i] = state.position;
        replacements[i] = state.current();
      }
      fresh = previous.with(changed, replacements);
    }
    for (var state : dirty) {
      state.queued = false;
    }
    dirty.clear();
    structureChanged = false;
    last = fresh;
    return fresh;
  }

  private void podsChanged(NodeState state) {
    if (state.isPut()) {
      markDirty(state);
    }
  }

  /** Notes a put node to rebuild at the next node list, unless the next one walks every node anyway. */
  private void markDirty(NodeState state) {
    if (!state.queued && !structureChanged) {
      state.queued = true;
      dirty.add(state);
    }
  }
}
