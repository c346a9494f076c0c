package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceId;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelector;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import io.kubesched.policy.plugins.dynamicresources.cel.SelectorException;
import io.kubesched.policy.plugins.dynamicresources.structured.Pools.Pool;
import io.kubesched.policy.plugins.dynamicresources.structured.Pools.PoolId;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * kube's structured allocator, ported from {@code k8s.io/dynamic-resource-allocation@v0.37.2/structured}: the
 * {@code internal/incubating} variant, which kube-scheduler 1.37 runs because its default features (AdminAccess,
 * PrioritizedList, PartitionableDevices, DeviceTaints, DeviceBindingAndStatus, ConsumableCapacity,
 * FractionalCapacityRange) are all on. The alpha features (compatibility groups, list-typed attributes, derived
 * attributes) are off in kube 1.37 and not modelled.
 *
 * <p>Made once per pod's attempt over one snapshot's slices, classes and claims ({@link #create}): the slices get
 * the {@link DeviceTaintRule}s' taints as kube's slice tracker patches them in, and the devices every claim's
 * allocation holds (the assumed ones included) become kube's {@code AllocatedState}. Then {@link #allocate} is asked
 * per node, with kube's search order (pools by driver and pool name, those with binding conditions last; slices
 * by name; devices as published), kube's backtracking and kube's error messages.
 *
 * <p>Where the port differs from kube's code, and why: share ids are random UUIDs as kube's are; an allocation
 * whose devices have binding conditions carries the clock's time as {@code allocationTimestamp} (the api's {@link
 * AllocationResult} says so), while kube-scheduler stamps every allocation in PreBind, which stays the plugin's to
 * do; kube's context cancellation is the calling thread's interrupt ("filter operation aborted"); kube's
 * {@code ErrFailedAllocationOnNode} ("invalid resource pools were encountered") is {@link Outcome.Unsuitable} with
 * that message, as the plugin reports it.
 *
 * <p>Thread contract: {@link #create} runs on the thread preparing the pod's attempt; {@link #allocate} may then
 * be called concurrently for different nodes; each call keeps its search state to itself, and what is shared (the
 * allocated state, the slices by node, the pools' available counters computed on first use) is immutable or held
 * in a concurrent map of values that every thread would compute the same.
 */
public final class Allocator {

  private final SelectorCompiler selectors;
  private final Clock clock;
  private final Map<String, DeviceClass> classes;
  private final Cache cache;
  private final SliceIndex slices;
  private final AllocatedState allocatedState;
  private final Map<PoolId, Map<String, Map<String, BigDecimal>>> availableCounters = new ConcurrentHashMap<>();
  private final AtomicLong steps = new AtomicLong();

  private Allocator(DynamicResources resources, SelectorCompiler selectors, Clock clock, Cache cache) {
    this.selectors = selectors;
    this.clock = clock;
    var byName = new HashMap<String, DeviceClass>();
    resources.deviceClasses().forEach(c -> byName.put(c.name(), c));
    this.classes = Map.copyOf(byName);
    this.cache = cache;
    this.slices = cache.slices(resources.slices(), resources.taintRules());
    this.allocatedState = cache.allocatedState(resources.claims());
  }

  /**
   * Prepares an allocator for one pod's attempt: indexes the slices by node, applies the taint rules, and
   * collects what the claims' allocations hold, from scratch.
   *
   * @param resources the slices, classes, claims and taint rules of the snapshot
   * @param selectors the CEL compiler and cache, shared across attempts
   * @param clock for allocation timestamps of devices with binding conditions
   * @return an allocator over them
   */
  public static Allocator create(DynamicResources resources, DeviceSelectors selectors, Clock clock) {
    return new Allocator(resources, selectors::compile, clock, new Cache());
  }

  /**
   * As {@link #create(DynamicResources, DeviceSelectors, Clock)}, reusing what {@code cache} kept from earlier
   * attempts: the slice index while the snapshot's slices and taint rules are the same lists, and what the claims
   * hold, counted again only for the claims that changed.
   */
  public static Allocator create(DynamicResources resources, DeviceSelectors selectors, Clock clock, Cache cache) {
    return new Allocator(resources, selectors::compile, clock, cache);
  }

  /** As {@link #create(DynamicResources, DeviceSelectors, Clock)}, with selectors compiled by {@code compiler}. */
  static Allocator create(DynamicResources resources, SelectorCompiler compiler, Clock clock) {
    return create(resources, compiler, clock, new Cache());
  }

  /** As {@link #create(DynamicResources, DeviceSelectors, Clock, Cache)}, with selectors compiled by {@code compiler}. */
  static Allocator create(DynamicResources resources, SelectorCompiler compiler, Clock clock, Cache cache) {
    return new Allocator(resources, compiler, clock, cache);
  }

  /**
   * What one attempt prepares that the next can reuse: the slices indexed by node with the taint rules applied,
   * kept while the snapshots hand out the same slice and rule lists (the engine's device cache keeps them until a
   * slice or rule changes), and what the claims' allocations hold, derived from the previous attempt's by the
   * claims that changed. Before it, every attempt walked every slice and every allocated device: 20.8 MB and 14 ms
   * of a decision at 5 000 nodes ({@code DynamicResourcesBenchmark}).
   *
   * <p>Thread-safe: attempts on several threads may use one cache; each publishes what it built through a volatile
   * field, and a race only costs building twice.
   */
  public static final class Cache {
    private record Slices(List<ResourceSlice> slices, List<DeviceTaintRule> rules, SliceIndex index) {}

    private record Claims(List<ResourceClaim> claims, AllocatedState state) {}

    /** What a selector said of a device: the expression and driver by value, the device by identity. */
    private record Match(String expression, String driver, Device device) {
      @Override
      public boolean equals(Object other) {
        return other instanceof Match m
            && m.device == device && m.expression.equals(expression) && m.driver.equals(driver);
      }

      @Override
      public int hashCode() {
        return (expression.hashCode() * 31 + driver.hashCode()) * 31 + System.identityHashCode(device);
      }
    }

    /** Selector results kept at most; beyond, they are all dropped and found again (about 100 bytes each). */
    static final int MAX_MATCHES = 1 << 17;

    private volatile @Nullable Slices slices;
    private volatile @Nullable Claims claims;
    private final ConcurrentHashMap<Match, Boolean> matches = new ConcurrentHashMap<>();

    /** An empty cache. */
    public Cache() {}

    /**
     * Whether {@code selector} selects {@code device}, evaluated once per device object: a selector is a pure
     * function of the device and its driver, and the devices of slices that did not change are the same objects
     * from one snapshot to the next. Before, the CEL evaluations were most of a decision's allocation (12 MB of
     * 17.6 MB at 5 000 nodes, {@code DynamicResourcesBenchmark}). An evaluation that fails is not kept.
     */
    boolean matches(DeviceSelector selector, String driver, Device device) throws SelectorException {
      var key = new Match(selector.expression(), driver, device);
      var known = matches.get(key);
      if (known != null) {
        return known;
      }
      boolean result = selector.matches(driver, device);
      if (matches.size() >= MAX_MATCHES) {
        matches.clear();
      }
      matches.put(key, result);
      return result;
    }

    SliceIndex slices(List<ResourceSlice> current, List<DeviceTaintRule> rules) {
      var known = slices;
      if (known != null && known.slices == current && known.rules == rules) {
        return known.index;
      }
      var index = SliceIndex.of(current, rules);
      slices = new Slices(current, rules, index);
      return index;
    }

    AllocatedState allocatedState(List<ResourceClaim> current) {
      var known = claims;
      var state = known == null ? AllocatedState.of(current) : known.state.derive(known.claims, current);
      if (known == null || known.claims != current) {
        claims = new Claims(current, state);
      }
      return state;
    }
  }

  /**
   * Allocates all of {@code claims} together on {@code node}, or none (kube's {@code Allocate}). Claims are
   * searched in the order given, each claim's requests in order, devices in kube's order; the first complete
   * solution is taken. Thread-safe: may run concurrently for different nodes.
   *
   * @param node the node
   * @param claims the claims of one pod that are not allocated yet
   * @return the allocations, one per claim in order; that the node cannot satisfy them; or kube's error (a CEL
   *     error, a missing class, a claim over the device limit, …), which fails the attempt on every node
   */
  public Outcome allocate(NodeInfo node, List<ResourceClaim> claims) {
    var search = new Search(this, node, List.copyOf(claims));
    try {
      var results = search.run(clock.instant());
      return results == null ? new Outcome.Unsuitable() : new Outcome.Allocated(results);
    } catch (Search.Failure failure) {
      return new Outcome.Failed(failure.getMessage());
    } catch (Search.InvalidPools invalid) {
      return new Outcome.Unsuitable(invalid.getMessage());
    } finally {
      steps.addAndGet(search.steps());
    }
  }

  /**
   * @return how many devices all {@link #allocate} calls so far have looked for, kube's {@code
   *     numAllocateOneInvocations}: a measure of the search's work, for tests and metrics
   */
  public long searchSteps() {
    return steps.get();
  }

  /** What {@link #allocate} found. */
  public sealed interface Outcome {
    /** @param results one allocation per claim, in the order given */
    record Allocated(List<AllocationResult> results) implements Outcome {
      public Allocated {
        results = List.copyOf(results);
      }
    }

    /**
     * The node cannot satisfy the claims (kube's nil result without an error, or its error wrapping {@code
     * ErrFailedAllocationOnNode}, which the plugin reports as unschedulable on the node).
     *
     * @param message kube's reason when it gives one ("invalid resource pools were encountered"); empty otherwise
     */
    record Unsuitable(String message) implements Outcome {
      /** The node cannot satisfy the claims, with no particular reason. */
      public Unsuitable() {
        this("");
      }
    }

    /** @param message kube's error (a CEL error, a missing class, …) */
    record Failed(String message) implements Outcome {}
  }

  SelectorCompiler selectors() {
    return selectors;
  }

  /** @return whether {@code selector} selects {@code device}, as the cache keeps it */
  boolean matches(DeviceSelector selector, String driver, Device device) throws SelectorException {
    return cache.matches(selector, driver, device);
  }

  AllocatedState allocatedState() {
    return allocatedState;
  }

  List<ResourceSlice> allSlices() {
    return slices.all();
  }

  @Nullable DeviceClass deviceClass(String name) {
    return classes.get(name);
  }

  /** @return the slices of the node, then those for no particular node, as kube concatenates them */
  List<ResourceSlice> slicesFor(String nodeName) {
    return slices.forNode(nodeName);
  }

  /**
   * The pool's shared counters less what allocated devices consume (which may go negative: nothing left), computed
   * once per pool and kept, as kube's {@code availableCounters}.
   */
  Map<String, Map<String, BigDecimal>> availableCounters(Pool pool) {
    return availableCounters.computeIfAbsent(pool.id(), id -> computeAvailableCounters(pool));
  }

  private Map<String, Map<String, BigDecimal>> computeAvailableCounters(Pool pool) {
    var available = new HashMap<String, Map<String, BigDecimal>>();
    pool.counterSets().forEach((name, set) -> {
      var counters = new HashMap<String, BigDecimal>();
      set.counters().forEach((counter, q) -> counters.put(counter, q.value()));
      available.put(name, counters);
    });
    for (var slices : List.of(pool.targetingNode(), pool.notTargetingNode())) {
      for (var slice : slices) {
        for (var device : slice.devices()) {
          var id = new DeviceId(slice.driver(), slice.pool().name(), device.name());
          if (!allocatedState.isAllocated(id)) {
            continue;
          }
          for (var consumption : device.consumesCounters()) {
            var set = available.get(consumption.counterSet());
            if (set == null) {
              continue;
            }
            consumption.counters().forEach((counter, q) -> set.computeIfPresent(counter, (k, v) -> v.subtract(q.value())));
          }
        }
      }
    }
    var frozen = new HashMap<String, Map<String, BigDecimal>>();
    available.forEach((k, v) -> frozen.put(k, Map.copyOf(v)));
    return Map.copyOf(frozen);
  }
}
