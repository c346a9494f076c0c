package io.kubesched.binder;

/** How one claim write of {@link ClaimWriter} ended. Every expected case is a value here; none an exception. */
public sealed interface ClaimOutcome {

  /** The claim shows the allocation and the pod in {@code reservedFor}: written now, or already. */
  record Written() implements ClaimOutcome {}

  /**
   * The claim {@link ClaimWriter#create} was asked to create exists now.
   *
   * @param name the name the API server generated
   * @param uid its uid
   */
  record Created(String name, String uid) implements ClaimOutcome {}

  /**
   * The write did not take and will not by being repeated as it is: the claim is gone, being deleted, allocated
   * elsewhere meanwhile, kept changing, or the server refused or did not answer. The pod's attempt has failed and
   * the pod is to be tried again.
   *
   * @param detail kube-scheduler's words for it ({@code add allocation and reservation to claim ns/name: ...})
   */
  record Failed(String detail) implements ClaimOutcome {}
}
