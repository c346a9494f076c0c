package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelector;
import io.kubesched.policy.plugins.dynamicresources.cel.SelectorException;

/**
 * How the allocator gets a compiled selector: {@link io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors}
 * in production, a test double in tests. Must be safe to call from many threads.
 */
@FunctionalInterface
interface SelectorCompiler {

  /**
   * @return the compiled selector
   * @throws SelectorException with kube's message when it does not compile
   */
  DeviceSelector compile(String expression) throws SelectorException;
}
