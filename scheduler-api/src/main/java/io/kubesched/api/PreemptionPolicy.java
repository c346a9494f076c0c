package io.kubesched.api;

/** A pod's {@code spec.preemptionPolicy}: whether lower-priority pods may be evicted to make room for it. */
public enum PreemptionPolicy {
  /** Kubernetes' default: the scheduler may preempt pods of lower priority to place this one. */
  PREEMPT_LOWER_PRIORITY,
  /** The pod waits for room; it never has other pods evicted (it is still placed ahead of them in the queue). */
  NEVER
}
