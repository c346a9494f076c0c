package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A pod's {@code spec.preemptionPolicy}: whether lower-priority pods may be evicted to make room for it. */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum PreemptionPolicy {
  /** Kubernetes' default: the scheduler may preempt pods of lower priority to place this one. */
  PREEMPT_LOWER_PRIORITY,
  /** The pod waits for room; it never has other pods evicted (it is still placed ahead of them in the queue). */
  NEVER
}
