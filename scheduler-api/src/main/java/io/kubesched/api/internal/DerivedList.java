package io.kubesched.api.internal;

import java.util.List;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * A list that says where it differs from the list it was made from, so that a {@code ClusterSnapshot} derived
 * from the snapshot of that list updates what it knows about its nodes in one step per changed node instead
 * of one per node. The scheduler's cache hands such node lists out (one per decision, a copy of the last with
 * the changed nodes replaced, as kube-scheduler's {@code UpdateSnapshot}); a snapshot takes one as it is,
 * without copying it.
 *
 * <p>Internal: exported to the scheduler's engine only. An implementation is immutable: no element is ever
 * written after the list is handed out; {@link #base()} may be forgotten (become null) later, from any thread.
 *
 * @param <E> the elements (the API's {@code NodeInfo}; generic so that this package does not depend on the
 *     API's and the two form no cycle)
 */
public interface DerivedList<E> extends List<E>, RandomAccess {

  /**
   * @return the list this one was made from, of the same size, holding the same object as this one at every
   *     position not in {@link #changedPositions()}; null if this list was built afresh or no longer remembers
   */
  @Nullable List<E> base();

  /**
   * @return the positions, each once, at which this list's element may differ from {@link #base()}'s (not to
   *     be modified)
   */
  int[] changedPositions();
}
