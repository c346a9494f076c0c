package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.policy.framework.Reason;

/**
 * Why the DynamicResources plugin turned a pod or a node away, with kube's message (its {@code statusUnschedulable}
 * reasons, all of code UnschedulableAndUnresolvable).
 *
 * @param message kube's message
 */
public record ClaimRejection(String message) implements Reason {

  /** Kube's Filter message for a node where the allocator found no devices for all unallocated claims. */
  public static final ClaimRejection CANNOT_ALLOCATE = new ClaimRejection("cannot allocate all claims");

  /** Kube's Filter message for a node outside an allocated claim's node selector. */
  public static final ClaimRejection NOT_AVAILABLE_ON_NODE =
      new ClaimRejection("resourceclaim not available on the node");
}
