package io.kubesched.policy.plugins.dynamicresources.cel;

import io.kubesched.api.dra.Device;

/** One compiled CEL device selector (kube's {@code cel.CompilationResult}); safe to use from many threads. */
public interface DeviceSelector {

  /** @return the expression as written */
  String expression();

  /**
   * Evaluates the selector for {@code device} of {@code driver}, as kube's {@code DeviceMatches}.
   *
   * @return whether the device matches
   * @throws SelectorException with kube's message when evaluation fails (a missing attribute, the cost limit, …)
   */
  boolean matches(String driver, Device device) throws SelectorException;
}
