package io.kubesched.drills;

/**
 * One broken invariant.
 *
 * @param kind which invariant
 * @param subject the pod or node it is about
 * @param detail what was seen, for the reader of the report
 */
record Violation(Kind kind, String subject, String detail) {

  /** The invariants, in the order the report lists them. */
  enum Kind {
    /** a pod that could be placed is still pending after the system settled */
    LOST,
    /** a pod's {@code spec.nodeName} changed after it was first set */
    MOVED,
    /** the API server accepted more than one binding for a pod (its audit log's 2xx creates of {@code pods/binding}) */
    BOUND_TWICE,
    /**
     * a pod has more than one {@code Scheduled} event (or one with a series of more than one): the scheduler
     * reported it bound twice; whether it was bound twice is {@link #BOUND_TWICE}'s to say
     */
    REPORTED_TWICE,
    /** the pods bound to a node request more than its allocatable CPU, memory or pod count */
    OVER_ALLOCATABLE,
    /** two pods of one required anti-affinity group on one node */
    ANTI_AFFINITY,
    /**
     * the bound members of a topology spread group differ between two of the zones its pods could go to by
     * more than its {@code maxSkew}; only groups none of whose members the runner deleted, and none of whose
     * members is on a node the runner deleted
     */
    SPREAD,
    /** a pending pod that is not gated has neither a FailedScheduling event nor PodScheduled=False */
    NO_REASON,
    /** the scheduler's view of the nodes differs from the pods the API server has bound */
    CACHE_MISMATCH,
    /** a fault that expires the watches (410 Gone) was not followed by a LIST of the scheduler's */
    NO_RELIST,
    /** the thread count or the heap after GC grew across the trials */
    GROWTH
  }
}
