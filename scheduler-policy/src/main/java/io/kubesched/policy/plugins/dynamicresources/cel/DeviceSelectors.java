package io.kubesched.policy.plugins.dynamicresources.cel;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Compiles device selectors once and keeps them: kube's {@code cel.Cache}, a least-recently-used cache of the
 * selectors that compiled (an expression that does not compile is compiled again each time, as kube does). Safe to
 * use from many threads: the filter threads call {@link #compile} concurrently, and two threads asking for the
 * same new expression compile it once (kube's per-key mutex); {@link DeviceSelector}s are immutable.
 */
public final class DeviceSelectors {

  /** The size of kube-scheduler's cache ({@code cel.NewCache(10, ...)} in the DynamicResources plugin). */
  public static final int KUBE_SCHEDULER_CACHE_SIZE = 10;

  private static final int LOCK_STRIPES = 64;

  private final int maxEntries;
  private final Object[] compileLocks = new Object[LOCK_STRIPES];
  private final Map<String, DeviceSelector> cache;

  private DeviceSelectors(int maxEntries) {
    this.maxEntries = maxEntries;
    for (int i = 0; i < LOCK_STRIPES; i++) {
      compileLocks[i] = new Object();
    }
    this.cache =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, DeviceSelector> eldest) {
            return size() > DeviceSelectors.this.maxEntries;
          }
        };
  }

  /** @return a compiler with a cache of kube-scheduler's size ({@value #KUBE_SCHEDULER_CACHE_SIZE}) */
  public static DeviceSelectors create() {
    return new DeviceSelectors(KUBE_SCHEDULER_CACHE_SIZE);
  }

  /**
   * @param maxEntries how many compiled selectors to keep at most, the least recently used dropped first
   * @return a compiler with its cache
   * @throws IllegalArgumentException if {@code maxEntries} is not positive
   */
  public static DeviceSelectors create(int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be positive, not " + maxEntries);
    }
    return new DeviceSelectors(maxEntries);
  }

  /**
   * @return the compiled selector, from the cache when {@code expression} was compiled before
   * @throws SelectorException with kube's message when it does not compile
   */
  public DeviceSelector compile(String expression) throws SelectorException {
    synchronized (compileLocks[Math.floorMod(expression.hashCode(), LOCK_STRIPES)]) {
      DeviceSelector cached = cached(expression);
      if (cached != null) {
        return cached;
      }
      DeviceSelector compiled = SelectorEnvironment.compile(expression);
      synchronized (cache) {
        cache.put(expression, compiled);
      }
      return compiled;
    }
  }

  /** @return how many compiled selectors the cache holds */
  public int size() {
    synchronized (cache) {
      return cache.size();
    }
  }

  private @org.jspecify.annotations.Nullable DeviceSelector cached(String expression) {
    synchronized (cache) {
      return cache.get(expression);
    }
  }
}
