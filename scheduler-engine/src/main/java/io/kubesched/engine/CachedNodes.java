package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import java.util.AbstractList;
import java.util.Map;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * The nodes one scheduling decision reads, in name order: an immutable list over an array that is never
 * written after it is handed out, plus the name index it shares with the other lists of the same set of nodes.
 */
public final class CachedNodes extends AbstractList<NodeInfo> implements RandomAccess {

  private final NodeInfo[] nodes;
  private final Map<String, Integer> positions;

  /**
   * @param nodes the nodes, owned by this list from now on
   * @param positions each node's index in {@code nodes}, by name; not modified by anyone
   */
  public CachedNodes(NodeInfo[] nodes, Map<String, Integer> positions) {
    this.nodes = nodes;
    this.positions = positions;
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

  /** A copy of the array, for the next list to change a few entries of. */
  public NodeInfo[] copyOfNodes() {
    return nodes.clone();
  }

  public Map<String, Integer> positions() {
    return positions;
  }
}
