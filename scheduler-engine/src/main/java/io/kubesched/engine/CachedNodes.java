package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.internal.DerivedList;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The nodes one scheduling decision reads, in name order: an immutable list over an array that is never
 * written after it is handed out, plus the name index it shares with the other lists of the same set of nodes.
 * A list made from the one before by replacing a few nodes says which ({@link DerivedList}), so that the
 * snapshot of the decision updates what it knows about the nodes at those positions only; it remembers the
 * list before only until the next one is made, so lists do not hold on to each other in a chain.
 */
public final class CachedNodes extends AbstractList<NodeInfo> implements DerivedList<NodeInfo> {

  private static final int[] NONE = new int[0];

  private final NodeInfo[] nodes;
  private final Map<String, Integer> positions;
  private volatile @Nullable CachedNodes base;
  private final int[] changed;

  /**
   * A list built afresh.
   *
   * @param nodes the nodes, owned by this list from now on
   * @param positions each node's index in {@code nodes}, by name; not modified by anyone
   */
  public CachedNodes(NodeInfo[] nodes, Map<String, Integer> positions) {
    this(nodes, positions, null, NONE);
  }

  private CachedNodes(
      NodeInfo[] nodes, Map<String, Integer> positions, @Nullable CachedNodes base, int[] changed) {
    this.nodes = nodes;
    this.positions = positions;
    this.base = base;
    this.changed = changed;
  }

  /**
   * The list after this one, with {@code replacements} at {@code changed}; from now on this list no longer
   * remembers its own base.
   *
   * @param changed the positions to replace (owned by the new list from now on)
   * @param replacements the nodes, in the order of {@code changed}
   * @return the new list, of the same nodes by name, sharing this one's name index
   */
  public CachedNodes with(int[] changed, NodeInfo[] replacements) {
    var next = nodes.clone();
    for (int i = 0; i < changed.length; i++) {
      next[changed[i]] = replacements[i];
    }
    base = null;
    return new CachedNodes(next, positions, this, changed);
  }

  @Override
  public @Nullable List<NodeInfo> base() {
    return base;
  }

  @Override
  public int[] changedPositions() {
    return changed;
  }

  @Override
  public NodeInfo get(int index) {
    return nodes[index];
  }

  @Override
  public int size() {
    return nodes.length;
  }

  /** @return whether a node of this name is in the list, in constant time */
  public boolean hasNode(String name) {
    return positions.containsKey(name);
  }

  /** @return the node of this name, in constant time; null if the list has none */
  public @Nullable NodeInfo node(String name) {
    var position = positions.get(name);
    return position == null ? null : nodes[position];
  }

  /** A copy of the array, as {@link java.util.List#copyOf} asks for it: one array copy, no iterator. */
  @Override
  public Object[] toArray() {
    return nodes.clone();
  }
}
