package io.kubesched.policy.plugins.dynamicresources.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceId;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One case of kube's allocator test table ({@code AllocatorTestCase}), run as kube's {@code RunTestAllocator} runs
 * it: the allocated state made of the given devices, one {@code Allocate} on the node, the outcome compared.
 */
final class KubeCase {

  /** The real CEL compiler and cache, shared as the scheduler shares it across attempts. */
  static final io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors SELECTORS =
      io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors.create();

  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  List<ResourceClaim> claimsToAllocate = List.of();
  List<DeviceId> allocatedDevices = List.of();
  /** Shares already allocated: the device, and what the share consumes. */
  Map<DeviceId, List<Map<String, Quantity>>> allocatedShares = Map.of();
  List<DeviceClass> classes = List.of();
  List<ResourceSlice> slices = List.of();
  List<DeviceTaintRule> taintRules = List.of();
  NodeInfo node = KubeFixtures.node(KubeFixtures.node1, KubeFixtures.region1);
  @Nullable List<AllocationResult> expectResults;
  @Nullable String expectError;
  @Nullable String expectUnsuitable;
  long expectNumAllocateOneInvocations;

  KubeCase claims(ResourceClaim... claims) {
    claimsToAllocate = List.of(claims);
    return this;
  }

  KubeCase allocated(DeviceId... ids) {
    allocatedDevices = List.of(ids);
    return this;
  }

  KubeCase classes(DeviceClass... classes) {
    this.classes = List.of(classes);
    return this;
  }

  KubeCase slices(ResourceSlice... slices) {
    this.slices = List.of(slices);
    return this;
  }

  KubeCase node(NodeInfo node) {
    this.node = node;
    return this;
  }

  KubeCase expect(AllocationResult... results) {
    expectResults = List.of(results);
    return this;
  }

  /** kube's {@code expectResults: nil} or empty: no allocation on this node, and no error. */
  KubeCase expectNone() {
    expectResults = List.of();
    return this;
  }

  KubeCase expectError(String substring) {
    expectError = substring;
    return this;
  }

  /** kube's error wrapping {@code ErrFailedAllocationOnNode}: unsuitable with a message. */
  KubeCase expectUnsuitable(String substring) {
    expectUnsuitable = substring;
    return this;
  }

  KubeCase steps(long steps) {
    expectNumAllocateOneInvocations = steps;
    return this;
  }

  DynamicResources resources() {
    var claims = new ArrayList<ResourceClaim>();
    var results = new ArrayList<DeviceAllocation>();
    for (var id : allocatedDevices) {
      results.add(KubeFixtures.deviceAllocationResult("r", id.driver(), id.pool(), id.device(), false));
    }
    int share = 0;
    for (var entry : allocatedShares.entrySet()) {
      for (var consumed : entry.getValue()) {
        var id = entry.getKey();
        results.add(
            new DeviceAllocation(
                "r", id.driver(), id.pool(), id.device(), false, List.of(), List.of(), List.of(), "share-" + share++,
                consumed));
      }
    }
    if (!results.isEmpty()) {
      claims.add(
          KubeFixtures.claimWithRequests("allocated", null)
              .withAllocation(new AllocationResult(results, List.of(), null, null)));
    }
    return DynamicResources.of(slices, classes, claims, taintRules);
  }

  void run() {
    var allocator =
        Allocator.create(resources(), SELECTORS, Clock.fixed(NOW, ZoneOffset.UTC));
    var outcome = allocator.allocate(node, claimsToAllocate);
    if (expectError != null) {
      if (!(outcome instanceof Allocator.Outcome.Failed failed)) {
        fail("expected an error containing \"" + expectError + "\", got " + outcome);
        return;
      }
      assertTrue(failed.message().contains(expectError), () -> "error " + failed.message() + " lacks " + expectError);
      return;
    }
    if (expectUnsuitable != null) {
      if (!(outcome instanceof Allocator.Outcome.Unsuitable unsuitable)) {
        fail("expected unsuitable with \"" + expectUnsuitable + "\", got " + outcome);
        return;
      }
      assertTrue(unsuitable.message().contains(expectUnsuitable), () -> "message " + unsuitable.message());
      return;
    }
    var expected = expectResults == null ? List.<AllocationResult>of() : expectResults;
    if (expected.isEmpty()) {
      assertTrue(
          outcome instanceof Allocator.Outcome.Unsuitable u && u.message().isEmpty()
              || outcome instanceof Allocator.Outcome.Allocated a && a.results().isEmpty(),
          () -> "expected no allocation, got " + outcome);
    } else {
      if (!(outcome instanceof Allocator.Outcome.Allocated allocated)) {
        fail("expected an allocation, got " + outcome);
        return;
      }
      assertEquals(normalize(expected), normalize(checkTimestamps(allocated.results())));
    }
    if (expectNumAllocateOneInvocations > 0) {
      assertEquals(expectNumAllocateOneInvocations, allocator.searchSteps(), "allocateOne invocations");
    }
  }

  /** Our contract: a timestamp exactly on the allocations with binding conditions (kube stamps them in PreBind). */
  private static List<AllocationResult> checkTimestamps(List<AllocationResult> results) {
    var out = new ArrayList<AllocationResult>();
    for (var result : results) {
      boolean conditions = result.devices().stream().anyMatch(d -> !d.bindingConditions().isEmpty());
      assertEquals(conditions ? NOW : null, result.allocationTimestamp(), "allocationTimestamp");
      out.add(new AllocationResult(result.devices(), result.config(), result.nodeSelector(), null));
    }
    return out;
  }

  /** Orders what kube compares without order: devices of a result, terms, requirements and their values. */
  private static List<Object> normalize(List<AllocationResult> results) {
    var out = new ArrayList<Object>();
    for (var result : results) {
      var devices = new ArrayList<String>();
      for (var d : result.devices()) {
        var shared =
            new DeviceAllocation(
                d.request(), d.driver(), d.pool(), d.device(), d.adminAccess(), d.tolerations(), d.bindingConditions(),
                d.bindingFailureConditions(), d.shareId() == null ? null : KubeFixtures.fixedShareID,
                normalizeQuantities(d.consumedCapacity()));
        devices.add(shared.toString());
      }
      devices.sort(Comparator.naturalOrder());
      Object selector = null;
      if (result.nodeSelector() != null) {
        var terms = new HashSet<Object>();
        for (var term : result.nodeSelector()) {
          terms.add(List.of(requirements(term.matchExpressions()), requirements(term.matchFields())));
        }
        selector = terms;
      }
      out.add(Arrays.asList(devices, result.config(), selector));
    }
    return out;
  }

  private static Map<String, Quantity> normalizeQuantities(Map<String, Quantity> map) {
    return new HashMap<>(map);
  }

  private static Set<Object> requirements(List<NodeSelectorRequirement> requirements) {
    var set = new HashSet<Object>();
    for (var r : requirements) {
      set.add(List.of(r.key(), r.operator(), Set.copyOf(r.values())));
    }
    return set;
  }

  static NodeSelectorTerm unused() {
    return new NodeSelectorTerm(List.of(), List.of());
  }
}
