package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimConfig;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceId;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceToleration;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.OpaqueConfig;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelector;
import io.kubesched.policy.plugins.dynamicresources.cel.SelectorException;
import io.kubesched.policy.plugins.dynamicresources.structured.ConsumableCapacity.CapacityException;
import io.kubesched.policy.plugins.dynamicresources.structured.Pools.Pool;
import io.kubesched.policy.plugins.dynamicresources.structured.Pools.PoolId;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One {@link Allocator#allocate} call: kube's unexported {@code allocator} in {@code allocator_incubating.go}, the
 * depth-first search over claims, requests (or the chosen sub-request) and devices, with the first complete
 * solution taken. Mutable; confined to the calling thread.
 */
final class Search {

  /** kube's {@code resourceapi.AllocationResultsMaxSize}: the most devices one claim's allocation holds. */
  static final int MAX_RESULTS = 32;

  /** A kube error: the attempt fails with this message (not a misfit of the node). */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message, null, false, false);
    }
  }

  /** kube's {@code errAllocationResultMaxSizeExceeded}: backtrack harder, another sub-request may need fewer. */
  private static final class MaxSizeExceeded extends Exception {
    private static final long serialVersionUID = 1L;
    static final MaxSizeExceeded INSTANCE = new MaxSizeExceeded();

    private MaxSizeExceeded() {
      super("allocation max size exceeded", null, false, false);
    }
  }

  /** A request or one sub-request of a prioritized list, and what the search knows of it. */
  private static final class RequestData {
    final String name;
    final @Nullable String parent;
    final DeviceRequirements requirements;
    final boolean adminAccess;
    @Nullable DeviceClass deviceClass;
    long numDevices;
    List<Candidate> allDevices = List.of();
    int selectedSubRequest;

    RequestData(String name, @Nullable String parent, DeviceRequirements requirements) {
      this.name = name;
      this.parent = parent;
      this.requirements = requirements;
      this.adminAccess = parent == null && requirements.adminAccess();
    }

    String fullName() {
      return parent == null ? name : parent + "/" + name;
    }
  }

  private record Candidate(DeviceId id, Device device, ResourceSlice slice, Pool pool) {}

  private record DeviceResult(
      RequestData request,
      DeviceId id,
      Device device,
      ResourceSlice slice,
      @Nullable String shareId,
      Map<String, BigDecimal> consumedCapacity) {}

  private record MatchKey(DeviceId id, int claim, int request, int subRequest) {}

  private final Allocator allocator;
  private final NodeInfo node;
  private final List<ResourceClaim> claims;
  private List<Pool> pools = List.of();
  /** Per claim, per request: the request itself, or its sub-requests in order. */
  private final RequestData[][][] requestData;
  private final List<List<Constraint>> constraints = new ArrayList<>();
  private final Map<MatchKey, Boolean> deviceMatches = new HashMap<>();
  private final Map<PoolId, Map<String, Map<String, BigDecimal>>> consumedCounters = new HashMap<>();
  private final Map<DeviceId, Set<Integer>> allocatingDevices = new HashMap<>();
  private final Map<DeviceId, Map<String, BigDecimal>> allocatingCapacity = new HashMap<>();
  private final List<List<DeviceResult>> results = new ArrayList<>();
  private long steps;

  Search(Allocator allocator, NodeInfo node, List<ResourceClaim> claims) {
    this.allocator = allocator;
    this.node = node;
    this.claims = claims;
    this.requestData = new RequestData[claims.size()][][];
  }

  /** @return how many times a device was looked for: kube's {@code numAllocateOneInvocations} */
  long steps() {
    return steps;
  }

  /**
   * Runs the search.
   *
   * @return the allocations, one per claim; {@code null} when the node cannot satisfy the claims
   * @throws Failure with kube's message when the claims or classes are unusable
   * @throws InvalidPools when no solution was found and some pool is invalid
   */
  @Nullable List<AllocationResult> run(@Nullable Instant now) throws Failure, InvalidPools {
    pools = Pools.gather(node, allocator.slicesFor(node.name()), allocator.allSlices());
    for (int c = 0; c < claims.size(); c++) {
      prepareClaim(c);
      results.add(new ArrayList<>());
    }
    boolean done;
    try {
      done = allocateOne(0, 0, 0, 0, false, 0, 0, 0);
    } catch (MaxSizeExceeded e) {
      done = false;
    }
    if (!done) {
      for (var pool : pools) {
        if (pool.invalid()) {
          throw new InvalidPools();
        }
      }
      return null;
    }
    var allocations = new ArrayList<AllocationResult>();
    for (int c = 0; c < claims.size(); c++) {
      allocations.add(result(c, now));
    }
    return allocations;
  }

  /** No solution, and some pool could not be used: kube's "invalid resource pools were encountered". */
  static final class InvalidPools extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidPools() {
      super("invalid resource pools were encountered", null, false, false);
    }
  }

  private void prepareClaim(int c) throws Failure {
    var claim = claims.get(c);
    var requests = claim.requests();
    requestData[c] = new RequestData[requests.size()][];
    int minDevicesPerClaim = 0;
    for (int r = 0; r < requests.size(); r++) {
      var request = requests.get(r);
      long minDevices;
      if (!request.firstAvailable().isEmpty()) {
        var subs = new RequestData[request.firstAvailable().size()];
        minDevices = Long.MAX_VALUE;
        for (int s = 0; s < subs.length; s++) {
          var sub = request.firstAvailable().get(s);
          subs[s] = validate(new RequestData(sub.name(), request.name(), sub.requirements()), c, r, s);
          minDevices = Math.min(minDevices, subs[s].numDevices);
        }
        requestData[c][r] = subs;
      } else {
        var exactly = request.exactly();
        if (exactly == null) {
          throw new Failure(
              "claim " + name(claim) + ", request " + request.name()
                  + ": missing device class name (unsupported request type?)");
        }
        var data = validate(new RequestData(request.name(), null, exactly), c, r, 0);
        requestData[c][r] = new RequestData[] {data};
        minDevices = data.numDevices;
      }
      if (minDevices > MAX_RESULTS - minDevicesPerClaim) {
        throw new Failure(
            "claim " + name(claim) + ", request " + request.name() + ": adding " + minDevices
                + " devices exceeds the claim limit of " + MAX_RESULTS + ", with " + minDevicesPerClaim
                + " already accounted for");
      }
      minDevicesPerClaim += minDevices;
    }
    var list = new ArrayList<Constraint>();
    var declared = claim.constraints();
    for (int i = 0; i < declared.size(); i++) {
      var constraint = declared.get(i);
      if (constraint.matchAttribute() != null) {
        list.add(Constraint.matchAttribute(constraint.requests(), constraint.matchAttribute()));
      } else if (constraint.distinctAttribute() != null) {
        list.add(Constraint.distinctAttribute(constraint.requests(), constraint.distinctAttribute()));
      } else {
        throw new Failure(
            "claim " + name(claim) + ", constraint #" + i + ": empty constraint (unsupported constraint type?)");
      }
    }
    constraints.add(list);
  }

  private RequestData validate(RequestData data, int c, int r, int s) throws Failure {
    var claim = claims.get(c);
    var requirements = data.requirements;
    for (int i = 0; i < requirements.selectors().size(); i++) {
      if (requirements.selectors().get(i).isBlank()) {
        throw new Failure(
            "claim " + name(claim) + ", request " + data.name + ", selector #" + i
                + ": CEL expression empty (unsupported selector type?)");
      }
    }
    if (requirements.deviceClassName().isEmpty()) {
      throw new Failure(
          "claim " + name(claim) + ", request " + data.name + ": missing device class name (unsupported request type?)");
    }
    var deviceClass = allocator.deviceClass(requirements.deviceClassName());
    if (deviceClass == null) {
      throw new Failure(
          "claim " + name(claim) + ", request " + data.name + ": could not retrieve device class "
              + requirements.deviceClassName() + ": deviceclass.resource.k8s.io \""
              + requirements.deviceClassName() + "\" not found");
    }
    data.deviceClass = deviceClass;
    if (requirements.allocationMode() == AllocationMode.EXACT_COUNT) {
      data.numDevices = requirements.count();
      return data;
    }
    var all = new ArrayList<Candidate>();
    for (var pool : pools) {
      if (pool.incomplete()) {
        throw new Failure(
            "claim " + name(claim) + ", request " + data.name + ": asks for all devices, but resource pool "
                + pool.id() + " is currently being updated");
      }
      if (pool.invalid()) {
        throw new Failure(
            "claim " + name(claim) + ", request " + data.name + ": asks for all devices, but resource pool "
                + pool.id() + " is currently invalid");
      }
      for (var slice : pool.targetingNode()) {
        for (var device : slice.devices()) {
          var id = new DeviceId(slice.driver(), slice.pool().name(), device.name());
          if (!isSelectable(c, r, s, data, slice, device, id)) {
            continue;
          }
          // Only the static capacity here: what others use is checked when the device is allocated, so a
          // matching device that is too full makes "All" fail rather than be skipped.
          try {
            if (!ConsumableCapacity.fits(Map.of(), requirements.capacityRequests(), device.capacity(), Map.of())) {
              continue;
            }
          } catch (CapacityException e) {
            throw new Failure(
                "claim " + name(claim) + ", request " + data.name + ": checking capacity for device "
                    + device.name() + ": " + e.getMessage());
          }
          all.add(new Candidate(id, device, slice, pool));
        }
      }
    }
    data.allDevices = List.copyOf(all);
    data.numDevices = all.size();
    return data;
  }

  private boolean allocateOne(
      int c, int r, int s, int d, boolean inSubRequest, int startPool, int startSlice, int startDevice)
      throws Failure, MaxSizeExceeded {
    steps++;
    if (Thread.currentThread().isInterrupted()) {
      throw new Failure("filter operation aborted: interrupted");
    }
    if (c >= claims.size()) {
      return true;
    }
    var claim = claims.get(c);
    if (r >= claim.requests().size()) {
      try {
        return allocateOne(c + 1, 0, 0, 0, false, 0, 0, 0);
      } catch (MaxSizeExceeded e) {
        // A different allocation of an earlier claim may let a sub-request here need fewer devices.
        return false;
      }
    }
    var alternatives = requestData[c][r];
    if (!inSubRequest && alternatives[0].parent != null) {
      boolean allExceeded = true;
      for (int sub = 0; sub < alternatives.length; sub++) {
        boolean success;
        try {
          success = allocateOne(c, r, sub, d, true, 0, 0, 0);
        } catch (MaxSizeExceeded e) {
          continue;
        }
        allExceeded = false;
        if (success) {
          alternatives[0].selectedSubRequest = sub;
          return true;
        }
      }
      if (allExceeded) {
        throw MaxSizeExceeded.INSTANCE;
      }
      return false;
    }
    var data = alternatives[s];
    boolean allMode = data.requirements.allocationMode() == AllocationMode.ALL;
    if (allMode && data.allDevices.isEmpty()) {
      return false;
    }
    if (d >= data.numDevices) {
      return allocateOne(c, r + 1, 0, 0, false, 0, 0, 0);
    }
    long remaining = data.numDevices - d;
    if (remaining > MAX_RESULTS - results.get(c).size()) {
      throw MaxSizeExceeded.INSTANCE;
    }
    if (allMode) {
      var candidate = data.allDevices.get(d);
      var undo = allocateDevice(c, r, s, candidate, true);
      if (undo == null) {
        return false;
      }
      boolean done;
      try {
        done = allocateOne(c, r, s, d + 1, inSubRequest, 0, 0, 0);
      } catch (Failure | MaxSizeExceeded | RuntimeException e) {
        undo.run();
        throw e;
      }
      if (!done) {
        undo.run();
      }
      return done;
    }
    for (int p = startPool; p < pools.size(); p++) {
      var pool = pools.get(p);
      if (pool.incomplete() || pool.invalid()) {
        continue;
      }
      var slices = pool.targetingNode();
      for (int sl = p == startPool ? startSlice : 0; sl < slices.size(); sl++) {
        var slice = slices.get(sl);
        var devices = slice.devices();
        for (int dv = p == startPool && sl == startSlice ? startDevice : 0; dv < devices.size(); dv++) {
          var device = devices.get(dv);
          var id = new DeviceId(pool.id().driver(), pool.id().pool(), device.name());
          if (data.adminAccess ? allocatingFor(id, c) : inUse(id)) {
            continue;
          }
          if (!isSelectable(c, r, s, data, slice, device, id)) {
            continue;
          }
          try {
            if (!fitsCapacity(data, id, device)) {
              continue;
            }
          } catch (CapacityException e) {
            throw new Failure(
                "claim " + name(claim) + ", request " + data.name + ": checking capacity for device " + id + ": "
                    + e.getMessage());
          }
          var undo = allocateDevice(c, r, s, new Candidate(id, device, slice, pool), false);
          if (undo == null) {
            continue;
          }
          boolean done;
          try {
            done = allocateOne(c, r, s, d + 1, inSubRequest, p, sl, dv + 1);
          } catch (Failure | MaxSizeExceeded | RuntimeException e) {
            undo.run();
            throw e;
          }
          if (done) {
            return true;
          }
          undo.run();
        }
      }
    }
    return false;
  }

  private boolean isSelectable(int c, int r, int s, RequestData data, ResourceSlice slice, Device device, DeviceId id)
      throws Failure {
    var key = new MatchKey(id, c, r, s);
    var known = deviceMatches.get(key);
    if (known != null) {
      return known;
    }
    boolean matches =
        (data.deviceClass == null || selectorsMatch(c, device, id, data.deviceClass, data.deviceClass.selectors()))
            && selectorsMatch(c, device, id, null, data.requirements.selectors())
            && (!slice.perDeviceNodeSelection() || Pools.nodeMatches(node, device.nodeSelection()));
    deviceMatches.put(key, matches);
    return matches;
  }

  private boolean selectorsMatch(
      int c, Device device, DeviceId id, @Nullable DeviceClass deviceClass, List<String> selectors) throws Failure {
    for (int i = 0; i < selectors.size(); i++) {
      var owner = deviceClass != null ? "class " + deviceClass.name() : "claim " + name(claims.get(c));
      DeviceSelector selector;
      try {
        selector = allocator.selectors().compile(selectors.get(i));
      } catch (SelectorException e) {
        throw new Failure(owner + ": selector #" + i + ": CEL compile error: " + e.getMessage());
      }
      boolean matches;
      try {
        matches = allocator.matches(selector, id.driver(), device);
      } catch (SelectorException e) {
        throw new Failure(owner + ": selector #" + i + " on device " + id + ": CEL runtime error: " + e.getMessage());
      }
      if (!matches) {
        return false;
      }
    }
    return true;
  }

  private boolean fitsCapacity(RequestData data, DeviceId id, Device device) throws CapacityException {
    var allocated = allocator.allocatedState().aggregatedCapacity(id);
    return ConsumableCapacity.fits(
        allocated == null ? Map.of() : allocated,
        data.requirements.capacityRequests(),
        device.capacity(),
        allocatingCapacity.getOrDefault(id, Map.of()));
  }

  /**
   * kube's {@code allocateDevice}: checks that the candidate is free, its counters suffice, its taints are
   * tolerated and the constraints hold, then records it.
   *
   * @param must the caller wants exactly this device ("All" mode); a constraint refusing it is an error
   * @return how to undo the allocation; {@code null} when the device cannot be allocated
   */
  private @Nullable Runnable allocateDevice(int c, int r, int s, Candidate candidate, boolean must)
      throws Failure {
    var claim = claims.get(c);
    var data = requestData[c][r][s];
    var device = candidate.device();
    var id = candidate.id();
    boolean multiple = device.allowMultipleAllocations();
    if (!multiple && data.adminAccess && allocatingFor(id, c)) {
      return null;
    }
    if (!data.adminAccess && inUse(id)) {
      return null;
    }
    // A further share of a device already shared has had its counters charged once.
    boolean skipCounters = multiple && capacityInUse(id);
    boolean countersReserved = false;
    if (!skipCounters && !device.consumesCounters().isEmpty()) {
      if (!reserveCounters(candidate)) {
        return null;
      }
      countersReserved = true;
    }
    String base = data.parent == null ? data.name : data.parent;
    String sub = data.parent == null ? "" : data.name;
    var undo = new Undo(c, candidate, base, sub, countersReserved);

    if (taintPrevents(device, data.requirements.tolerations())) {
      undo.run();
      return null;
    }
    for (var constraint : constraints.get(c)) {
      if (!constraint.add(base, sub, device, id)) {
        undo.run();
        if (must) {
          throw new Failure(
              "claim " + name(claim) + ", request " + data.name + ": cannot add device " + id
                  + " because a claim constraint would not be satisfied");
        }
        return null;
      }
      undo.constraintsAdded++;
    }
    if (!multiple) {
      allocatingDevices.computeIfAbsent(id, k -> new HashSet<>()).add(c);
      undo.deviceMarked = true;
    }
    Map<String, BigDecimal> consumed = Map.of();
    String shareId = null;
    try {
      if (!fitsCapacity(data, id, device)) {
        undo.run();
        return null;
      }
      if (multiple) {
        consumed = ConsumableCapacity.consumedBy(data.requirements.capacityRequests(), device.capacity());
      }
    } catch (CapacityException e) {
      undo.run();
      throw new Failure(
          "claim " + name(claim) + ", request " + data.name + ": computing consumed capacity for device " + id + ": "
              + e.getMessage());
    }
    if (multiple) {
      shareId = UUID.randomUUID().toString();
      undo.capacityEntryExisted = allocatingCapacity.containsKey(id);
      var sum = allocatingCapacity.computeIfAbsent(id, k -> new HashMap<>());
      consumed.forEach((k, v) -> sum.merge(k, v, BigDecimal::add));
      undo.consumed = consumed;
      undo.capacityInserted = true;
    }
    var list = results.get(c);
    undo.previousResults = list.size();
    list.add(new DeviceResult(data, id, device, candidate.slice(), shareId, consumed));
    undo.resultAdded = true;
    return undo;
  }

  /** What one allocated candidate changed, undone in reverse: kube's {@code deviceRollbackState}. */
  private final class Undo implements Runnable {
    final int claim;
    final Candidate candidate;
    final String base;
    final String sub;
    final boolean countersReserved;
    int constraintsAdded;
    boolean deviceMarked;
    boolean capacityInserted;
    boolean capacityEntryExisted;
    Map<String, BigDecimal> consumed = Map.of();
    boolean resultAdded;
    int previousResults;

    Undo(int claim, Candidate candidate, String base, String sub, boolean countersReserved) {
      this.claim = claim;
      this.candidate = candidate;
      this.base = base;
      this.sub = sub;
      this.countersReserved = countersReserved;
    }

    @Override
    public void run() {
      var id = candidate.id();
      if (resultAdded) {
        var list = results.get(claim);
        list.subList(previousResults, list.size()).clear();
      }
      if (capacityInserted) {
        var sum = allocatingCapacity.get(id);
        if (sum != null) {
          consumed.forEach((k, v) -> sum.computeIfPresent(k, (key, old) -> old.subtract(v)));
          boolean empty = sum.values().stream().allMatch(q -> q.signum() == 0);
          if (empty) {
            allocatingCapacity.remove(id);
          }
        }
        // An earlier share still marks the device as shared, even with nothing consumed.
        if (capacityEntryExisted && !allocatingCapacity.containsKey(id)) {
          allocatingCapacity.put(id, new HashMap<>());
        }
      }
      if (deviceMarked) {
        allocatingDevices.get(id).remove(claim);
      }
      var list = constraints.get(claim);
      for (int i = constraintsAdded - 1; i >= 0; i--) {
        list.get(i).remove(base, sub);
      }
      if (countersReserved) {
        releaseCounters(candidate);
      }
    }
  }

  private static boolean taintPrevents(Device device, List<DeviceToleration> tolerations) {
    for (var taint : device.taints()) {
      if (taint.effect() == DeviceTaint.Effect.NONE) {
        continue;
      }
      boolean tolerated = false;
      for (var toleration : tolerations) {
        if (tolerates(toleration, taint)) {
          tolerated = true;
          break;
        }
      }
      if (!tolerated) {
        return true;
      }
    }
    return false;
  }

  /** kube's {@code resourceclaim.ToleratesTaint}. */
  static boolean tolerates(DeviceToleration toleration, DeviceTaint taint) {
    if (toleration.effect() != null && toleration.effect() != taint.effect()) {
      return false;
    }
    if (!toleration.key().isEmpty() && !toleration.key().equals(taint.key())) {
      return false;
    }
    return switch (toleration.operator()) {
      case "", "Equal" -> toleration.value().equals(taint.value());
      case "Exists" -> true;
      default -> false;
    };
  }

  private boolean reserveCounters(Candidate candidate) {
    var pool = candidate.pool();
    var available = allocator.availableCounters(pool);
    var consumedForPool = consumedCounters.computeIfAbsent(pool.id(), k -> new HashMap<>());
    for (var consumption : candidate.device().consumesCounters()) {
      var set = consumedForPool.computeIfAbsent(consumption.counterSet(), k -> new HashMap<>());
      consumption.counters().forEach((name, q) -> set.merge(name, q.value(), BigDecimal::add));
    }
    for (var setEntry : available.entrySet()) {
      var consumedSet = consumedForPool.getOrDefault(setEntry.getKey(), Map.of());
      for (var counter : setEntry.getValue().entrySet()) {
        var used = consumedSet.getOrDefault(counter.getKey(), BigDecimal.ZERO);
        if (counter.getValue().compareTo(used) < 0) {
          releaseCounters(candidate);
          return false;
        }
      }
    }
    return true;
  }

  private void releaseCounters(Candidate candidate) {
    var consumedForPool = consumedCounters.get(candidate.pool().id());
    for (var consumption : candidate.device().consumesCounters()) {
      var set = consumedForPool.get(consumption.counterSet());
      consumption.counters().forEach((name, q) -> set.merge(name, q.value().negate(), BigDecimal::add));
    }
  }

  private boolean inUse(DeviceId id) {
    return allocator.allocatedState().isDedicated(id) || allocatingForAny(id);
  }

  private boolean capacityInUse(DeviceId id) {
    var state = allocator.allocatedState();
    return state.aggregatedCapacity(id) != null || state.hasShare(id) || allocatingCapacity.containsKey(id);
  }

  private boolean allocatingForAny(DeviceId id) {
    var claimsOfDevice = allocatingDevices.get(id);
    return claimsOfDevice != null && !claimsOfDevice.isEmpty();
  }

  private boolean allocatingFor(DeviceId id, int claim) {
    var claimsOfDevice = allocatingDevices.get(id);
    return claimsOfDevice != null && claimsOfDevice.contains(claim);
  }

  private AllocationResult result(int c, @Nullable Instant now) throws Failure {
    var claim = claims.get(c);
    var devices = new ArrayList<DeviceAllocation>();
    boolean bindingConditions = false;
    for (var internal : results.get(c)) {
      var consumed = new LinkedHashMap<String, Quantity>();
      internal.consumedCapacity().forEach((k, v) -> consumed.put(k, new Quantity(v)));
      var device = internal.device();
      bindingConditions |= !device.bindingConditions().isEmpty();
      devices.add(
          new DeviceAllocation(
              internal.request().fullName(),
              internal.id().driver(),
              internal.id().pool(),
              internal.id().device(),
              internal.request().adminAccess,
              internal.request().requirements.tolerations(),
              device.bindingConditions(),
              device.bindingFailureConditions(),
              internal.shareId(),
              consumed));
    }
    return new AllocationResult(
        devices,
        configs(c),
        nodeSelector(claim, results.get(c)),
        bindingConditions ? now : null);
  }

  /** The class configs (each class once), then the claim's configs that apply to what was chosen. */
  private List<ClaimConfig> configs(int c) {
    var claim = claims.get(c);
    var requests = claim.requests();
    var configs = new ArrayList<MutableConfig>();
    var rangeOfClass = new HashMap<String, int[]>();
    for (int r = 0; r < requests.size(); r++) {
      var chosen = chosen(c, r);
      var deviceClass = chosen.deviceClass;
      if (deviceClass == null) {
        continue;
      }
      var range = rangeOfClass.get(deviceClass.name());
      if (range != null) {
        for (int i = range[0]; i < range[1]; i++) {
          configs.get(i).requests.add(chosen.fullName());
        }
        continue;
      }
      int start = configs.size();
      for (var opaque : deviceClass.config()) {
        configs.add(new MutableConfig(ClaimConfig.FROM_CLASS, new ArrayList<>(List.of(chosen.fullName())), opaque));
      }
      rangeOfClass.put(deviceClass.name(), new int[] {start, configs.size()});
    }
    for (var config : claim.config()) {
      if (config.requests().isEmpty()) {
        configs.add(new MutableConfig(ClaimConfig.FROM_CLAIM, new ArrayList<>(), config.opaque()));
        continue;
      }
      for (int r = 0; r < requests.size(); r++) {
        var request = requests.get(r);
        if (config.requests().contains(request.name())
            || (isPrioritized(request) && config.requests().contains(chosen(c, r).fullName()))) {
          configs.add(new MutableConfig(ClaimConfig.FROM_CLAIM, new ArrayList<>(config.requests()), config.opaque()));
          break;
        }
      }
    }
    var result = new ArrayList<ClaimConfig>();
    for (var config : configs) {
      boolean appliesToAll = !config.requests.isEmpty();
      for (int r = 0; r < requests.size() && appliesToAll; r++) {
        var request = requests.get(r);
        appliesToAll =
            config.requests.contains(request.name())
                || (isPrioritized(request) && config.requests.contains(chosen(c, r).fullName()));
      }
      result.add(new ClaimConfig(config.source, appliesToAll ? List.of() : config.requests, config.opaque));
    }
    return result;
  }

  private record MutableConfig(String source, List<String> requests, OpaqueConfig opaque) {}

  private static boolean isPrioritized(DeviceRequest request) {
    return !request.firstAvailable().isEmpty();
  }

  private RequestData chosen(int c, int r) {
    var alternatives = requestData[c][r];
    return alternatives[alternatives[0].selectedSubRequest];
  }

  /** kube's {@code createNodeSelector}: the node itself when a device is local to it, else the slices' selectors. */
  private @Nullable List<NodeSelectorTerm> nodeSelector(ResourceClaim claim, List<DeviceResult> devices)
      throws Failure {
    var fields = new ArrayList<NodeSelectorRequirement>();
    var expressions = new ArrayList<NodeSelectorRequirement>();
    for (var result : devices) {
      NodeSelection selection =
          result.slice().perDeviceNodeSelection() ? result.device().nodeSelection() : result.slice().nodeSelection();
      if (selection.nodeName() != null || result.device().bindsToNode()) {
        return List.of(
            new NodeSelectorTerm(
                List.of(),
                List.of(
                    NodeSelectorRequirement.of(
                        NodeSelectorTerm.NODE_NAME_FIELD, NodeSelectorRequirement.Operator.IN, node.name()))));
      }
      var terms = selection.nodeSelector();
      if (terms != null) {
        if (terms.size() == 1) {
          addNew(terms.get(0).matchFields(), fields);
          addNew(terms.get(0).matchExpressions(), expressions);
        } else if (terms.size() > 1) {
          throw new Failure(
              "create NodeSelector for claim " + claim.name() + ": unsupported ResourceSlice.NodeSelector with "
                  + terms.size() + " terms");
        }
      }
    }
    if (fields.isEmpty() && expressions.isEmpty()) {
      return null;
    }
    return List.of(new NodeSelectorTerm(expressions, fields));
  }

  private static void addNew(List<NodeSelectorRequirement> from, List<NodeSelectorRequirement> to) {
    for (var requirement : from) {
      boolean present = false;
      for (var existing : to) {
        if (existing.key().equals(requirement.key())
            && existing.operator() == requirement.operator()
            && Set.copyOf(existing.values()).equals(Set.copyOf(requirement.values()))) {
          present = true;
          break;
        }
      }
      if (!present) {
        to.add(requirement);
      }
    }
  }

  /** kube's {@code klog.KObj} of a claim: {@code namespace/name}, or the name alone without a namespace. */
  static String name(ResourceClaim claim) {
    return claim.namespace().isEmpty() ? claim.name() : claim.namespace() + "/" + claim.name();
  }
}
