package io.kubesched.policy.plugins.dynamicresources;

import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLASS_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.DEVICE_CLASS;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.claim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.exact;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.node;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.requirements;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.resources;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.slice;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClaimDeallocation;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import io.kubesched.api.DeviceId;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.jqwik.api.lifecycle.AfterContainer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The plugin never lets two pods' decisions, applied in sequence to the snapshot's claims (as the binding side
 * writes them), hold the same device: a claim shared by several pods is allocated once and then only reserved, and
 * the next pod's allocator sees every device the earlier decisions took. Allocation runs through {@link
 * FirstFreeDevices}, which trusts the snapshot it is given to say what is taken: what is checked here is that the
 * plugin gives it the right snapshot and claims and never allocates an allocated claim again. The second property
 * runs the same sequences through the structured allocator the library uses.
 */
class DynamicResourcesProperties {

  /** One drawn cluster: devices per node, claims (how many devices each asks for, and whether as alternatives). */
  record Scenario(List<Integer> devicesPerNode, List<ClaimShape> claims, List<List<Integer>> podClaims) {

    List<NodeInfo> nodes() {
      var nodes = new ArrayList<NodeInfo>();
      for (int i = 0; i < devicesPerNode.size(); i++) {
        nodes.add(node("node-" + i));
      }
      return nodes;
    }

    ClusterSnapshot snapshot() {
      var slices = new ArrayList<ResourceSlice>();
      for (int i = 0; i < devicesPerNode.size(); i++) {
        var names = new ArrayList<String>();
        for (int d = 0; d < devicesPerNode.get(i); d++) {
          names.add("dev-" + d);
        }
        slices.add(slice("node-" + i, names.toArray(String[]::new)));
      }
      var claims = new ArrayList<ResourceClaim>();
      for (int c = 0; c < this.claims.size(); c++) {
        claims.add(this.claims.get(c).claim("claim-" + c));
      }
      return DraFixtures.snapshot(nodes(), resources(slices, List.of(DEVICE_CLASS), claims));
    }

    List<PodInfo> pods() {
      var pods = new ArrayList<PodInfo>();
      for (int p = 0; p < podClaims.size(); p++) {
        var entries = new ArrayList<PodResourceClaim>();
        for (int c : new LinkedHashSet<>(podClaims.get(p))) {
          entries.add(PodResourceClaim.ofClaim("r" + c, "claim-" + c));
        }
        pods.add(DraFixtures.pod("pod-" + p, "uid-" + p, entries.toArray(PodResourceClaim[]::new)));
      }
      return pods;
    }
  }

  /** A claim of {@code count} devices, asked exactly or as the first of two alternatives (then one device). */
  record ClaimShape(int count, boolean prioritized) {
    ResourceClaim claim(String name) {
      if (prioritized) {
        return claim(name, new DeviceRequest("req-1", null, List.of(
            new DeviceRequest.SubRequest("big", requirements(CLASS_NAME, count)),
            new DeviceRequest.SubRequest("small", requirements(CLASS_NAME, 1)))));
      }
      return DraFixtures.claim(name, null, exact("req-1", CLASS_NAME, count));
    }

    private static ResourceClaim claim(String name, DeviceRequest request) {
      return DraFixtures.claim(name, null, request);
    }
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    var devices = Arbitraries.integers().between(0, 3).list().ofMinSize(1).ofMaxSize(4);
    var claims = Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.of(true, false))
        .as(ClaimShape::new).list().ofMinSize(1).ofMaxSize(5);
    return Combinators.combine(devices, claims).flatAs((d, c) ->
        Arbitraries.integers().between(0, c.size() - 1).list().ofMinSize(1).ofMaxSize(2).list().ofMinSize(1)
            .ofMaxSize(6).map(pods -> new Scenario(d, c, pods)));
  }

  private static Policy policy(NodeAllocator.Factory allocator) {
    return Policy.builder()
        .filters(Filters.defaults().stream()
            .map(f -> f.name().equals(DynamicResourcesFilter.NAME) ? (Filter) new DynamicResourcesFilter(allocator) : f)
            .toList())
        .scorer(new DynamicResourcesScorer(allocator), 2)
        .noPreemption()
        .seed(7)
        .build();
  }

  @Property(tries = 500)
  void no_device_is_held_by_two_claims_after_any_sequence_of_decisions(@ForAll("scenarios") Scenario scenario) {
    placeInSequence(scenario, policy(new FirstFreeDevices()));
  }

  @Property(tries = 300)
  void with_the_structured_allocator_no_device_is_held_by_two_claims(@ForAll("scenarios") Scenario scenario) {
    placeInSequence(scenario, policy(NodeAllocator.Factory.structured(SELECTORS, Clock.systemUTC())));
  }

  private static final DeviceSelectors SELECTORS = DeviceSelectors.create();

  private static final ExecutorService POOL = Executors.newFixedThreadPool(7, runnable -> {
    var thread = new Thread(runnable, "dra-properties");
    thread.setDaemon(true);
    return thread;
  });

  @AfterContainer
  static void stopPool() {
    POOL.shutdown();
  }

  /**
   * The prepared filter is called concurrently for different nodes (each node's allocation kept in a concurrent
   * map) and the allocator runs concurrently: eight threads, one node per chunk, decide every pod of a sequence as
   * one thread does.
   */
  @Property(tries = 200)
  void eight_threads_decide_as_one(@ForAll("scenarios") Scenario scenario) {
    var sequential = policy(NodeAllocator.Factory.structured(SELECTORS, Clock.systemUTC()));
    var parallel = sequential.withParallelism(8, POOL, 0, 1);
    var one = scenario.snapshot();
    var eight = one;
    for (var pod : scenario.pods()) {
      var expected = sequential.find(pod, one);
      var actual = parallel.find(pod, eight);
      assertEquals(expected, actual, "pod " + pod.key());
      if (expected instanceof Decision.Bind bind) {
        one = one.withPodOn(pod.toBuilder().nodeName(bind.nodeName()).build(), bind.nodeName())
            .withDynamicResources(ClaimAllocations.apply(one.dynamicResources(), pod, bind.claimAllocations()));
        eight = one;
      }
    }
  }

  private static void placeInSequence(Scenario scenario, Policy policy) {
    var cluster = scenario.snapshot();
    int reused = 0;
    int bound = 0;
    int refused = 0;
    for (var pod : scenario.pods()) {
      var decision = policy.find(pod, cluster);
      if (!(decision instanceof Decision.Bind bind)) {
        refused++;
        continue;
      }
      bound++;
      for (var planned : bind.claimAllocations()) {
        if (planned.allocation() == null) {
          reused++;
        }
      }
      // apply refuses a decision that allocates an allocated claim again, or names a claim that is not there
      var resources = ClaimAllocations.apply(cluster.dynamicResources(), pod, bind.claimAllocations());
      cluster = cluster.withPodOn(pod.toBuilder().nodeName(bind.nodeName()).build(), bind.nodeName())
          .withDynamicResources(resources);
      assertNoDeviceTwice(resources);
      var node = cluster.node(bind.nodeName()).orElseThrow();
      assertEquals(pod.resourceClaims().size(), bind.claimAllocations().size(), "one entry per claim");
      for (var entry : pod.resourceClaims()) {
        var claim = resources.claim(pod.namespace(), entry.claimName()).orElseThrow();
        var allocation = claim.allocation();
        assertNotNull(allocation, "a bound pod's claims are all allocated");
        assertTrue(allocation.nodeSelector() == null || NodeSelectors.matchesAny(allocation.nodeSelector(), node),
            "the pod runs where its claims' devices are");
        assertTrue(claim.reservedFor().stream().anyMatch(r -> r.uid().equals(pod.uid())), "reserved for it");
      }
    }
    Statistics.label("outcomes").collect(bound > 0 ? "some bound" : "none bound", refused > 0 ? "some refused" : "none refused");
    Statistics.label("shared").collect(reused > 0 ? "an allocated claim reused" : "no reuse");
    Statistics.label("outcomes").coverage(cov -> {
      cov.check("some bound", "some refused").percentage(p -> p > 5);
    });
    Statistics.label("shared").coverage(cov -> cov.check("an allocated claim reused").percentage(p -> p > 5));
  }

  /**
   * A scenario whose claims may start allocated to the first device of a node and reserved for no pod (as a claim
   * another actor allocated, or one whose binding failed, is): {@code idleOn} holds such a claim's node, -1 for none.
   */
  record IdleScenario(Scenario scenario, List<Integer> idleOn) {

    ClusterSnapshot snapshot() {
      var cluster = scenario.snapshot();
      var resources = cluster.dynamicResources();
      var claims = new ArrayList<ResourceClaim>();
      var taken = new LinkedHashSet<Integer>();
      for (var claim : resources.claims()) {
        int index = Integer.parseInt(claim.name().substring("claim-".length()));
        int node = idleOn.get(index);
        boolean fits = node >= 0 && node < scenario.devicesPerNode().size() && scenario.devicesPerNode().get(node) > 0
            && !scenario.claims().get(index).prioritized() && scenario.claims().get(index).count() == 1;
        if (fits && taken.add(node)) {
          claims.add(claim.withAllocation(DraFixtures.allocation("node-" + node, "req-1", "dev-0")));
        } else {
          claims.add(claim);
        }
      }
      return cluster.withDynamicResources(
          DynamicResources.of(resources.slices(), resources.deviceClasses(), claims, resources.taintRules()));
    }
  }

  /**
   * Scenarios where deallocating helps often enough: few devices per node, and pods with up to two claims, so that a
   * claim idle on a node keeps its pod's other claim off that node.
   */
  @Provide
  Arbitrary<IdleScenario> idleScenarios() {
    var devices = Arbitraries.integers().between(1, 2).list().ofMinSize(2).ofMaxSize(3);
    var claims = Combinators.combine(Arbitraries.just(1), Arbitraries.of(true, false))
        .as(ClaimShape::new).list().ofMinSize(2).ofMaxSize(4);
    var scenarios = Combinators.combine(devices, claims).flatAs((d, c) ->
        Arbitraries.integers().between(0, c.size() - 1).list().ofMinSize(1).ofMaxSize(2).list().ofMinSize(1)
            .ofMaxSize(4).map(pods -> new Scenario(d, c, pods)));
    return scenarios.flatMap(s -> Arbitraries.integers().between(-1, 2).list().ofSize(s.claims().size())
        .map(idle -> new IdleScenario(s, idle)));
  }

  /**
   * PostFilter deallocates only what kube's would: one claim of the pod, allocated, reserved for no other pod, that a
   * node could not use; with the deallocation applied (as the loop writes it) the sequence goes on, and still no
   * device is ever held twice.
   */
  @Property(tries = 300)
  void postfilter_deallocates_only_an_idle_claim_of_the_pod(@ForAll("idleScenarios") IdleScenario scenario) {
    var policy = policy(NodeAllocator.Factory.structured(SELECTORS, Clock.systemUTC()));
    var cluster = scenario.snapshot();
    int deallocated = 0;
    for (var pod : scenario.scenario().pods()) {
      for (int attempt = 0; attempt < 2; attempt++) {
        var decision = policy.find(pod, cluster);
        if (decision instanceof Decision.Bind bind) {
          var resources = ClaimAllocations.apply(cluster.dynamicResources(), pod, bind.claimAllocations());
          cluster = cluster.withPodOn(pod.toBuilder().nodeName(bind.nodeName()).build(), bind.nodeName())
              .withDynamicResources(resources);
          assertNoDeviceTwice(resources);
          break;
        }
        var refused = (Decision.Unschedulable) decision;
        assertTrue(refused.claimDeallocations().size() <= 1, "at most one claim per attempt");
        if (refused.claimDeallocations().isEmpty()) {
          break;
        }
        var deallocation = refused.claimDeallocations().get(0);
        var claim = cluster.dynamicResources().claim(deallocation.namespace(), deallocation.name()).orElseThrow();
        assertTrue(pod.resourceClaims().stream().anyMatch(e -> deallocation.name().equals(e.claimName())),
            "a claim of the pod");
        assertNotNull(claim.allocation(), "allocated");
        assertTrue(claim.reservedFor().stream().allMatch(r -> r.uid().equals(pod.uid())), "reserved for no other pod");
        assertEquals(ClaimDeallocation.of(claim), deallocation, "the version decided on");
        assertTrue(refused.message(cluster.nodes().size()).contains(ClaimDeallocation.COMPLETED));
        deallocated++;
        var resources = cluster.dynamicResources();
        var claims = resources.claims().stream()
            .map(c -> c.key().equals(claim.key()) ? c.withAllocation(null).withReservedFor(List.of()) : c)
            .toList();
        cluster = cluster.withDynamicResources(
            DynamicResources.of(resources.slices(), resources.deviceClasses(), claims, resources.taintRules()));
      }
    }
    Statistics.label("deallocations").collect(deallocated > 0 ? "some" : "none");
    Statistics.label("deallocations").coverage(cov -> cov.check("some").percentage(p -> p > 5));
  }

  private static void assertNoDeviceTwice(DynamicResources resources) {
    var holder = new HashMap<DeviceId, String>();
    for (var claim : resources.claims()) {
      var allocation = claim.allocation();
      if (allocation == null) {
        continue;
      }
      for (var device : allocation.devices()) {
        var previous = holder.put(device.deviceId(), claim.key());
        assertTrue(previous == null || previous.equals(claim.key()),
            "device " + device.deviceId() + " is held by " + previous + " and " + claim.key());
      }
    }
  }
}
