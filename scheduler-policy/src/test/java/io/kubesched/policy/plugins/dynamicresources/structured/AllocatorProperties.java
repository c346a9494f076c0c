package io.kubesched.policy.plugins.dynamicresources.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.CounterConsumption;
import io.kubesched.api.CounterSet;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceConstraint;
import io.kubesched.api.DeviceId;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.DeviceToleration;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourcePool;
import io.kubesched.api.ResourceSlice;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * The allocator over generated clusters and placement sequences: each pod's claims are allocated on its node and
 * the results added to the claims, so the next pod sees them taken. After every step the allocator must agree with
 * a brute-force reference (an allocation exists iff the allocator finds one), every allocation must satisfy its
 * class, node, taints and constraints, no device may be in two claims unless it allows multiple allocations, and
 * shared counters and consumable capacity must never be over-committed. Requests are exact, exact with a CEL
 * request selector, or prioritized lists whose first alternative wants one device more.
 */
class AllocatorProperties {

  /** The real CEL compiler and cache, shared as the scheduler shares it across attempts. */
  static final io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors SELECTORS =
      io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors.create();

  private static final String D1 = "d1";
  private static final String D2 = "d2";
  private static final String COLOR = D1 + "/color";
  private static final String MEM = "mem";
  private static final String TAINT_KEY = "t";
  private static final String NOT_SHARED = "device.allowMultipleAllocations == false";
  private static final List<String> NODES = List.of("node-1", "node-2");
  private static final List<DeviceClass> CLASSES =
      List.of(
          new DeviceClass("gpu", List.of("device.driver == \"d1\""), List.of(), null),
          new DeviceClass("nic", List.of("device.driver == \"d2\""), List.of(), null));
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  /** One generated device: where it is, what it is. */
  record DeviceSpec(
      int location, String driver, @Nullable String color, boolean multiple, int memory, int counter, boolean tainted) {}

  /** @param shape 0: exact; 1: exact, with a request selector refusing shared devices; 2: a prioritized list */
  record RequestSpec(String deviceClass, int count, boolean tolerates, int memoryRequest, int shape) {}

  record ClaimSpec(List<RequestSpec> requests, int constraint) {}

  record PodSpec(List<ClaimSpec> claims, int node) {}

  record World(List<DeviceSpec> devices, List<Integer> counterValues, List<PodSpec> pods) {}

  @Provide
  Arbitrary<World> worlds() {
    Arbitrary<DeviceSpec> device =
        Combinators.combine(
                Arbitraries.integers().between(0, 2),
                Arbitraries.of(D1, D1, D1, D2),
                Arbitraries.of("red", "blue", "red", "blue", null),
                Arbitraries.of(false, false, false, true),
                Arbitraries.integers().between(2, 4),
                Arbitraries.of(0, 0, 1, 2),
                Arbitraries.integers().between(0, 7))
            .as((loc, driver, color, multiple, mem, counter, taint) ->
                new DeviceSpec(loc, driver, color, multiple, mem, counter, taint == 0));
    Arbitrary<RequestSpec> request =
        Combinators.combine(
                Arbitraries.of("gpu", "gpu", "gpu", "gpu", "gpu", "gpu", "gpu", "nic"),
                Arbitraries.of(1, 1, 2),
                Arbitraries.of(false, true),
                Arbitraries.of(0, 0, 0, 0, 1, 2),
                Arbitraries.of(0, 0, 0, 1, 2))
            .as(RequestSpec::new);
    Arbitrary<ClaimSpec> claim =
        Combinators.combine(request.list().ofMinSize(1).ofMaxSize(2), Arbitraries.integers().between(0, 5))
            .as(ClaimSpec::new);
    Arbitrary<PodSpec> pod =
        Combinators.combine(claim.list().ofMinSize(1).ofMaxSize(2), Arbitraries.integers().between(0, 1))
            .as(PodSpec::new);
    return Combinators.combine(
            device.list().ofMinSize(2).ofMaxSize(10),
            Arbitraries.integers().between(1, 2).list().ofSize(6),
            pod.list().ofMinSize(1).ofMaxSize(5))
        .as(World::new);
  }

  @Property(tries = 300)
  void allocatesIffReferenceDoesAndNeverOverCommits(@ForAll("worlds") World world) {
    var slices = slices(world);
    var allocatedClaims = new ArrayList<ResourceClaim>();
    var reasons = new LinkedHashSet<String>();
    for (int p = 0; p < world.pods().size(); p++) {
      var pod = world.pods().get(p);
      var node = NodeInfo.builder(NODES.get(pod.node())).build();
      var claims = claims(p, pod);
      var resources = DynamicResources.of(slices, CLASSES, allocatedClaims, List.of());
      var allocator =
          Allocator.create(resources, SELECTORS, Clock.fixed(NOW, ZoneOffset.UTC));
      var reference = new Reference(slices, allocatedClaims, node.name(), claims);
      boolean exists = reference.exists();
      reasons.addAll(reference.rejections);
      var outcome = allocator.allocate(node, claims);
      if (outcome instanceof Allocator.Outcome.Failed failed) {
        fail("unexpected error: " + failed.message());
      }
      assertEquals(exists, outcome instanceof Allocator.Outcome.Allocated, () -> "pod " + pod + " on " + node.name());
      Statistics.label("outcome").collect(outcome instanceof Allocator.Outcome.Allocated ? "allocated" : "unsuitable");
      if (outcome instanceof Allocator.Outcome.Allocated allocated) {
        for (int c = 0; c < claims.size(); c++) {
          var result = allocated.results().get(c);
          reference.check(claims.get(c), result);
          allocatedClaims.add(claims.get(c).withAllocation(result));
        }
      } else {
        reasons.add("no allocation");
      }
    }
    checkNoOverCommit(slices, allocatedClaims);
    for (var reason : reasons) {
      Statistics.label("rejection").collect(reason);
    }
    Statistics.label("alternative").coverage(c -> {
      c.check("s0").count(n -> n > 0);
      c.check("s1").count(n -> n > 0);
    });
    Statistics.label("outcome").coverage(c -> c.check("allocated").percentage(p -> p > 15));
    Statistics.label("rejection")
        .coverage(
            c -> {
              for (var reason :
                  List.of(
                      "no device", "selector false", "constraint fails", "counters exhausted", "capacity exhausted",
                      "taint", "wrong node", "in use", "no allocation")) {
                c.check(reason).count(n -> n > 0);
              }
            });
  }

  /**
   * A DeviceTaintRule acts exactly as the taint it adds put on the devices it selects (kube's slice tracker), for
   * rules selecting by driver, pool and device or leaving some of them open.
   */
  @Property(tries = 200)
  void aTaintRuleActsAsTheTaintItAdds(
      @ForAll("worlds") World world,
      @ForAll("ruleScopes") List<@Nullable String> scope,
      @ForAll boolean noExecute) {
    var slices = slices(world);
    var effect = noExecute ? DeviceTaint.Effect.NO_EXECUTE : DeviceTaint.Effect.NO_SCHEDULE;
    var taint = new DeviceTaint(TAINT_KEY, "", effect, null);
    var rule = new DeviceTaintRule("rule", scope.get(0), scope.get(1), scope.get(2), taint);
    var patched = new ArrayList<ResourceSlice>();
    int tainted = 0;
    for (var slice : slices) {
      var devices = new ArrayList<Device>();
      for (var d : slice.devices()) {
        if (rule.matches(slice.driver(), slice.pool().name(), d.name())) {
          tainted++;
          var taints = new ArrayList<>(d.taints());
          taints.add(taint);
          d = new Device(d.name(), d.attributes(), d.capacity(), d.consumesCounters(), d.nodeSelection(), taints,
              d.bindsToNode(), d.bindingConditions(), d.bindingFailureConditions(), d.allowMultipleAllocations());
        }
        devices.add(d);
      }
      patched.add(new ResourceSlice(slice.name(), slice.driver(), slice.pool(), slice.nodeSelection(),
          slice.perDeviceNodeSelection(), devices, slice.sharedCounters()));
    }
    Statistics.label("devices tainted by the rule").collect(tainted == 0 ? "none" : "some");
    Statistics.label("devices tainted by the rule").coverage(c -> c.check("some").percentage(p -> p > 30));
    var pod = world.pods().get(0);
    var node = NodeInfo.builder(NODES.get(pod.node())).build();
    var claims = claims(0, pod);
    var clock = Clock.fixed(NOW, ZoneOffset.UTC);
    var withRule = Allocator.create(DynamicResources.of(slices, CLASSES, List.of(), List.of(rule)), SELECTORS, clock);
    var inline = Allocator.create(DynamicResources.of(patched, CLASSES, List.of(), List.of()), SELECTORS, clock);
    var expected = devicesOf(inline.allocate(node, claims));
    assertEquals(expected, devicesOf(withRule.allocate(node, claims)));
    var untainted = Allocator.create(DynamicResources.of(slices, CLASSES, List.of(), List.of()), SELECTORS, clock);
    Statistics.label("the rule changes the outcome")
        .collect(!expected.equals(devicesOf(untainted.allocate(node, claims))));
    Statistics.label("the rule changes the outcome").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Provide
  Arbitrary<List<@Nullable String>> ruleScopes() {
    return Combinators.combine(
            Arbitraries.of(D1, D1, D1, D2).injectNull(0.2),
            Arbitraries.of(poolName(0), poolName(1), poolName(2)).injectNull(0.5),
            Arbitraries.of("dev-0", "dev-1").injectNull(0.5))
        .as((driver, pool, device) -> java.util.Arrays.asList(driver, pool, device));
  }

  /** What an outcome allocated, without the random share ids. */
  private static String devicesOf(Allocator.Outcome outcome) {
    if (!(outcome instanceof Allocator.Outcome.Allocated allocated)) {
      return outcome.toString();
    }
    var out = new ArrayList<String>();
    for (var result : allocated.results()) {
      out.add(result.devices().stream().map(d -> d.request() + "=" + d.deviceId() + " " + d.consumedCapacity()).toList().toString());
    }
    return out.toString();
  }

  /** The cluster: per location (node-1, node-2, all nodes) and driver a pool with a device slice and a counter slice. */
  static List<ResourceSlice> slices(World world) {
    var slices = new ArrayList<ResourceSlice>();
    int index = 0;
    for (int loc = 0; loc < 3; loc++) {
      for (var driver : List.of(D1, D2)) {
        var pool = new ResourcePool(poolName(loc), 1, 2);
        var devices = new ArrayList<Device>();
        int n = 0;
        for (var spec : world.devices()) {
          if (spec.location() != loc || !spec.driver().equals(driver)) {
            continue;
          }
          devices.add(device("dev-" + n++, spec));
        }
        var selection = loc == 2 ? NodeSelection.ALL_NODES : NodeSelection.node(NODES.get(loc));
        slices.add(new ResourceSlice("s" + index + "-devices", driver, pool, selection, false, devices, List.of()));
        var counters = new CounterSet("cs", Map.of("c", Quantity.of(world.counterValues().get(index))));
        slices.add(new ResourceSlice("s" + index + "-counters", driver, pool, selection, false, List.of(), List.of(counters)));
        index++;
      }
    }
    return slices;
  }

  private static String poolName(int loc) {
    return "pool-" + loc;
  }

  private static Device device(String name, DeviceSpec spec) {
    Map<String, DeviceAttribute> attributes =
        spec.color() == null ? Map.of() : Map.of("color", new DeviceAttribute.StringValue(spec.color()));
    Map<String, DeviceCapacity> capacity =
        spec.multiple() ? Map.of(MEM, new DeviceCapacity(Quantity.of(spec.memory()))) : Map.of();
    List<CounterConsumption> consumes =
        spec.counter() == 0 ? List.of() : List.of(new CounterConsumption("cs", Map.of("c", Quantity.of(spec.counter()))));
    List<DeviceTaint> taints =
        spec.tainted() ? List.of(new DeviceTaint(TAINT_KEY, "", DeviceTaint.Effect.NO_SCHEDULE, null)) : List.of();
    return new Device(
        name, attributes, capacity, consumes, NodeSelection.NONE, taints, false, List.of(), List.of(), spec.multiple());
  }

  static List<ResourceClaim> claims(int pod, PodSpec spec) {
    var claims = new ArrayList<ResourceClaim>();
    for (int c = 0; c < spec.claims().size(); c++) {
      var claimSpec = spec.claims().get(c);
      var requests = new ArrayList<DeviceRequest>();
      for (int r = 0; r < claimSpec.requests().size(); r++) {
        var rs = claimSpec.requests().get(r);
        var tolerations =
            rs.tolerates()
                ? List.of(new DeviceToleration(TAINT_KEY, "Exists", "", DeviceTaint.Effect.NO_SCHEDULE, null))
                : List.<DeviceToleration>of();
        Map<String, Quantity> capacity = rs.memoryRequest() == 0 ? Map.of() : Map.of(MEM, Quantity.of(rs.memoryRequest()));
        List<String> selectors = rs.shape() == 1 ? List.of(NOT_SHARED) : List.of();
        var exact =
            new DeviceRequirements(
                rs.deviceClass(), selectors, AllocationMode.EXACT_COUNT, rs.count(), false, tolerations, capacity);
        if (rs.shape() == 2) {
          // The first alternative wants one device more than the second.
          var more =
              new DeviceRequirements(
                  rs.deviceClass(), selectors, AllocationMode.EXACT_COUNT, rs.count() + 1, false, tolerations, capacity);
          requests.add(
              new DeviceRequest(
                  "r" + r, null, List.of(new DeviceRequest.SubRequest("s0", more), new DeviceRequest.SubRequest("s1", exact))));
        } else {
          requests.add(DeviceRequest.exactly("r" + r, exact));
        }
      }
      List<DeviceConstraint> constraints =
          switch (claimSpec.constraint()) {
            case 1 -> List.of(new DeviceConstraint(List.of(), COLOR, null));
            case 2 -> List.of(new DeviceConstraint(List.of(), null, COLOR));
            default -> List.of();
          };
      claims.add(
          new ResourceClaim(
              "ns", "p" + pod + "-c" + c, "uid-" + pod + "-" + c, "1", null, Map.of(), requests, constraints, List.of(),
              null, List.of(), false));
    }
    return claims;
  }

  /** The global invariants over every allocation made. */
  static void checkNoOverCommit(List<ResourceSlice> slices, List<ResourceClaim> claims) {
    var devices = devicesById(slices);
    var owners = new HashMap<DeviceId, Set<String>>();
    var consumedMemory = new HashMap<DeviceId, BigDecimal>();
    for (var claim : claims) {
      for (var d : claim.allocation().devices()) {
        var device = devices.get(d.deviceId()).device();
        if (device.allowMultipleAllocations()) {
          assertNotNull(d.shareId(), "a share of " + d.deviceId() + " has a share id");
          d.consumedCapacity().forEach((k, v) -> consumedMemory.merge(d.deviceId(), v.value(), BigDecimal::add));
        } else {
          assertNull(d.shareId());
          assertTrue(owners.computeIfAbsent(d.deviceId(), k -> new HashSet<>()).add(claim.key() + "/" + d.request()),
              () -> d.deviceId() + " twice in " + claim.key());
          assertEquals(1, owners.get(d.deviceId()).size(), () -> d.deviceId() + " is in two claims: " + owners.get(d.deviceId()));
        }
      }
    }
    consumedMemory.forEach((id, used) -> {
      var capacity = devices.get(id).device().capacity().get(MEM).value().value();
      assertTrue(used.compareTo(capacity) <= 0, () -> id + " consumes " + used + " of " + capacity);
    });
    var used = new HashMap<String, BigDecimal>();
    var counted = new HashSet<DeviceId>();
    for (var claim : claims) {
      for (var d : claim.allocation().devices()) {
        if (!counted.add(d.deviceId())) {
          continue;
        }
        var located = devices.get(d.deviceId());
        for (var consumption : located.device().consumesCounters()) {
          used.merge(d.driver() + "/" + d.pool(), consumption.counters().get("c").value(), BigDecimal::add);
        }
      }
    }
    used.forEach((pool, sum) -> {
      var value = counterValue(slices, pool);
      assertTrue(sum.compareTo(value) <= 0, () -> pool + " counters: " + sum + " of " + value);
    });
  }

  record Located(ResourceSlice slice, Device device) {}

  static Map<DeviceId, Located> devicesById(List<ResourceSlice> slices) {
    var map = new HashMap<DeviceId, Located>();
    for (var slice : slices) {
      for (var device : slice.devices()) {
        map.put(new DeviceId(slice.driver(), slice.pool().name(), device.name()), new Located(slice, device));
      }
    }
    return map;
  }

  static BigDecimal counterValue(List<ResourceSlice> slices, String driverAndPool) {
    for (var slice : slices) {
      if ((slice.driver() + "/" + slice.pool().name()).equals(driverAndPool) && !slice.sharedCounters().isEmpty()) {
        return slice.sharedCounters().get(0).counters().get("c").value();
      }
    }
    throw new IllegalStateException("no counters for " + driverAndPool);
  }

  /**
   * A brute-force allocator written from the API's rules, not from kube's search: every way to give each request
   * its devices is tried. It also names why devices were turned down, for the coverage statistics.
   */
  static final class Reference {
    private final List<Located> devices = new ArrayList<>();
    private final String node;
    private final List<ResourceClaim> claims;
    private final Set<DeviceId> dedicated = new HashSet<>();
    private final Set<DeviceId> allocatedAny = new HashSet<>();
    private final Map<DeviceId, BigDecimal> sharedMemory = new HashMap<>();
    private final Map<String, BigDecimal> countersLeft = new HashMap<>();
    final Set<String> rejections = new LinkedHashSet<>();

    Reference(List<ResourceSlice> slices, List<ResourceClaim> allocated, String node, List<ResourceClaim> claims) {
      this.node = node;
      this.claims = claims;
      var byId = devicesById(slices);
      for (var slice : slices) {
        for (var device : slice.devices()) {
          devices.add(new Located(slice, device));
        }
      }
      for (var claim : allocated) {
        for (var d : claim.allocation().devices()) {
          allocatedAny.add(d.deviceId());
          if (d.shareId() == null) {
            dedicated.add(d.deviceId());
          } else {
            d.consumedCapacity().forEach((k, v) -> sharedMemory.merge(d.deviceId(), v.value(), BigDecimal::add));
          }
        }
      }
      for (var slice : slices) {
        if (!slice.sharedCounters().isEmpty()) {
          countersLeft.put(key(slice), slice.sharedCounters().get(0).counters().get("c").value());
        }
      }
      for (var id : allocatedAny) {
        var located = byId.get(id);
        for (var consumption : located.device().consumesCounters()) {
          countersLeft.merge(key(located.slice()), consumption.counters().get("c").value().negate(), BigDecimal::add);
        }
      }
    }

    private static String key(ResourceSlice slice) {
      return slice.driver() + "/" + slice.pool().name();
    }

    private static DeviceId id(Located l) {
      return new DeviceId(l.slice().driver(), l.slice().pool().name(), l.device().name());
    }

    private static String driverOf(String deviceClass) {
      return deviceClass.equals("gpu") ? D1 : D2;
    }

    /** The static checks, naming the first that fails. */
    private @Nullable String staticRejection(DeviceRequirements r, Located l) {
      if (!l.slice().driver().equals(driverOf(r.deviceClassName()))) {
        return "selector false";
      }
      if (r.selectors().contains(NOT_SHARED) && l.device().allowMultipleAllocations()) {
        return "selector false";
      }
      var selection = l.slice().nodeSelection();
      if (!selection.allNodes() && !node.equals(selection.nodeName())) {
        return "wrong node";
      }
      boolean tolerated = !r.tolerations().isEmpty();
      if (!l.device().taints().isEmpty() && !tolerated) {
        return "taint";
      }
      var requested = r.capacityRequests().get(MEM);
      if (requested != null) {
        var capacity = l.device().capacity().get(MEM);
        if (capacity == null || requested.value().compareTo(capacity.value().value()) > 0) {
          return "capacity exhausted";
        }
      }
      return null;
    }

    private BigDecimal memoryConsumed(DeviceRequirements r, Device device) {
      var capacity = device.capacity().get(MEM);
      if (capacity == null) {
        return BigDecimal.ZERO;
      }
      var requested = r.capacityRequests().get(MEM);
      return requested == null ? capacity.value().value() : requested.value();
    }

    private record Slot(int claim, String request, DeviceRequirements requirements, int index) {}

    private record Pick(Slot slot, Located device) {}

    /** A request's alternatives: the request itself, or its sub-requests named {@code request/sub}. */
    private static List<Map.Entry<String, DeviceRequirements>> alternatives(DeviceRequest request) {
      if (request.exactly() != null) {
        return List.of(Map.entry(request.name(), request.exactly()));
      }
      var list = new ArrayList<Map.Entry<String, DeviceRequirements>>();
      for (var sub : request.firstAvailable()) {
        list.add(Map.entry(request.name() + "/" + sub.name(), sub.requirements()));
      }
      return list;
    }

    boolean exists() {
      var requests = new ArrayList<Map.Entry<Integer, List<Map.Entry<String, DeviceRequirements>>>>();
      for (int c = 0; c < claims.size(); c++) {
        for (var request : claims.get(c).requests()) {
          var alternatives = alternatives(request);
          requests.add(Map.entry(c, alternatives));
          for (var alternative : alternatives) {
            var r = alternative.getValue();
            boolean any = false;
            for (var l : devices) {
              var reason = staticRejection(r, l);
              if (reason != null) {
                rejections.add(reason);
              } else {
                any = true;
                if (dedicated.contains(id(l))) {
                  rejections.add("in use");
                }
              }
            }
            if (!any) {
              rejections.add("no device");
            }
          }
        }
      }
      return choose(requests, 0, new ArrayList<>());
    }

    /** Tries every choice of alternatives, then every way to give the chosen requests their devices. */
    private boolean choose(
        List<Map.Entry<Integer, List<Map.Entry<String, DeviceRequirements>>>> requests, int next, List<Slot> slots) {
      if (next == requests.size()) {
        return search(slots, 0, new ArrayList<>());
      }
      var request = requests.get(next);
      for (var alternative : request.getValue()) {
        var more = new ArrayList<>(slots);
        for (int k = 0; k < alternative.getValue().count(); k++) {
          more.add(new Slot(request.getKey(), alternative.getKey(), alternative.getValue(), k));
        }
        if (choose(requests, next + 1, more)) {
          return true;
        }
      }
      return false;
    }

    private boolean search(List<Slot> slots, int next, List<Pick> picks) {
      if (next == slots.size()) {
        return feasible(picks, true);
      }
      var slot = slots.get(next);
      int from = 0;
      // Within one request, devices are a set: pick them in ascending order.
      if (slot.index() > 0) {
        from = devices.indexOf(picks.get(picks.size() - 1).device()) + 1;
      }
      for (int i = from; i < devices.size(); i++) {
        var l = devices.get(i);
        if (staticRejection(slot.requirements(), l) != null) {
          continue;
        }
        picks.add(new Pick(slot, l));
        if (feasible(picks, false) && search(slots, next + 1, picks)) {
          return true;
        }
        picks.remove(picks.size() - 1);
      }
      return false;
    }

    /** Whether the picks so far respect exclusivity, counters, capacity and the claims' constraints. */
    private boolean feasible(List<Pick> picks, boolean complete) {
      var exclusive = new HashSet<DeviceId>();
      var memory = new HashMap<DeviceId, BigDecimal>();
      var charged = new HashSet<DeviceId>();
      var counters = new HashMap<String, BigDecimal>();
      for (var pick : picks) {
        var id = id(pick.device());
        var device = pick.device().device();
        if (!device.allowMultipleAllocations()) {
          if (dedicated.contains(id)) {
            rejections.add("in use");
            return false;
          }
          if (!exclusive.add(id)) {
            return false;
          }
        } else {
          var total = memory.merge(id, memoryConsumed(pick.slot().requirements(), device), BigDecimal::add);
          var capacity = device.capacity().get(MEM).value().value();
          if (total.add(sharedMemory.getOrDefault(id, BigDecimal.ZERO)).compareTo(capacity) > 0) {
            rejections.add("capacity exhausted");
            return false;
          }
        }
        if (!allocatedAny.contains(id) && charged.add(id)) {
          for (var consumption : device.consumesCounters()) {
            var poolKey = key(pick.device().slice());
            var sum = counters.merge(poolKey, consumption.counters().get("c").value(), BigDecimal::add);
            if (sum.compareTo(countersLeft.get(poolKey)) > 0) {
              rejections.add("counters exhausted");
              return false;
            }
          }
        }
      }
      for (int c = 0; c < claims.size(); c++) {
        var constraints = claims.get(c).constraints();
        if (constraints.isEmpty()) {
          continue;
        }
        var values = new ArrayList<@Nullable DeviceAttribute>();
        for (var pick : picks) {
          if (pick.slot().claim() == c) {
            values.add(Constraint.lookupAttribute(pick.device().device(), id(pick.device()), COLOR));
          }
        }
        boolean ok = true;
        if (values.contains(null)) {
          ok = false;
        } else if (constraints.get(0).matchAttribute() != null) {
          ok = new HashSet<>(values).size() <= 1;
        } else {
          ok = new HashSet<>(values).size() == values.size();
        }
        if (!ok) {
          rejections.add("constraint fails");
          return false;
        }
      }
      return true;
    }

    /** Checks one allocation against the claim without the reference's search: selectors, node, taints, counts. */
    void check(ResourceClaim claim, AllocationResult result) {
      var byId = new HashMap<DeviceId, Located>();
      devices.forEach(l -> byId.put(id(l), l));
      var perRequest = new HashMap<String, List<DeviceAllocation>>();
      for (var d : result.devices()) {
        perRequest.computeIfAbsent(d.request(), k -> new ArrayList<>()).add(d);
      }
      var colors = new ArrayList<@Nullable DeviceAttribute>();
      for (var request : claim.requests()) {
        var chosen = alternatives(request).stream().filter(a -> perRequest.containsKey(a.getKey())).toList();
        assertEquals(1, chosen.size(), () -> claim.key() + "/" + request.name() + " has one alternative: " + result);
        var r = chosen.get(0).getValue();
        var got = perRequest.get(chosen.get(0).getKey());
        if (request.exactly() == null) {
          Statistics.label("alternative").collect(chosen.get(0).getKey().substring(request.name().length() + 1));
        }
        assertEquals(r.count(), got.size(), () -> claim.key() + "/" + request.name() + " count");
        assertEquals(got.size(), new HashSet<>(got.stream().map(DeviceAllocation::deviceId).toList()).size());
        for (var d : got) {
          var l = byId.get(d.deviceId());
          assertNull(staticRejection(r, l), () -> d.deviceId() + " for " + claim.key());
          assertFalse(d.adminAccess());
          assertEquals(r.tolerations(), d.tolerations());
          colors.add(Constraint.lookupAttribute(l.device(), d.deviceId(), COLOR));
        }
      }
      if (!claim.constraints().isEmpty()) {
        assertFalse(colors.contains(null), "constrained attribute present");
        if (claim.constraints().get(0).matchAttribute() != null) {
          assertTrue(new HashSet<>(colors).size() <= 1, "matchAttribute holds");
        } else {
          assertEquals(colors.size(), new HashSet<>(colors).size(), "distinctAttribute holds");
        }
      }
      assertNull(result.allocationTimestamp(), "no binding conditions, no timestamp");
    }
  }
}
