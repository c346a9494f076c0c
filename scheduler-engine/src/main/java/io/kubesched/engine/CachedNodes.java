package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.internal.DerivedList;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The nodes one scheduling decision reads, in name order: an immutable list over arrays that are never
 * written after they are handed out, plus the name index it shares with the other lists of the same set of
 * nodes. A list made from the one before by replacing a few nodes says which ({@link DerivedList}), so that the
 * snapshot of the decision updates what it knows about the nodes at those positions only; it remembers the
 * list before only until the next one is made, so lists do not hold on to each other in a chain.
 *
 * <p>The nodes are kept in chunks of {@value #CHUNK}, and a list made from the one before copies the array of
 * chunks and the chunks it changes only, sharing the others: a decision usually changes one node (the one
 * it assumed a pod on), and copying the whole array, 20 KB at 5 000 nodes, was about a tenth of what the
 * scheduler allocated a pod. Reading a node costs one more array load.
 */
public final class CachedNodes extends AbstractList<NodeInfo> implements DerivedList<NodeInfo> {

  private static final int[] NONE = new int[0];

  /** How many nodes a chunk holds; a power of two. */
  static final int CHUNK = 64;

  private static final int SHIFT = Integer.numberOfTrailingZeros(CHUNK);

  /** The nodes, {@link #CHUNK} to a chunk, the last one holding what is left; never written once handed out. */
  private final NodeInfo[][] chunks;
  private final int size;
  private final Map<String, Integer> positions;
  private volatile @Nullable CachedNodes base;
  private final int[] changed;

  /**
   * A list built afresh.
   *
   * @param nodes the nodes, copied
   * @param positions each node's index in {@code nodes}, by name; not modified by anyone
   */
  public CachedNodes(NodeInfo[] nodes, Map<String, Integer> positions) {
    this(chunksOf(nodes), nodes.length, positions, null, NONE);
  }

  private CachedNodes(
      NodeInfo[][] chunks, int size, Map<String, Integer> positions, @Nullable CachedNodes base, int[] changed) {
    this.chunks = chunks;
    this.size = size;
    this.positions = positions;
    this.base = base;
    this.changed = changed;
  }

  private static NodeInfo[][] chunksOf(NodeInfo[] nodes) {
    var chunks = new NodeInfo[(nodes.length + CHUNK - 1) >>> SHIFT][];
    for (int c = 0; c < chunks.length; c++) {
      int from = c << SHIFT;
      chunks[c] = Arrays.copyOfRange(nodes, from, Math.min(from + CHUNK, nodes.length));
    }
    return chunks;
  }

  /**
   * The list after this one, with {@code replacements} at {@code changed}; from now on this list no longer
   * remembers its own base.
   *
   * @param changed the positions to replace (owned by the new list from now on)
   * @param replacements the nodes, in the order of {@code changed}
   * @return the new list, of the same nodes by name, sharing this one's name index and its unchanged chunks
   */
  public CachedNodes with(int[] changed, NodeInfo[] replacements) {
    var next = chunks.clone();
    for (int i = 0; i < changed.length; i++) {
      int position = changed[i];
      int c = position >>> SHIFT;
      if (next[c] == chunks[c]) {
        next[c] = chunks[c].clone();
      }
      next[c][position & (CHUNK - 1)] = replacements[i];
    }
    base = null;
    return new CachedNodes(next, size, positions, this, changed);
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
    return chunks[index >>> SHIFT][index & (CHUNK - 1)];
  }

  @Override
  public int size() {
    return size;
  }

  /** @return whether a node of this name is in the list, in constant time */
  public boolean hasNode(String name) {
    return positions.containsKey(name);
  }

  /** @return the node of this name, in constant time; null if the list has none */
  public @Nullable NodeInfo node(String name) {
    var position = positions.get(name);
    return position == null ? null : get(position);
  }

  /** A copy of the nodes, as {@link java.util.List#copyOf} asks for it: one array copy a chunk, no iterator. */
  @Override
  public Object[] toArray() {
    var all = new NodeInfo[size];
    for (int c = 0; c < chunks.length; c++) {
      System.arraycopy(chunks[c], 0, all, c << SHIFT, chunks[c].length);
    }
    return all;
  }
}
