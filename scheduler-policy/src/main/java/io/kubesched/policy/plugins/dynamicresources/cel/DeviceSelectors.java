package io.kubesched.policy.plugins.dynamicresources.cel;

/**
 * Compiles device selectors once and keeps them (kube's {@code cel.Cache}); safe to use from many threads.
 */
public final class DeviceSelectors {

  private DeviceSelectors() {}

  /** @return a compiler with its cache */
  public static DeviceSelectors create() {
    return new DeviceSelectors();
  }

  /**
   * @return the compiled selector, from the cache when {@code expression} was compiled before
   * @throws SelectorException with kube's message when it does not compile
   */
  public DeviceSelector compile(String expression) throws SelectorException {
    return SelectorEnvironment.compile(expression);
  }
}
