package io.kubesched.informer;

import static io.kubesched.informer.SchedulingLoopPartsTest.boundTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.AccessMode;
import io.kubesched.api.ClaimRef;
import io.kubesched.api.ClusterData;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.api.VolumeBinding;
import io.kubesched.api.VolumeMode;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.VolumeOutcome;
import io.kubesched.engine.QueueDepths;
import io.kubesched.engine.StorageCache;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.VolumePort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Volume binding in the loop (kube's VolumeBinding Reserve, PreBind and Unreserve): the event handlers driven
 * with fabric8 objects, the cycles run inline, a fake clock, fake bind and volume ports, and the {@link
 * StorageCache} fed by hand as its informers would feed it.
 */
public class VolumeBindingCycleTest {

  private static final String NAME = "my-scheduler";
  private static final String NS = "default";
  private static final String ZONE = "topology.kubernetes.io/zone";

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final StorageCache storage = new StorageCache();
  private final List<String> heard = new ArrayList<>();
  private final List<String> writes = new ArrayList<>();
  private final List<String> binds = new ArrayList<>();
  private final List<String> attempts = new ArrayList<>();
  private VolumeOutcome volumeOutcome = new VolumeOutcome.Written();
  private List<VolumeBinding> decided = List.of();

  private final SchedulingListener listener =
      new SchedulingListener() {
        @Override
        public void bound(PodInfo pod, String nodeName) {
          heard.add("bound " + pod.name() + " to " + nodeName);
        }

        @Override
        public void unschedulable(PodInfo pod, String message) {
          heard.add("unschedulable " + pod.name() + ": " + message);
        }

        @Override
        public void failed(String podKey, Exception error) {
          heard.add("failed " + podKey + ": " + error.getMessage());
        }
      };

  private final SchedulerMetrics metrics =
      new SchedulerMetrics() {
        @Override
        public void attempt(String profile, Result result, Duration took) {
          attempts.add(result.name());
        }
      };

  /** Binds every pod to n1 with the volume bindings of {@link #decided}; reads claims and volumes. */
  private final FinderFunc toN1 =
      new FinderFunc() {
        @Override
        public Decision find(PodInfo pod, List<NodeInfo> nodes) {
          return new Decision.Bind("n1", pod.persistentVolumeClaims().isEmpty() ? List.of() : decided);
        }

        @Override
        public Set<ClusterData> reads() {
          return Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.PERSISTENT_VOLUMES);
        }
      };

  private final VolumePort volumes =
      new VolumePort() {
        @Override
        public VolumeOutcome bindVolume(String volumeName, String claimNamespace, String claimName, String uid) {
          writes.add("claimRef of " + volumeName + " = " + claimNamespace + "/" + claimName + " " + uid);
          return volumeOutcome;
        }

        @Override
        public VolumeOutcome selectNode(String claimNamespace, String claimName, String uid, String nodeName) {
          writes.add("selected node of " + claimNamespace + "/" + claimName + " " + uid + " = " + nodeName);
          return volumeOutcome;
        }
      };

  private LoopParts parts(int parallelBindings) {
    BindPort port =
        (pod, nodeName) -> {
          binds.add(pod.getMetadata().getName() + " to " + nodeName);
          return new BindOutcome.Bound(nodeName, false);
        };
    var fake = TestSettings.forFakeCluster(NAME);
    var settings =
        new ControllerSettings(
            NAME, fake.bindMode(), fake.bindTimeout(), Duration.ofSeconds(600), fake.initialBackoff(),
            fake.maxBackoff(), fake.syncTimeout(), fake.unschedulableTimeout(), fake.assumedPodTtl(), fake.qps(),
            fake.burst(), parallelBindings, fake.shutdownTimeout(), null, false,
            fake.podGroupSources(), fake.podGroupTimeout(), fake.watch(), fake.parallelism());
    var parts =
        FakeLoop.of(settings, toN1, clock::get, port).listener(listener).metrics(metrics).storage(storage)
            .volumes(volumes).create();
    parts.handlers().nodes().onAdd(node("n1", "z1"));
    return parts;
  }

  private LoopParts parts() {
    return parts(16);
  }

  static Pod pod(String name, String claim) {
    var builder = new PodBuilder(SchedulingLoopPartsTest.pod(name));
    if (!claim.isEmpty()) {
      builder.editSpec().addNewVolume().withName("v").withNewPersistentVolumeClaim().withClaimName(claim)
          .endPersistentVolumeClaim().endVolume().endSpec();
    }
    return builder.build();
  }

  static Node node(String name, String zone) {
    return new NodeBuilder(SchedulingLoopPartsTest.node(name)).editMetadata().addToLabels(ZONE, zone).endMetadata()
        .build();
  }

  public static PersistentVolumeClaim claim(String name, String volumeName, boolean bindCompleted, String selectedNode) {
    return new PersistentVolumeClaim(
        NS, name, "uid-" + name, "standard", volumeName, Set.of(AccessMode.READ_WRITE_ONCE), VolumeMode.FILESYSTEM,
        1024, null, "", false, false, bindCompleted, selectedNode, "");
  }

  public static PersistentVolume volume(String name, @Nullable String claimName, String zone) {
    return new PersistentVolume(
        name, "standard", 2048, Set.of(AccessMode.READ_WRITE_ONCE), VolumeMode.FILESYSTEM, "",
        List.of(NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of(ZONE, NodeSelectorRequirement.Operator.IN,
            zone))),
        Map.of(), claimName == null ? null : new ClaimRef(NS, claimName, "uid-" + claimName),
        claimName == null ? PersistentVolume.Phase.AVAILABLE : PersistentVolume.Phase.BOUND, false, "", "");
  }

  private static VolumeBinding.Static bindStatic(String claim, String volume) {
    return new VolumeBinding.Static(NS, claim, "uid-" + claim, volume);
  }

  private static VolumeBinding.Provision provision(String claim) {
    return new VolumeBinding.Provision(NS, claim, "uid-" + claim);
  }

  private static void scheduleNext(LoopParts parts) throws InterruptedException {
    parts.scheduling().scheduleOne(parts.queue().poll());
  }

  private void advance(Duration by) {
    clock.addAndGet(by.toNanos());
  }

  @Test
  void a_static_volume_is_bound_to_its_claim_before_the_pod_is_bound() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    storage.putVolume(volume("pv1", null, "z1"));
    decided = List.of(bindStatic("data", "pv1"));
    var parts = parts();
    parts.handlers().pods().onAdd(pod("p", "data"));

    scheduleNext(parts);

    assertEquals(List.of("claimRef of pv1 = default/data uid-data"), writes);
    assertEquals(List.of(), binds, "not bound before its volume");
    assertEquals(1, parts.binding().volumeWaits());
    assertEquals(
        new ClaimRef(NS, "data", "uid-data"), storage.storage().volume("pv1").orElseThrow().claimRef(),
        "reserved: the next decision sees the volume taken");
    assertTrue(parts.cache().isAssumed("uid-p"));

    storage.putVolume(volume("pv1", "data", "z1")); // our write, seen
    parts.binding().checkVolumeWaits();
    assertEquals(List.of(), binds, "the claim is not bound yet");

    storage.putClaim(claim("data", "pv1", true, "")); // the PersistentVolume controller's
    parts.binding().checkVolumeWaits();

    assertEquals(List.of("p to n1"), binds);
    assertEquals(List.of("bound p to n1"), heard);
    assertEquals(List.of("SCHEDULED"), attempts);
    assertEquals(List.of(), storage.reserved("uid-p"), "released once bound");
    assertEquals(0, parts.binding().volumeWaits());
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), parts.queue().depths());
  }

  @Test
  void a_delayed_binding_claim_is_provisioned_for_the_node_before_the_pod_is_bound() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    decided = List.of(provision("data"));
    var parts = parts();
    parts.handlers().pods().onAdd(pod("p", "data"));

    scheduleNext(parts);

    assertEquals(List.of("selected node of default/data uid-data = n1"), writes);
    assertEquals("n1", storage.storage().claim(NS, "data").orElseThrow().selectedNode(), "reserved");

    storage.putClaim(claim("data", "", false, "n1"));
    parts.binding().checkVolumeWaits();
    storage.putVolume(volume("pvc-1", "data", "z1")); // provisioned in the node's zone
    storage.putClaim(claim("data", "pvc-1", true, "n1"));
    parts.binding().checkVolumeWaits();

    assertEquals(List.of("p to n1"), binds);
    assertEquals(List.of("bound p to n1"), heard);
    assertEquals(List.of(), storage.reserved("uid-p"));
  }

  @Test
  void a_pre_bind_that_times_out_releases_the_reservation_and_requeues_the_pod() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    decided = List.of(provision("data"));
    var parts = parts();
    parts.handlers().pods().onAdd(pod("p", "data"));
    scheduleNext(parts);
    storage.putClaim(claim("data", "", false, "n1")); // seen annotated; no provisioner answers

    advance(Duration.ofSeconds(599));
    parts.binding().checkVolumeWaits();
    assertEquals(1, parts.binding().volumeWaits(), "still within volumeBindingTimeout");

    advance(Duration.ofSeconds(2));
    parts.binding().checkVolumeWaits();

    assertEquals(
        List.of("failed default/p: running PreBind plugin \"VolumeBinding\": binding volumes: context deadline"
            + " exceeded"),
        heard);
    assertEquals(List.of("ERROR"), attempts);
    assertEquals(List.of(), binds);
    assertEquals(List.of(), storage.reserved("uid-p"), "released");
    assertEquals(storage.seenClaim(NS, "data"), storage.storage().claim(NS, "data"), "no overlay left");
    assertFalse(parts.cache().isAssumed("uid-p"), "forgotten");
    assertEquals(1, parts.queue().contents().backoff().size(), "requeued after backoff");
    assertEquals(0, parts.binding().volumeWaits());
  }

  @Test
  void a_volume_taken_by_another_claim_meanwhile_fails_and_the_retry_is_refused_at_reserve() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    storage.putVolume(volume("pv1", null, "z1"));
    decided = List.of(bindStatic("data", "pv1"));
    var parts = parts();
    parts.handlers().pods().onAdd(pod("p", "data"));
    scheduleNext(parts);

    storage.putVolume(volume("pv1", "other", "z1"));
    parts.binding().checkVolumeWaits();

    assertEquals(
        List.of("failed default/p: running PreBind plugin \"VolumeBinding\": binding volumes: pv \"pv1\" was bound"
            + " to another claim default/other"),
        heard);
    assertEquals(List.of(), storage.reserved("uid-p"));
    assertFalse(parts.cache().isAssumed("uid-p"));

    advance(Duration.ofSeconds(2)); // past its backoff; a policy that still chose pv1 is refused at Reserve
    scheduleNext(parts);

    assertEquals(
        "failed default/p: running Reserve plugin \"VolumeBinding\": persistentvolume \"pv1\" is already bound or"
            + " reserved to another claim",
        heard.get(1));
    assertEquals(List.of("claimRef of pv1 = default/data uid-data"), writes, "no second write");
    assertFalse(parts.cache().isAssumed("uid-p"));
    assertEquals(List.of("ERROR", "ERROR"), attempts);
    assertEquals(1, parts.queue().contents().backoff().size());
  }

  @Test
  void a_volume_write_that_fails_undoes_the_reservation_at_once() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    storage.putVolume(volume("pv1", null, "z1"));
    decided = List.of(bindStatic("data", "pv1"));
    volumeOutcome = new VolumeOutcome.Failed("Operation cannot be fulfilled on persistentvolumes \"pv1\"");
    var parts = parts();
    parts.handlers().pods().onAdd(pod("p", "data"));

    scheduleNext(parts);

    assertEquals(
        List.of("failed default/p: running PreBind plugin \"VolumeBinding\": Operation cannot be fulfilled on"
            + " persistentvolumes \"pv1\""),
        heard);
    assertEquals(0, parts.binding().volumeWaits());
    assertEquals(List.of(), storage.reserved("uid-p"));
    assertEquals(null, storage.storage().volume("pv1").orElseThrow().claimRef());
    assertEquals(1, parts.queue().contents().backoff().size());
  }

  @Test
  void a_provisioned_volume_the_node_cannot_reach_fails_the_binding() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    decided = List.of(provision("data"));
    var parts = parts();
    parts.handlers().pods().onAdd(pod("p", "data"));
    scheduleNext(parts);

    storage.putVolume(volume("pvc-1", "data", "z2"));
    storage.putClaim(claim("data", "pvc-1", true, "n1"));
    parts.binding().checkVolumeWaits();

    assertEquals(
        List.of("failed default/p: running PreBind plugin \"VolumeBinding\": binding volumes: pv \"pvc-1\" node"
            + " affinity doesn't match node \"n1\": no matching NodeSelectorTerms"),
        heard);
  }

  @Test
  void a_claim_whose_selected_node_is_removed_by_its_provisioner_fails_the_binding() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    decided = List.of(provision("data"));
    var parts = parts();
    parts.handlers().pods().onAdd(pod("p", "data"));
    scheduleNext(parts);

    storage.putClaim(claim("data", "", false, "n1"));
    parts.binding().checkVolumeWaits();
    storage.putClaim(claim("data", "", false, ""));
    parts.binding().checkVolumeWaits();

    assertEquals(
        List.of("failed default/p: running PreBind plugin \"VolumeBinding\": binding volumes: provisioning failed"
            + " for PVC \"data\""),
        heard);
  }

  @Test
  void a_pod_deleted_while_it_waits_releases_its_volumes_and_is_forgotten() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    decided = List.of(provision("data"));
    var parts = parts();
    var pod = pod("p", "data");
    parts.handlers().pods().onAdd(pod);
    scheduleNext(parts);

    parts.handlers().pods().onDelete(pod, false);

    assertEquals(List.of(), storage.reserved("uid-p"), "released by the deletion");
    parts.binding().checkVolumeWaits();
    assertEquals(0, parts.binding().volumeWaits(), "stopped waiting");
    assertFalse(parts.cache().isAssumed("uid-p"));
    assertEquals(List.of(), heard, "neither bound nor failed");
    assertEquals(List.of(), binds);
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), parts.queue().depths());
  }

  @Test
  void a_pod_bound_elsewhere_while_it_waits_releases_its_volumes_and_stays_there() throws Exception {
    storage.putClaim(claim("data", "", false, ""));
    decided = List.of(provision("data"));
    var parts = parts();
    parts.handlers().nodes().onAdd(node("n2", "z1"));
    var pod = pod("p", "data");
    parts.handlers().pods().onAdd(pod);
    scheduleNext(parts);

    parts.handlers().pods().onUpdate(pod, boundTo(pod, "n2"));
    parts.binding().checkVolumeWaits();

    assertEquals(List.of(), storage.reserved("uid-p"));
    assertEquals(0, parts.binding().volumeWaits());
    assertEquals(List.of(), binds);
    assertEquals(
        "n2", parts.cache().nodes().stream().filter(n -> !n.pods().isEmpty()).findFirst().orElseThrow().name());
  }

  @Test
  void pods_waiting_for_their_volumes_hold_no_binding_slot() throws Exception {
    storage.putClaim(claim("a", "", false, ""));
    storage.putClaim(claim("b", "", false, ""));
    var parts = parts(1);
    decided = List.of(provision("a"));
    parts.handlers().pods().onAdd(pod("p1", "a"));
    scheduleNext(parts);
    decided = List.of(provision("b"));
    parts.handlers().pods().onAdd(pod("p2", "b"));
    scheduleNext(parts);

    assertEquals(2, parts.binding().volumeWaits());
    assertEquals(1, parts.binding().freeSlots(), "the one slot is free while two pods wait");

    parts.handlers().pods().onAdd(pod("p3", ""));
    scheduleNext(parts);

    assertEquals(List.of("p3 to n1"), binds, "a pod without volumes is bound meanwhile");
  }
}
