package io.kubesched.policy.plugins.volumebinding;

import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.G;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.GI;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.MI;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.bareNode;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.capacity;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.claim;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.driver;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.immediateClass;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.provisioningClass;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.storage;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.CsiDriver;
import io.kubesched.api.CsiStorageCapacity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.StorageClass;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingFilter.Conflict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * kube's binder tests that are pure planning (binder_test.go): {@code TestFindPodVolumesWithoutProvisioning},
 * {@code TestFindPodVolumesWithProvisioning} and {@code TestCapacity}, under kube's scenario names and driver
 * variants.
 */
class VolumePlannerTest {

  private static final String NS = "testns";
  private static final String PROVISIONER = "test-provisioner";
  private static final String WAIT_CLASS = "waitClass";
  private static final String IMMEDIATE_CLASS = "immediateClass";
  private static final String WAIT_CLASS_WITH_PROVISIONER = "waitClassWithProvisioner";
  private static final String TOPO_MISMATCH_CLASS = "topoMismatchClass";
  private static final String NODE_KEY = "nodeKey";

  private static final List<StorageClass> CLASSES = List.of(
      provisioningClass(WAIT_CLASS_WITH_PROVISIONER, PROVISIONER, NODE_KEY, "node1", "reference-value"),
      immediateClass(IMMEDIATE_CLASS),
      new StorageClass(WAIT_CLASS, StorageClass.NO_PROVISIONER, true, List.of()),
      provisioningClass(TOPO_MISMATCH_CLASS, PROVISIONER, NODE_KEY, "reference-value"));

  private static final NodeInfo TEST_NODE = bareNode("node1", Map.of(NODE_KEY, "node1"));

  // kube's makeTestPVC: namespace testns, uid pvc-uid.
  private static PersistentVolumeClaim testClaim(String name, long size, String className) {
    return claim(name, className).namespace(NS).uid("pvc-uid").request(size).build();
  }

  private static final PersistentVolumeClaim UNBOUND_PVC = testClaim("unbound-pvc", G, WAIT_CLASS);
  private static final PersistentVolumeClaim UNBOUND_PVC2 = testClaim("unbound-pvc2", 5 * G, WAIT_CLASS);
  private static final PersistentVolumeClaim PREBOUND_PVC =
      claim("prebound-pvc", WAIT_CLASS).namespace(NS).uid("pvc-uid").request(G).preboundTo("pv-node1a").build();
  private static final PersistentVolumeClaim BOUND_PVC =
      claim("bound-pvc", WAIT_CLASS).namespace(NS).uid("pvc-uid").request(G).boundTo("pv-bound").build();
  private static final PersistentVolumeClaim IMMEDIATE_UNBOUND_PVC =
      testClaim("immediate-unbound-pvc", G, IMMEDIATE_CLASS);
  private static final PersistentVolumeClaim IMMEDIATE_BOUND_PVC = claim("immediate-bound-pvc", IMMEDIATE_CLASS)
      .namespace(NS).uid("pvc-uid").request(G).boundTo("pv-bound-immediate").build();
  private static final PersistentVolumeClaim PROVISIONED_PVC =
      testClaim("provisioned-pvc", GI, WAIT_CLASS_WITH_PROVISIONER);
  private static final PersistentVolumeClaim NO_PROVISIONER_PVC = testClaim("no-provisioner-pvc", GI, WAIT_CLASS);
  private static final PersistentVolumeClaim TOPO_MISMATCH_PVC =
      testClaim("topo-mismatch-pvc", GI, TOPO_MISMATCH_CLASS);
  private static final PersistentVolumeClaim SELECTED_NODE_PVC = claim("provisioned-pvc", WAIT_CLASS_WITH_PROVISIONER)
      .namespace(NS).uid("pvc-uid").request(GI).selectedNode("node1").build();
  // kube's makeGenericEphemeralPVC; the model reads an owner without uid as none, so the pod has a uid here.
  private static final PersistentVolumeClaim CONFLICTING_GENERIC_PVC = claim("test-pod-test-volume", IMMEDIATE_CLASS)
      .namespace(NS).uid("pvc-uid").request(G).boundTo("pv-bound").build();
  private static final PersistentVolumeClaim CORRECT_GENERIC_PVC = claim("test-pod-test-volume", IMMEDIATE_CLASS)
      .namespace(NS).uid("pvc-uid").request(G).boundTo("pv-bound").ownedBy("test-pod-uid").build();

  // kube's makeTestPV: Available, Filesystem, node affinity nodeKey In (node).
  private static PersistentVolume testVolume(
      String name, String node, long capacity, @Nullable PersistentVolumeClaim boundTo, String className) {
    var builder = volume(name, className).available().capacity(capacity).affinity(NODE_KEY, node);
    if (boundTo != null) {
      builder.claimRef(boundTo);
    }
    return builder.build();
  }

  private static final PersistentVolume PV_NODE1A = testVolume("pv-node1a", "node1", 5 * G, null, WAIT_CLASS);
  private static final PersistentVolume PV_NODE1B = testVolume("pv-node1b", "node1", 10 * G, null, WAIT_CLASS);
  private static final PersistentVolume PV_NODE2 = testVolume("pv-node2", "node2", G, null, WAIT_CLASS);
  private static final PersistentVolume PV_BOUND = testVolume("pv-bound", "node1", G, BOUND_PVC, WAIT_CLASS);
  private static final PersistentVolume PV_NODE1A_BOUND =
      testVolume("pv-node1a", "node1", 5 * G, UNBOUND_PVC, WAIT_CLASS);
  private static final PersistentVolume PV_BOUND_IMMEDIATE =
      testVolume("pv-bound-immediate", "node1", G, IMMEDIATE_BOUND_PVC, IMMEDIATE_CLASS);
  private static final PersistentVolume PV_BOUND_IMMEDIATE_NODE2 =
      testVolume("pv-bound-immediate", "node2", G, IMMEDIATE_BOUND_PVC, IMMEDIATE_CLASS);
  private static final PersistentVolume PV_BOUND_GENERIC =
      testVolume("pv-bound", "node1", G, CORRECT_GENERIC_PVC, WAIT_CLASS);

  /**
   * One scenario.
   *
   * @param pod the pod; null for one using {@code podClaims}
   * @param cachedClaims the claims that exist; null for {@code podClaims}
   * @param bindings expected static bindings, claim name to volume name
   * @param provisions expected provisioned claims (by name)
   * @param shouldFail whether kube's PreFilter part fails (the planner rejects every node)
   * @param needsCapacity whether a capacity-tracking driver (with no capacity object) makes the node fail
   */
  private record Scenario(
      @Nullable PodInfo pod,
      List<PersistentVolumeClaim> podClaims,
      @Nullable List<PersistentVolumeClaim> cachedClaims,
      List<PersistentVolume> volumes,
      Map<String, String> bindings,
      List<String> provisions,
      List<Reason> reasons,
      boolean shouldFail,
      boolean needsCapacity) {}

  private static final class S {
    @Nullable PodInfo pod;
    List<PersistentVolumeClaim> podClaims = List.of();
    @Nullable List<PersistentVolumeClaim> cachedClaims;
    List<PersistentVolume> volumes = List.of();
    Map<String, String> bindings = new LinkedHashMap<>();
    List<String> provisions = List.of();
    List<Reason> reasons = List.of();
    boolean shouldFail;
    boolean needsCapacity;

    S claims(PersistentVolumeClaim... claims) {
      podClaims = List.of(claims);
      return this;
    }

    S volumes(PersistentVolume... volumes) {
      this.volumes = List.of(volumes);
      return this;
    }

    S binding(PersistentVolumeClaim claim, PersistentVolume volume) {
      bindings.put(claim.name(), volume.name());
      return this;
    }

    S provisions(PersistentVolumeClaim... claims) {
      provisions = Stream.of(claims).map(PersistentVolumeClaim::name).toList();
      return this;
    }

    S reasons(Reason... reasons) {
      this.reasons = List.of(reasons);
      return this;
    }

    S fails() {
      shouldFail = true;
      return this;
    }

    S needsCapacity() {
      needsCapacity = true;
      return this;
    }

    Scenario done() {
      return new Scenario(
          pod, podClaims, cachedClaims, volumes, bindings, provisions, reasons, shouldFail, needsCapacity);
    }
  }

  private static S scenario() {
    return new S();
  }

  private static PodInfo ephemeralPod(String volumeName) {
    var claim = "test-pod-" + volumeName;
    return PodInfo.builder(NS, "test-pod").uid("test-pod-uid").nodeName("node1")
        .persistentVolumeClaims(List.of(claim)).ephemeralVolumeClaims(List.of(claim)).build();
  }

  private static Map<String, Scenario> withoutProvisioning() {
    var scenarios = new LinkedHashMap<String, Scenario>();
    scenarios.put("no-volumes", scenario().done());
    // kube's "no-pvcs" has an emptyDir volume, which the model does not carry: the pod has no claim either way.
    scenarios.put("no-pvcs", scenario().done());
    var notFound = scenario().claims(BOUND_PVC).fails();
    notFound.cachedClaims = List.of();
    scenarios.put("pvc-not-found", notFound.done());
    scenarios.put("bound-pvc", scenario().claims(BOUND_PVC).volumes(PV_BOUND).done());
    scenarios.put("bound-pvc,pv-not-exists", scenario().claims(BOUND_PVC).reasons(Conflict.VOLUME_NOT_FOUND).done());
    scenarios.put("prebound-pvc", scenario().claims(PREBOUND_PVC).volumes(PV_NODE1A_BOUND).fails().done());
    scenarios.put("unbound-pvc,pv-same-node", scenario().claims(UNBOUND_PVC)
        .volumes(PV_NODE2, PV_NODE1A, PV_NODE1B).binding(UNBOUND_PVC, PV_NODE1A).done());
    scenarios.put("unbound-pvc,pv-different-node", scenario().claims(UNBOUND_PVC).volumes(PV_NODE2)
        .reasons(Conflict.NO_MATCHING_VOLUME).done());
    scenarios.put("two-unbound-pvcs", scenario().claims(UNBOUND_PVC, UNBOUND_PVC2).volumes(PV_NODE1A, PV_NODE1B)
        .binding(UNBOUND_PVC, PV_NODE1A).binding(UNBOUND_PVC2, PV_NODE1B).done());
    scenarios.put("two-unbound-pvcs,order-by-size", scenario().claims(UNBOUND_PVC2, UNBOUND_PVC)
        .volumes(PV_NODE1A, PV_NODE1B).binding(UNBOUND_PVC, PV_NODE1A).binding(UNBOUND_PVC2, PV_NODE1B).done());
    scenarios.put("two-unbound-pvcs,partial-match", scenario().claims(UNBOUND_PVC, UNBOUND_PVC2).volumes(PV_NODE1A)
        .binding(UNBOUND_PVC, PV_NODE1A).reasons(Conflict.NO_MATCHING_VOLUME).done());
    scenarios.put("one-bound,one-unbound", scenario().claims(UNBOUND_PVC, BOUND_PVC).volumes(PV_BOUND, PV_NODE1A)
        .binding(UNBOUND_PVC, PV_NODE1A).done());
    scenarios.put("one-bound,one-unbound,no-match", scenario().claims(UNBOUND_PVC, BOUND_PVC)
        .volumes(PV_BOUND, PV_NODE2).reasons(Conflict.NO_MATCHING_VOLUME).done());
    scenarios.put("one-prebound,one-unbound", scenario().claims(UNBOUND_PVC, PREBOUND_PVC)
        .volumes(PV_NODE1A, PV_NODE1B).fails().done());
    scenarios.put("immediate-bound-pvc", scenario().claims(IMMEDIATE_BOUND_PVC).volumes(PV_BOUND_IMMEDIATE).done());
    scenarios.put("immediate-bound-pvc-wrong-node", scenario().claims(IMMEDIATE_BOUND_PVC)
        .volumes(PV_BOUND_IMMEDIATE_NODE2).reasons(Conflict.NODE_AFFINITY).done());
    scenarios.put("immediate-unbound-pvc", scenario().claims(IMMEDIATE_UNBOUND_PVC).fails().done());
    scenarios.put("immediate-unbound-pvc,delayed-mode-bound", scenario().claims(IMMEDIATE_UNBOUND_PVC, BOUND_PVC)
        .volumes(PV_BOUND).fails().done());
    scenarios.put("immediate-unbound-pvc,delayed-mode-unbound", scenario().claims(IMMEDIATE_UNBOUND_PVC, UNBOUND_PVC)
        .fails().done());
    var noPvc = scenario().fails();
    noPvc.pod = ephemeralPod("no-such-pvc");
    scenarios.put("generic-ephemeral,no-pvc", noPvc.done());
    var withPvc = scenario().volumes(PV_BOUND_GENERIC);
    withPvc.pod = ephemeralPod("test-volume");
    withPvc.cachedClaims = List.of(CORRECT_GENERIC_PVC);
    scenarios.put("generic-ephemeral,with-pvc", withPvc.done());
    var wrongPvc = scenario().volumes(PV_BOUND_GENERIC).fails();
    wrongPvc.pod = ephemeralPod("test-volume");
    wrongPvc.cachedClaims = List.of(CONFLICTING_GENERIC_PVC);
    scenarios.put("generic-ephemeral,wrong-pvc", wrongPvc.done());
    return scenarios;
  }

  private static Map<String, Scenario> withProvisioning() {
    var scenarios = new LinkedHashMap<String, Scenario>();
    scenarios.put("one-provisioned", scenario().claims(PROVISIONED_PVC).provisions(PROVISIONED_PVC)
        .needsCapacity().done());
    scenarios.put("two-unbound-pvcs,one-matched,one-provisioned", scenario().claims(UNBOUND_PVC, PROVISIONED_PVC)
        .volumes(PV_NODE1A).binding(UNBOUND_PVC, PV_NODE1A).provisions(PROVISIONED_PVC).needsCapacity().done());
    scenarios.put("one-bound,one-provisioned", scenario().claims(BOUND_PVC, PROVISIONED_PVC).volumes(PV_BOUND)
        .provisions(PROVISIONED_PVC).needsCapacity().done());
    scenarios.put("one-binding,one-selected-node", scenario().claims(BOUND_PVC, SELECTED_NODE_PVC).volumes(PV_BOUND)
        .provisions(SELECTED_NODE_PVC).needsCapacity().done());
    scenarios.put("immediate-unbound-pvc", scenario().claims(IMMEDIATE_UNBOUND_PVC).fails().done());
    scenarios.put("one-immediate-bound,one-provisioned", scenario().claims(IMMEDIATE_BOUND_PVC, PROVISIONED_PVC)
        .volumes(PV_BOUND_IMMEDIATE).provisions(PROVISIONED_PVC).needsCapacity().done());
    scenarios.put("invalid-provisioner", scenario().claims(NO_PROVISIONER_PVC)
        .reasons(Conflict.NO_MATCHING_VOLUME).done());
    scenarios.put("volume-topology-unsatisfied", scenario().claims(TOPO_MISMATCH_PVC)
        .reasons(Conflict.NO_MATCHING_VOLUME).done());
    return scenarios;
  }

  private static Map<String, @Nullable CsiDriver> drivers() {
    var drivers = new LinkedHashMap<String, @Nullable CsiDriver>();
    drivers.put("no CSIDriver", null);
    drivers.put("CSIDriver with capacity tracking", driver(PROVISIONER, true));
    drivers.put("CSIDriver without capacity tracking", driver(PROVISIONER, false));
    return drivers;
  }

  private static VolumePlanner planner(Scenario scenario, @Nullable CsiDriver driver, List<CsiStorageCapacity> caps) {
    var pod = scenario.pod() != null
        ? scenario.pod()
        : PodInfo.builder(NS, "test-pod").uid("test-pod-uid").nodeName("node1")
            .persistentVolumeClaims(scenario.podClaims().stream().map(PersistentVolumeClaim::name).toList())
            .build();
    var claims = scenario.cachedClaims() != null ? scenario.cachedClaims() : scenario.podClaims();
    return VolumePlanner.of(
        pod, storage(claims, scenario.volumes(), CLASSES, driver == null ? List.of() : List.of(driver), caps));
  }

  private static void check(Scenario scenario, @Nullable CsiDriver driver) {
    var planner = planner(scenario, driver, List.of());
    assertEquals(scenario.shouldFail(), planner.rejection().isPresent(), "fails");
    if (scenario.shouldFail()) {
      return;
    }
    var plan = planner.plan(TEST_NODE);
    var reasons = new ArrayList<>(scenario.reasons());
    var provisions = scenario.provisions();
    if (scenario.needsCapacity() && driver != null && driver.storageCapacity()) {
      reasons.add(Conflict.NOT_ENOUGH_SPACE);
      provisions = List.of();
    }
    assertEquals(reasons, plan.reasons());
    var bindings = new LinkedHashMap<String, String>();
    plan.staticBindings().forEach(b -> bindings.put(b.claim().name(), b.volume().name()));
    assertEquals(scenario.bindings(), bindings);
    assertEquals(provisions, plan.provisions().stream().map(p -> p.claim().name()).toList());
  }

  private static Stream<DynamicNode> perDriver(Map<String, Scenario> scenarios) {
    return drivers().entrySet().stream().map(driver -> DynamicContainer.dynamicContainer(
        driver.getKey(),
        scenarios.entrySet().stream().map(s ->
            DynamicTest.dynamicTest(s.getKey(), () -> check(s.getValue(), driver.getValue())))));
  }

  @TestFactory
  Stream<DynamicNode> findPodVolumesWithoutProvisioning() {
    return perDriver(withoutProvisioning());
  }

  @TestFactory
  Stream<DynamicNode> findPodVolumesWithProvisioning() {
    return perDriver(withProvisioning());
  }

  // TestCapacity: kube's makeCapacity with a node selects nodeKey=<node's value>; without, the empty selector.
  private static final CsiStorageCapacity NETWORK_ATTACHED_CAPACITY =
      capacity("net", WAIT_CLASS_WITH_PROVISIONER, null, GI, -1);
  private static final CsiStorageCapacity NODE1_CAPACITY = capacity("net", WAIT_CLASS_WITH_PROVISIONER, "node1", GI, -1);

  private record CapacityScenario(
      List<CsiStorageCapacity> capacities, @Nullable CsiStorageCapacity expected, boolean notEnoughSpace) {}

  private static Map<String, CapacityScenario> capacityScenarios() {
    var scenarios = new LinkedHashMap<String, CapacityScenario>();
    scenarios.put("network-attached",
        new CapacityScenario(List.of(NETWORK_ATTACHED_CAPACITY), NETWORK_ATTACHED_CAPACITY, false));
    scenarios.put("local-storage", new CapacityScenario(List.of(NODE1_CAPACITY), NODE1_CAPACITY, false));
    // kube's three capacities share the key "net"; its informer store keeps only the last one added, node1's.
    scenarios.put("multiple", new CapacityScenario(List.of(NODE1_CAPACITY), NODE1_CAPACITY, false));
    scenarios.put("no-storage", new CapacityScenario(List.of(), null, true));
    scenarios.put("wrong-node", new CapacityScenario(
        List.of(capacity("net", WAIT_CLASS_WITH_PROVISIONER, "node2", GI, -1)), null, true));
    scenarios.put("wrong-storage-class", new CapacityScenario(
        List.of(capacity("net", WAIT_CLASS, "node1", GI, -1)), null, true));
    scenarios.put("insufficient-storage", new CapacityScenario(
        List.of(capacity("net", WAIT_CLASS_WITH_PROVISIONER, "node1", MI, -1)), null, true));
    scenarios.put("insufficient-volume-size", new CapacityScenario(
        List.of(capacity("net", WAIT_CLASS_WITH_PROVISIONER, "node1", GI, MI)), null, true));
    scenarios.put("zero-storage", new CapacityScenario(
        List.of(capacity("net", WAIT_CLASS_WITH_PROVISIONER, "node1", 0, -1)), null, true));
    scenarios.put("zero-volume-size", new CapacityScenario(
        List.of(capacity("net", WAIT_CLASS_WITH_PROVISIONER, "node1", -1, 0)), null, true));
    scenarios.put("nil-storage", new CapacityScenario(
        List.of(capacity("net", WAIT_CLASS_WITH_PROVISIONER, "node1", -1, -1)), null, true));
    return scenarios;
  }

  @TestFactory
  Stream<DynamicNode> testCapacity() {
    var scenario = scenario().claims(PROVISIONED_PVC).done();
    return Stream.of(true, false).map(optIn -> DynamicContainer.dynamicContainer(
        "CSIDriver.StorageCapacity=" + optIn,
        capacityScenarios().entrySet().stream().map(s -> DynamicTest.dynamicTest(s.getKey(), () -> {
          var c = s.getValue();
          var plan = planner(scenario, driver(PROVISIONER, optIn), c.capacities()).plan(TEST_NODE);
          if (optIn && c.notEnoughSpace()) {
            assertEquals(List.of(Conflict.NOT_ENOUGH_SPACE), plan.reasons());
            assertTrue(plan.provisions().isEmpty());
            return;
          }
          assertEquals(List.of(), plan.reasons());
          assertEquals(
              List.of(new VolumePlanner.Provision(PROVISIONED_PVC, optIn ? c.expected() : null)), plan.provisions());
        }))));
  }
}
