package io.kubesched.policy.plugins.volumebinding;

import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.GI;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.HOSTNAME;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.capacity;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.claim;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.driver;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.immediateClass;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.node;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.pod;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.provisioningClass;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.snapshot;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.storage;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.volume;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.waitClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.CsiStorageCapacity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.StorageClass;
import io.kubesched.api.VolumeBinding;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.VolumeBinder;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingFilter.ClaimsUnusable;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingFilter.Conflict;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kube's {@code TestVolumeBinding} (volume_binding_test.go), case by case under kube's names. */
class VolumeBindingFilterTest {

  private static final StorageClass IMMEDIATE_SC = immediateClass("immediate-sc");
  private static final StorageClass WAIT_SC = waitClass("wait-sc");
  private static final StorageClass WAIT_HDD_SC = waitClass("wait-hdd-sc");
  private static final StorageClass WAIT_SC_WITH_STORAGE_CAPACITY =
      provisioningClass("wait-sc-with-storage-capacity", "driver-with-storage-capacity", "");
  private static final String NODE_KEY = "nodeKey";
  private static final String REGION = "topology.kubernetes.io/region";
  private static final String ZONE = "topology.kubernetes.io/zone";

  /** What kube's test observes: each node's filter result, bindings and score, in the nodes' order. */
  private record Outcome(List<FilterResult> results, List<List<VolumeBinding>> bindings, List<Long> scores) {}

  private static Outcome run(
      PodInfo pod,
      List<NodeInfo> nodes,
      List<PersistentVolumeClaim> claims,
      List<PersistentVolume> volumes,
      List<CsiStorageCapacity> capacities,
      VolumeBindingScorer scorer) {
    var cluster = snapshot(nodes, storage(
        claims,
        volumes,
        List.of(IMMEDIATE_SC, WAIT_SC, WAIT_HDD_SC, WAIT_SC_WITH_STORAGE_CAPACITY),
        List.of(driver("driver-with-storage-capacity", true)),
        capacities));
    var filter = new VolumeBindingFilter().prepare(pod, cluster);
    var results = new ArrayList<FilterResult>();
    var bindings = new ArrayList<List<VolumeBinding>>();
    for (var node : nodes) {
      results.add(filter.filter(pod, node));
      bindings.add(filter instanceof VolumeBinder binder ? binder.volumeBindings(node) : List.of());
    }
    var prepared = scorer.prepare(pod, nodes, cluster);
    var scores = new ArrayList<Long>();
    for (var node : nodes) {
      scores.add(prepared.score(pod, node));
    }
    return new Outcome(results, bindings, scores);
  }

  private static Outcome run(
      PodInfo pod, List<NodeInfo> nodes, List<PersistentVolumeClaim> claims, List<PersistentVolume> volumes) {
    return run(pod, nodes, claims, volumes, List.of(), new VolumeBindingScorer());
  }

  private static FilterResult rejected(Reason... reasons) {
    return FilterResult.unresolvable(reasons);
  }

  private static FilterResult unusable(String message) {
    return rejected(new ClaimsUnusable(message));
  }

  private static PersistentVolume localVolume(String name, String className, long capacity, String node) {
    return volume(name, className).available().capacity(capacity).affinity(HOSTNAME, node).build();
  }

  private static PersistentVolume zonalVolume(String name, long capacity, String region, String zone) {
    return volume(name, WAIT_SC.name()).available().capacity(capacity)
        .affinity(REGION, region).affinity(ZONE, zone).build();
  }

  private static List<NodeInfo> zonalNodes() {
    var nodes = new ArrayList<NodeInfo>();
    for (var zone : List.of("a", "b", "c")) {
      for (var n : List.of("a", "b")) {
        nodes.add(node("zone-" + zone + "-node-" + n, REGION, "region-" + zone, ZONE, "zone-" + zone));
      }
    }
    return nodes;
  }

  private static List<PersistentVolume> zonalVolumes() {
    return List.of(
        zonalVolume("pv-a-0", 200 * GI, "region-a", "zone-a"),
        zonalVolume("pv-a-1", 200 * GI, "region-a", "zone-a"),
        zonalVolume("pv-b-0", 100 * GI, "region-b", "zone-b"),
        zonalVolume("pv-b-1", 100 * GI, "region-b", "zone-b"));
  }

  private static List<NodeInfo> keyedNodes(String... names) {
    return List.of(names).stream().map(n -> node(n, NODE_KEY, n)).toList();
  }

  private static CsiStorageCapacity nodeCapacity(String nodeName, long bytes) {
    return capacity(nodeName, WAIT_SC_WITH_STORAGE_CAPACITY.name(), nodeName, bytes, -1);
  }

  @Test
  @DisplayName("pod has not pvcs")
  void podHasNotPvcs() {
    var outcome = run(pod("default", "pod-a"), List.of(node("node-a")), List.of(), List.of());

    assertEquals(List.of(FilterResult.fit()), outcome.results());
    assertEquals(List.of(List.of()), outcome.bindings());
    assertEquals(List.of(0L), outcome.scores());
  }

  @Test
  @DisplayName("all bound")
  void allBound() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a")),
        List.of(claim("pvc-a", WAIT_SC.name()).boundTo("pv-a").build()),
        List.of(volume("pv-a", WAIT_SC.name()).available().build()));

    assertEquals(List.of(FilterResult.fit()), outcome.results());
    assertEquals(List.of(List.of()), outcome.bindings());
    assertEquals(List.of(0L), outcome.scores());
  }

  @Test
  @DisplayName("PVC does not exist")
  void pvcDoesNotExist() {
    var outcome = run(pod("default", "pod-a", "pvc-a"), List.of(node("node-a")), List.of(), List.of());

    assertEquals(List.of(unusable("persistentvolumeclaim \"pvc-a\" not found")), outcome.results());
    assertEquals(List.of(0L), outcome.scores());
  }

  @Test
  @DisplayName("Part of PVCs do not exist")
  void partOfPvcsDoNotExist() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a", "pvc-b"),
        List.of(node("node-a")),
        List.of(claim("pvc-a", WAIT_SC.name()).boundTo("pv-a").build()),
        List.of());

    assertEquals(List.of(unusable("persistentvolumeclaim \"pvc-b\" not found")), outcome.results());
    assertEquals(List.of(0L), outcome.scores());
  }

  @Test
  @DisplayName("immediate claims not bound")
  void immediateClaimsNotBound() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a")),
        List.of(claim("pvc-a", IMMEDIATE_SC.name()).build()),
        List.of());

    assertEquals(List.of(unusable("pod has unbound immediate PersistentVolumeClaims")), outcome.results());
    assertEquals(List.of(0L), outcome.scores());
  }

  @Test
  @DisplayName("unbound claims no matches")
  void unboundClaimsNoMatches() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a")),
        List.of(claim("pvc-a", WAIT_SC.name()).build()),
        List.of());

    assertEquals(List.of(rejected(Conflict.NO_MATCHING_VOLUME)), outcome.results());
    assertEquals("node(s) didn't find available persistent volumes to bind", Conflict.NO_MATCHING_VOLUME.message());
  }

  @Test
  @DisplayName("bound and unbound unsatisfied")
  void boundAndUnboundUnsatisfied() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a", "pvc-b"),
        List.of(node("node-a", "foo", "barbar")),
        List.of(
            claim("pvc-a", WAIT_SC.name()).boundTo("pv-a").build(),
            claim("pvc-b", WAIT_SC.name()).build()),
        List.of(volume("pv-a", WAIT_SC.name()).available().affinity("foo", "bar").build()));

    assertEquals(List.of(rejected(Conflict.NODE_AFFINITY, Conflict.NO_MATCHING_VOLUME)), outcome.results());
  }

  @Test
  @DisplayName("pv not found")
  void pvNotFound() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a")),
        List.of(claim("pvc-a", WAIT_SC.name()).boundTo("pv-a").build()),
        List.of());

    assertEquals(List.of(rejected(Conflict.VOLUME_NOT_FOUND)), outcome.results());
    assertEquals(
        "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)",
        Conflict.VOLUME_NOT_FOUND.message());
  }

  @Test
  @DisplayName("pv not found claim lost")
  void pvNotFoundClaimLost() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a")),
        List.of(claim("pvc-a", WAIT_SC.name()).boundTo("pv-a").lost().build()),
        List.of());

    assertEquals(
        List.of(unusable("persistentvolumeclaim \"pvc-a\" bound to non-existent persistentvolume \"pv-a\"")),
        outcome.results());
    assertEquals(List.of(0L), outcome.scores());
  }

  @Test
  @DisplayName("local volumes with close capacity are preferred")
  void localVolumesWithCloseCapacityArePreferred() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a"), node("node-b"), node("node-c")),
        List.of(claim("pvc-a", WAIT_SC.name()).request(50 * GI).build()),
        List.of(
            localVolume("pv-a-0", WAIT_SC.name(), 200 * GI, "node-a"),
            localVolume("pv-a-1", WAIT_SC.name(), 200 * GI, "node-a"),
            localVolume("pv-b-0", WAIT_SC.name(), 100 * GI, "node-b"),
            localVolume("pv-b-1", WAIT_SC.name(), 100 * GI, "node-b")));

    assertEquals(
        List.of(FilterResult.fit(), FilterResult.fit(), rejected(Conflict.NO_MATCHING_VOLUME)), outcome.results());
    assertEquals(List.of(75L, 50L, 0L), outcome.scores());
    assertEquals(
        List.of(new VolumeBinding.Static("default", "pvc-a", "", "pv-a-0")), outcome.bindings().get(0));
    assertEquals(List.of(), outcome.bindings().get(2));
  }

  @Test
  @DisplayName("local volumes with close capacity are preferred (multiple pvcs)")
  void localVolumesWithCloseCapacityArePreferredMultiplePvcs() {
    var volumes = new ArrayList<PersistentVolume>();
    for (var n : List.of("a", "b")) {
      long size = n.equals("a") ? 200 * GI : 100 * GI;
      volumes.add(localVolume("pv-" + n + "-0", WAIT_SC.name(), size, "node-" + n));
      volumes.add(localVolume("pv-" + n + "-1", WAIT_SC.name(), size, "node-" + n));
      volumes.add(localVolume("pv-" + n + "-2", WAIT_HDD_SC.name(), size, "node-" + n));
      volumes.add(localVolume("pv-" + n + "-3", WAIT_HDD_SC.name(), size, "node-" + n));
    }
    var outcome = run(
        pod("default", "pod-a", "pvc-0", "pvc-1"),
        List.of(node("node-a"), node("node-b"), node("node-c")),
        List.of(
            claim("pvc-0", WAIT_SC.name()).request(50 * GI).build(),
            claim("pvc-1", WAIT_HDD_SC.name()).request(100 * GI).build()),
        volumes);

    assertEquals(
        List.of(FilterResult.fit(), FilterResult.fit(), rejected(Conflict.NO_MATCHING_VOLUME)), outcome.results());
    assertEquals(List.of(63L, 25L, 0L), outcome.scores());
  }

  @Test
  @DisplayName("zonal volumes with close capacity are preferred")
  void zonalVolumesWithCloseCapacityArePreferred() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        zonalNodes(),
        List.of(claim("pvc-a", WAIT_SC.name()).request(50 * GI).build()),
        zonalVolumes());

    var fit = FilterResult.fit();
    var noMatch = rejected(Conflict.NO_MATCHING_VOLUME);
    assertEquals(List.of(fit, fit, fit, fit, noMatch, noMatch), outcome.results());
    assertEquals(List.of(75L, 75L, 50L, 50L, 0L, 0L), outcome.scores());
  }

  @Test
  @DisplayName("zonal volumes with close capacity are preferred (custom shape)")
  void zonalVolumesWithCloseCapacityArePreferredCustomShape() {
    var shape = new VolumeBindingScorer(
        List.of(new ShapePoint(0, 0), new ShapePoint(50, 3), new ShapePoint(100, 5)));
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        zonalNodes(),
        List.of(claim("pvc-a", WAIT_SC.name()).request(50 * GI).build()),
        zonalVolumes(),
        List.of(),
        shape);

    var fit = FilterResult.fit();
    var noMatch = rejected(Conflict.NO_MATCHING_VOLUME);
    assertEquals(List.of(fit, fit, fit, fit, noMatch, noMatch), outcome.results());
    assertEquals(List.of(15L, 15L, 30L, 30L, 0L, 0L), outcome.scores());
  }

  @Test
  @DisplayName("storage capacity score")
  void storageCapacityScore() {
    var outcome = run(
        pod("default", "pod-a", "pvc-dynamic"),
        keyedNodes("node-a", "node-b", "node-c"),
        List.of(claim("pvc-dynamic", WAIT_SC_WITH_STORAGE_CAPACITY.name()).request(10 * GI).build()),
        List.of(),
        List.of(nodeCapacity("node-a", 100 * GI), nodeCapacity("node-b", 50 * GI), nodeCapacity("node-c", 10 * GI)),
        new VolumeBindingScorer());

    var fit = FilterResult.fit();
    assertEquals(List.of(fit, fit, fit), outcome.results());
    assertEquals(List.of(90L, 80L, 0L), outcome.scores());
    assertEquals(List.of(new VolumeBinding.Provision("default", "pvc-dynamic", "")), outcome.bindings().get(0));
  }

  @Test
  @DisplayName("storage capacity score with static binds")
  void storageCapacityScoreWithStaticBinds() {
    var outcome = run(
        pod("default", "pod-a", "pvc-dynamic", "pvc-static"),
        keyedNodes("node-a", "node-b", "node-c"),
        List.of(
            claim("pvc-dynamic", WAIT_SC_WITH_STORAGE_CAPACITY.name()).request(10 * GI).build(),
            claim("pvc-static", WAIT_SC.name()).request(50 * GI).build()),
        List.of(
            localVolume("pv-static-a", WAIT_SC.name(), 100 * GI, "node-a"),
            localVolume("pv-static-b", WAIT_SC.name(), 100 * GI, "node-b"),
            localVolume("pv-static-c", WAIT_SC.name(), 100 * GI, "node-c")),
        List.of(nodeCapacity("node-a", 100 * GI), nodeCapacity("node-b", 50 * GI), nodeCapacity("node-c", 10 * GI)),
        new VolumeBindingScorer());

    var fit = FilterResult.fit();
    assertEquals(List.of(fit, fit, fit), outcome.results());
    assertEquals(List.of(50L, 50L, 50L), outcome.scores());
    assertEquals(
        List.of(
            new VolumeBinding.Static("default", "pvc-static", "", "pv-static-b"),
            new VolumeBinding.Provision("default", "pvc-dynamic", "")),
        outcome.bindings().get(1));
  }

  @Test
  @DisplayName("dynamic provisioning with multiple PVCs of the same StorageClass")
  void dynamicProvisioningWithMultiplePvcsOfTheSameStorageClass() {
    var outcome = run(
        pod("default", "pod-a", "pvc-dynamic-0", "pvc-dynamic-1"),
        keyedNodes("node-a"),
        List.of(
            claim("pvc-dynamic-0", WAIT_SC_WITH_STORAGE_CAPACITY.name()).request(50 * GI).build(),
            claim("pvc-dynamic-1", WAIT_SC_WITH_STORAGE_CAPACITY.name()).request(50 * GI).build()),
        List.of(),
        List.of(nodeCapacity("node-a", 100 * GI)),
        new VolumeBindingScorer());

    assertEquals(List.of(FilterResult.fit()), outcome.results());
    assertEquals(List.of(0L), outcome.scores());
  }

  @Test
  @DisplayName("prefer node with least allocatable")
  void preferNodeWithLeastAllocatable() {
    var outcome = run(
        pod("default", "pod-a", "pvc-dynamic"),
        keyedNodes("node-a", "node-b", "node-c"),
        List.of(claim("pvc-dynamic", WAIT_SC_WITH_STORAGE_CAPACITY.name()).request(10 * GI).build()),
        List.of(),
        List.of(nodeCapacity("node-a", 100 * GI), nodeCapacity("node-b", 20 * GI), nodeCapacity("node-c", 10 * GI)),
        new VolumeBindingScorer(List.of(new ShapePoint(0, 0), new ShapePoint(100, 10))));

    assertEquals(List.of(10L, 50L, 100L), outcome.scores());
  }

  @Test
  @DisplayName("prefer node with maximum allocatable")
  void preferNodeWithMaximumAllocatable() {
    var outcome = run(
        pod("default", "pod-a", "pvc-dynamic"),
        keyedNodes("node-a", "node-b", "node-c"),
        List.of(claim("pvc-dynamic", WAIT_SC_WITH_STORAGE_CAPACITY.name()).request(10 * GI).build()),
        List.of(),
        List.of(nodeCapacity("node-a", 100 * GI), nodeCapacity("node-b", 20 * GI), nodeCapacity("node-c", 10 * GI)),
        new VolumeBindingScorer());

    assertEquals(List.of(90L, 50L, 0L), outcome.scores());
  }

  // Beyond kube's table: the PreFilter messages kube's podHasPVCs gives and the table does not cover.

  @Test
  @DisplayName("a claim being deleted rejects every node")
  void deletingClaim() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a"), node("node-b")),
        List.of(claim("pvc-a", WAIT_SC.name()).boundTo("pv-a").deleting().build()),
        List.of(volume("pv-a", WAIT_SC.name()).available().build()));

    var deleting = unusable("persistentvolumeclaim \"pvc-a\" is being deleted");
    assertEquals(List.of(deleting, deleting), outcome.results());
    assertEquals(FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, outcome.results().get(0).code());
  }

  @Test
  @DisplayName("an ephemeral claim not yet created waits for the ephemeral volume controller")
  void ephemeralClaimMissing() {
    var pod = PodInfo.builder("default", "pod-a").uid("pod-uid")
        .persistentVolumeClaims(List.of("pod-a-scratch")).ephemeralVolumeClaims(List.of("pod-a-scratch")).build();

    var outcome = run(pod, List.of(node("node-a")), List.of(), List.of());

    assertEquals(
        List.of(unusable(
            "waiting for ephemeral volume controller to create the persistentvolumeclaim \"pod-a-scratch\"")),
        outcome.results());
  }

  @Test
  @DisplayName("an ephemeral claim the pod does not control is not used")
  void ephemeralClaimOfAnotherPod() {
    var pod = PodInfo.builder("default", "pod-a").uid("pod-uid")
        .persistentVolumeClaims(List.of("pod-a-scratch")).ephemeralVolumeClaims(List.of("pod-a-scratch")).build();
    var owned = claim("pod-a-scratch", WAIT_SC.name()).boundTo("pv-a").ownedBy("pod-uid").build();
    var foreign = claim("pod-a-scratch", WAIT_SC.name()).boundTo("pv-a").ownedBy("other-uid").build();
    var pv = volume("pv-a", WAIT_SC.name()).available().build();

    assertEquals(List.of(FilterResult.fit()), run(pod, List.of(node("node-a")), List.of(owned), List.of(pv)).results());
    assertEquals(
        List.of(unusable("PVC default/pod-a-scratch was not created for pod default/pod-a (pod is not owner)")),
        run(pod, List.of(node("node-a")), List.of(foreign), List.of(pv)).results());
  }

  @Test
  @DisplayName("a claim of a class that does not exist is an unbound immediate claim, as kube's IsDelayBindingMode")
  void claimOfMissingClass() {
    var outcome = run(
        pod("default", "pod-a", "pvc-a"),
        List.of(node("node-a")),
        List.of(claim("pvc-a", "no-such-class").build()),
        List.of());

    assertEquals(List.of(unusable(VolumeBindingFilter.UNBOUND_IMMEDIATE_CLAIMS)), outcome.results());
  }

  @Test
  @DisplayName("a claim selected for another node fits only that node and is provisioned there")
  void selectedNode() {
    var provisioning = provisioningClass("prov", "example.com/csi", "");
    var cluster = snapshot(List.of(), storage(
        List.of(claim("pvc-a", "prov").selectedNode("node-a").build()), List.of(), List.of(provisioning),
        List.of(), List.of()));
    var pod = pod("default", "pod-a", "pvc-a");
    var filter = new VolumeBindingFilter().prepare(pod, cluster);

    assertEquals(FilterResult.fit(), filter.filter(pod, node("node-a")));
    assertEquals(rejected(Conflict.NO_MATCHING_VOLUME), filter.filter(pod, node("node-b")));
    assertEquals(
        List.of(new VolumeBinding.Provision("default", "pvc-a", "")),
        ((VolumeBinder) filter).volumeBindings(node("node-a")));
  }

  @Test
  @DisplayName("the filter reads the storage it needs and filters only once prepared")
  void contract() {
    var filter = new VolumeBindingFilter();
    assertEquals("VolumeBinding", filter.name());
    assertEquals(
        Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.PERSISTENT_VOLUMES, ClusterData.STORAGE_CLASSES,
            ClusterData.CSI_DRIVERS, ClusterData.CSI_STORAGE_CAPACITIES),
        filter.reads());
    assertInstanceOf(FilterResult.Failed.class, filter.filter(pod("default", "p"), node("n")));
    var scorer = new VolumeBindingScorer();
    assertEquals("VolumeBinding", scorer.name());
    assertEquals(filter.reads(), scorer.reads());
    assertThrows(IllegalStateException.class, () -> scorer.score(pod("default", "p"), node("n")));
    assertTrue(new VolumeBindingFilter().prepare(pod("default", "p"), snapshot(List.of(), storage(
        List.of(), List.of(), List.of(), List.of(), List.of()))) instanceof VolumeBinder);
  }
}
