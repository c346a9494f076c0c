package io.kubesched.policy.plugins.dynamicresources.cel;

/** A device selector that does not compile, or whose evaluation failed; the message is kube's. */
public final class SelectorException extends Exception {
  private static final long serialVersionUID = 1L;

  /** @param message what went wrong, as kube words it */
  public SelectorException(String message) {
    super(message);
  }
}
