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

  private static final java.util.concurrent.atomic.AtomicBoolean WARMING = new java.util.concurrent.atomic.AtomicBoolean();

  /** A device {@link #WARM_UP} selects. */
  static final io.kubesched.api.Device WARM_UP_DEVICE = io.kubesched.api.Device.of("warm-up",
      Map.of("model", new io.kubesched.api.DeviceAttribute.StringValue("x")),
      Map.of("memory", new io.kubesched.api.DeviceCapacity(io.kubesched.api.Quantity.parse("2Gi"))));

  /** Reads what the first selectors of a cluster read: the driver, an attribute, a capacity, a quantity. */
  static final String WARM_UP =
      "device.driver == 'warm.up' && device.attributes['warm.up'].model == 'x'"
          + " && device.capacity['warm.up'].memory.compareTo(quantity('1Gi')) >= 0";

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
   * Compiles and evaluates one selector on a daemon thread of low priority, once per JVM, so that cel-java's
   * first compile (loading and initialising its parser, checker and the protobuf descriptors behind its types:
   * 0.8 to 1.9 s on 2 CPUs, about 20 times a later compile) overlaps the informers' first lists at start-up
   * instead of delaying the first pod with a claim. The informers call it at the first DeviceClass listed or added,
   * so a cluster without dynamic resource allocation never loads CEL (1.3 s of one CPU at start-up on 2 CPUs,
   * taken from the informers' lists). Returns at once; what the warm-up compiles is thrown away,
   * and a failure is only logged (at DEBUG): the real compiles report their own errors.
   */
  public static void warmUpInBackground() {
    if (!WARMING.compareAndSet(false, true)) {
      return;
    }
    var thread = new Thread(() -> {
      try {
        SelectorEnvironment.compile(WARM_UP).matches("warm.up", WARM_UP_DEVICE);
      } catch (SelectorException | RuntimeException e) {
        System.getLogger(DeviceSelectors.class.getName())
            .log(System.Logger.Level.DEBUG, "CEL warm-up failed; the first selector compiles without it", e);
      }
    }, "kubesched-cel-warm-up");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.start();
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
