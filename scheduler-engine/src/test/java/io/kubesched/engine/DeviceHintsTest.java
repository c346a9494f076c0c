package io.kubesched.engine;

import static io.kubesched.engine.SchedulingQueueTest.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ContainerRequests;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link QueueingHint} and {@link ClusterEventMoves} for dynamic resources: kube's DynamicResources {@code
 * TestIsSchedulableAfterClaimChange} cases under their names (the type-error cases have no counterpart), and which
 * pods wait for devices at all.
 */
class DeviceHintsTest {

  private static final String POD_UID = "uid-pod";

  /** kube's podWithClaimTemplate, its claim made: "my-pod-my-resource" owned by the pod. */
  private static final PodInfo POD_WITH_CLAIM_TEMPLATE =
      PodInfo.builder("default", "my-pod").uid(POD_UID)
          .resourceClaims(List.of(new PodResourceClaim("my-resource", null, "my-template", "my-pod-my-resource")))
          .build();

  /** kube's podWithClaimName: it names "my-pod-my-resource". */
  private static final PodInfo POD_WITH_CLAIM_NAME =
      PodInfo.builder("default", "my-pod").uid(POD_UID)
          .resourceClaims(List.of(PodResourceClaim.ofClaim("my-resource", "my-pod-my-resource")))
          .build();

  private static boolean moved(
      PodInfo pod, String name, @Nullable String ownerUid, boolean freesDevices, boolean deleted) {
    return QueueingHint.of(pod)
        .movedByDeviceClaimChanged(POD_UID, "default", name, ownerUid, freesDevices, deleted);
  }

  @Test
  void skip_deletes() {
    assertFalse(moved(POD_WITH_CLAIM_TEMPLATE, "my-pod-my-resource", POD_UID, false, true));
  }

  @Test
  void queue_on_delete_with_allocation() {
    assertTrue(moved(POD_WITH_CLAIM_TEMPLATE, "my-pod-my-resource", POD_UID, true, true));
  }

  @Test
  void queue_on_delete_final_state_unknown() {
    // The informers report a deletion in an unknown final state as freeing devices (ClaimSeen.deleted).
    assertTrue(moved(POD_WITH_CLAIM_TEMPLATE, "my-pod-my-resource", null, true, true));
  }

  @Test
  void skip_wrong_claim() {
    assertFalse(moved(POD_WITH_CLAIM_TEMPLATE, "my-pod-my-resource", POD_UID + "123", false, false));
  }

  @Test
  void skip_unrelated_claim() {
    assertFalse(moved(POD_WITH_CLAIM_TEMPLATE, "my-pod-my-resource-foo", POD_UID, false, false));
  }

  @Test
  void queue_on_add() {
    assertTrue(moved(POD_WITH_CLAIM_NAME, "my-pod-my-resource", null, false, false));
  }

  @Test
  void queue_on_status_change() {
    // An update is reported only when the claim's status changed (ClaimSeen.changed): then it moves its pods.
    assertTrue(moved(POD_WITH_CLAIM_NAME, "my-pod-my-resource", null, false, false));
    assertTrue(moved(POD_WITH_CLAIM_TEMPLATE, "my-pod-my-resource", POD_UID, false, false));
  }

  @Test
  void claim_deallocate() {
    assertTrue(moved(POD_WITH_CLAIM_NAME, "another-allocated-claim", null, true, false));
  }

  @Test
  void a_claim_of_the_same_name_in_another_namespace_is_not_the_pods() {
    assertFalse(QueueingHint.of(POD_WITH_CLAIM_NAME)
        .movedByDeviceClaimChanged(POD_UID, "other", "my-pod-my-resource", null, false, false));
  }

  @Test
  void a_template_whose_claim_is_not_made_yet_waits_only_for_freed_devices_and_supply() {
    var hint = QueueingHint.of(PodInfo.builder("default", "my-pod").uid(POD_UID)
        .resourceClaims(List.of(new PodResourceClaim("my-resource", null, "my-template", null))).build());

    assertFalse(hint.movedByDeviceClaimChanged(POD_UID, "default", "my-pod-my-resource", POD_UID, false, false));
    assertTrue(hint.movedByDeviceClaimChanged(POD_UID, "default", "x", null, true, false));
    assertTrue(hint.movedByDeviceSupplyChanged());
  }

  @Test
  void a_pod_without_claims_or_extended_resources_waits_for_no_device_event() {
    var hint = QueueingHint.of(PodInfo.builder("default", "plain").uid(POD_UID).build());

    assertFalse(hint.waitsForDevices());
    assertFalse(hint.movedByDeviceSupplyChanged());
    assertFalse(hint.movedByDeviceClaimChanged(POD_UID, "default", "c", null, true, true));
  }

  @Test
  void a_pod_with_extended_resources_waits_for_supply_and_freed_devices_a_DeviceClass_may_back_them() {
    var hint = QueueingHint.of(PodInfo.builder("default", "gpu").uid(POD_UID)
        .containerRequests(List.of(
            new ContainerRequests(0, "c", false, false, List.of("example.com/gpu"), Map.of("example.com/gpu", 1L))))
        .build());

    assertTrue(hint.waitsForDevices());
    assertTrue(hint.movedByDeviceSupplyChanged());
    assertTrue(hint.movedByDeviceClaimChanged(POD_UID, "default", "c", null, true, true));
    assertFalse(hint.movedByDeviceClaimChanged(POD_UID, "default", "c", null, false, false));
  }

  @Test
  void a_pod_only_its_update_can_help_is_moved_by_no_device_event() {
    var hint = new QueueingHint(false, "default", List.of(), List.of(), List.of(), List.of(), false, true,
        List.of("my-pod-my-resource"), List.of());

    assertFalse(hint.movedByDeviceSupplyChanged());
    assertFalse(hint.movedByDeviceClaimChanged(POD_UID, "default", "my-pod-my-resource", null, true, false));
  }

  private static final Map<String, PodInfo> PARKED = Map.of(
      "plain", PodInfo.builder("default", "plain").uid("uid-plain").build(),
      "named", PodInfo.builder("default", "named").uid("uid-named")
          .resourceClaims(List.of(PodResourceClaim.ofClaim("gpu", "shared"))).build(),
      "templated", PodInfo.builder("default", "templated").uid("uid-templated")
          .resourceClaims(List.of(new PodResourceClaim("gpu", null, "t", "templated-gpu"))).build());

  /** Parks the three pods unschedulable in a new queue, runs {@code events}, and says where each pod is. */
  private static Map<String, String> after(Consumer<ClusterEventMoves> events) {
    var queue = new SchedulingQueue(new FakeTicker(), Duration.ofSeconds(1), Duration.ofSeconds(10),
        Duration.ofMinutes(5));
    PARKED.forEach((name, info) -> {
      var pod = new QueuedPod(info.uid(), "default", name, 0, "s");
      queue.add(pod);
      assertEquals(name, queue.poll().name());
      queue.requeueUnschedulable(pod, queue.schedulingCycle(), QueueingHint.of(info));
    });
    events.accept(new ClusterEventMoves(queue));
    var places = new TreeMap<String, String>();
    PARKED.keySet().forEach(name -> places.put(name, where(queue, name)));
    return places;
  }

  private static Map<String, String> moved(String... names) {
    var places = new TreeMap<String, String>();
    PARKED.keySet().forEach(name -> places.put(name, List.of(names).contains(name) ? "backoff" : "unschedulable"));
    return places;
  }

  @Test
  void a_claim_changed_moves_its_pods_only() {
    assertEquals(moved("named"),
        after(m -> m.deviceClaimChanged(ClusterEvent.RESOURCE_CLAIM_UPDATE, "default", "shared", null, false)));
    assertEquals(moved("templated"), after(m ->
        m.deviceClaimChanged(ClusterEvent.RESOURCE_CLAIM_ADD, "default", "templated-gpu", "uid-templated", false)));
    assertEquals(moved(), after(m ->
        m.deviceClaimChanged(ClusterEvent.RESOURCE_CLAIM_ADD, "default", "templated-gpu", "uid-other", false)));
  }

  @Test
  void a_claim_deleted_moves_nobody_unless_it_freed_devices_then_every_pod_waiting_for_devices() {
    assertEquals(moved(),
        after(m -> m.deviceClaimChanged(ClusterEvent.RESOURCE_CLAIM_DELETE, "default", "shared", null, false)));
    assertEquals(moved("named", "templated"),
        after(m -> m.deviceClaimChanged(ClusterEvent.RESOURCE_CLAIM_DELETE, "default", "elsewhere", null, true)));
  }

  @Test
  void slices_classes_and_taint_rules_move_every_pod_waiting_for_devices_but_for_a_slice_or_class_deleted() {
    assertEquals(moved(), after(m -> {
      m.deviceSupplyChanged(ClusterEvent.RESOURCE_SLICE_DELETE);
      m.deviceSupplyChanged(ClusterEvent.DEVICE_CLASS_DELETE);
    }), "kube registers no slice or class delete");
    for (var event : List.of(ClusterEvent.RESOURCE_SLICE_ADD, ClusterEvent.RESOURCE_SLICE_UPDATE,
        ClusterEvent.DEVICE_CLASS_ADD, ClusterEvent.DEVICE_CLASS_UPDATE, ClusterEvent.DEVICE_TAINT_RULE_ADD,
        ClusterEvent.DEVICE_TAINT_RULE_UPDATE, ClusterEvent.DEVICE_TAINT_RULE_DELETE)) {
      assertEquals(moved("named", "templated"), after(m -> m.deviceSupplyChanged(event)), event.label());
    }
  }

  @Test
  void other_events_are_refused() {
    var moves = new ClusterEventMoves(new SchedulingQueue(new FakeTicker(), Duration.ofSeconds(1),
        Duration.ofSeconds(10), Duration.ofMinutes(5)));

    assertThrows(IllegalArgumentException.class, () -> moves.deviceSupplyChanged(ClusterEvent.STORAGE_CLASS_ADD));
    assertThrows(IllegalArgumentException.class, () -> moves.deviceSupplyChanged(ClusterEvent.RESOURCE_CLAIM_ADD));
    assertThrows(IllegalArgumentException.class,
        () -> moves.deviceClaimChanged(ClusterEvent.RESOURCE_SLICE_ADD, "default", "c", null, false));
  }
}
