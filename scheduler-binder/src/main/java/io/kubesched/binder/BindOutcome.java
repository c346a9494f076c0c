package io.kubesched.binder;

/** How a binding ended. Every expected case is a value here; none is an exception. */
public sealed interface BindOutcome {

  /**
   * The pod is bound to the node asked for.
   *
   * @param nodeName the node
   * @param alreadyBound true if the pod was already bound there (an earlier attempt, whose answer was lost,
   *     had succeeded)
   */
  record Bound(String nodeName, boolean alreadyBound) implements BindOutcome {}

  /**
   * The pod is bound, but to another node (someone else bound it first). Do not retry.
   *
   * @param actualNode where the pod is bound
   */
  record Conflict(String actualNode) implements BindOutcome {}

  /**
   * The pod no longer exists, or a different pod now has its name. Do not retry.
   *
   * @param detail what was found
   */
  record PodGone(String detail) implements BindOutcome {}

  /**
   * The binding failed for another reason (server error, time-out, refused). The pod may be tried again.
   *
   * @param detail the status code and message, or the exception
   */
  record Failed(String detail) implements BindOutcome {}
}
