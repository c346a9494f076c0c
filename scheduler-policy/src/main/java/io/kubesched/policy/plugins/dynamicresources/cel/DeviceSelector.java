package io.kubesched.policy.plugins.dynamicresources.cel;

import io.kubesched.api.Device;

/**
 * One compiled CEL device selector (kube's {@code cel.CompilationResult}), made by {@link DeviceSelectors#compile}.
 * Immutable: the filter threads may call {@link #matches} concurrently, each evaluation with its own cost budget.
 */
public interface DeviceSelector {

  /** @return the expression as written */
  String expression();

  /**
   * Evaluates the selector for {@code device} of {@code driver}, as kube's {@code DeviceMatches}: an attribute or
   * capacity name without a domain belongs to {@code driver}'s.
   *
   * @param driver the driver that published the device (its slice's driver), the domain of unqualified names
   * @param device the device
   * @return whether the device matches
   * @throws SelectorException with kube's message when evaluation fails: a missing attribute ({@code no such key:
   *     name}), a version attribute that is not semver ({@code attribute v: parse semantic version: …}), the cost
   *     limit ({@code operation cancelled: actual cost limit exceeded}), a result that is not bool ({@code CEL
   *     result of type int could not be converted to bool}), a function's own error
   */
  boolean matches(String driver, Device device) throws SelectorException;
}
