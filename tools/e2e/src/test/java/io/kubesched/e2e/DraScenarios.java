package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.kubesched.facade.FakeClusterFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dynamic resource allocation on the real API server, with hand-made ResourceSlices (no kubelet or driver): two
 * Ready nodes, {@code node-a} and {@code node-b}, each with the devices a test publishes for it, a DeviceClass
 * {@value #CLASS} selecting the driver {@value #DRIVER}, and pods whose claims ask for devices. The scheduler under
 * test is the one switch: {@link DraIT} runs this library's {@code DefaultPolicy}, {@link DraKubeSchedulerIT}
 * kube-scheduler 1.37.2 itself, whose placements, allocations and messages are the expectations (the parity test).
 */
abstract class DraScenarios extends RealClusterTest {

  static final String DRIVER = "gpu.e2e.example.com";
  static final String CLASS = "e2e-gpu";
  /** The extended resource {@value #CLASS} backs in the extended resource scenarios. */
  static final String EXTENDED = "gpu.e2e.example.com/gpu";
  private static final Duration SOON = Duration.ofSeconds(30);
  /** kube-scheduler 1.37.2's message when no node has the devices a pod's claims need. */
  private static final String CANNOT_ALLOCATE = "0/2 nodes are available: 2 cannot allocate all claims."
      + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";

  private @Nullable AutoCloseable scheduler;

  /** @return the {@code spec.schedulerName} the scheduler under test serves */
  abstract String schedulerName();

  /** Starts the scheduler under test, after the nodes, class and slices exist; closed after the test. */
  abstract AutoCloseable startScheduler() throws Exception;

  @BeforeEach
  void nodesAndClass() {
    cleanUp();
    createReady(FakeClusterFixture.node("node-a", "4", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "4", "8Gi", "110"));
    deviceClass(CLASS, "device.driver == \"" + DRIVER + "\"");
  }

  @AfterEach
  void stopAndCleanUp() throws Exception {
    if (scheduler != null) {
      scheduler.close();
      scheduler = null;
    }
    for (var claim : admin.resources(ResourceClaim.class).inNamespace(namespace).list().getItems()) {
      claim.getMetadata().setFinalizers(List.of()); // no kubelet releases them here
      admin.resources(ResourceClaim.class).inNamespace(namespace).resource(claim).update();
    }
    admin.pods().inNamespace(namespace).withGracePeriod(0).delete();
    admin.resources(ResourceClaim.class).inNamespace(namespace).delete();
    cleanUp();
  }

  private void cleanUp() {
    admin.resources(ResourceSlice.class).delete();
    admin.resources(DeviceClass.class).delete();
  }

  private void start() throws Exception {
    scheduler = startScheduler();
  }

  // ---------------------------------------------------------------- the scenarios

  /** ExactCount: a claim for two devices goes where a pool has two; both are written to the claim. */
  @Test
  void a_claim_for_two_devices_is_allocated_on_the_node_that_has_two() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    slice("node-b", gpu("gpu-0", "a100", "40Gi"), gpu("gpu-1", "a100", "40Gi"));
    claim("two", 2, List.of());
    pod("trainer", "two");
    start();

    assertEquals("node-b", placed("trainer"));
    var claim = claimNamed("two");
    assertEquals(List.of("node-b/gpu-0", "node-b/gpu-1"), devices(claim));
    assertEquals(List.of("trainer"), reservedFor(claim));
    assertEquals(List.of("resource.kubernetes.io/delete-protection"), claim.getMetadata().getFinalizers());
    assertNotNull(claim.getStatus().getAllocation().getAllocationTimestamp());
    assertEquals(
        List.of("metadata.name In [node-b]"), selectorTerms(claim), "a node-local device pins the claim to its node");
  }

  /** CEL selectors on an attribute and a capacity, with kube's quantity library. */
  @Test
  void a_cel_selector_on_attributes_and_capacity_picks_the_device() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    slice("node-b", gpu("gpu-0", "h100", "80Gi"));
    claim("big", 1, List.of(
        "device.attributes[\"" + DRIVER + "\"].model == \"h100\" && device.capacity[\"" + DRIVER
            + "\"].memory.compareTo(quantity(\"64Gi\")) >= 0"));
    pod("trainer", "big");
    start();

    assertEquals("node-b", placed("trainer"));
    assertEquals(List.of("node-b/gpu-0"), devices(claimNamed("big")));
  }

  /** A claim shared by two pods is allocated once; both pods go to its node and are in its reservedFor. */
  @Test
  void a_claim_shared_by_two_pods_is_allocated_once() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    slice("node-b", gpu("gpu-0", "a100", "40Gi"));
    claim("shared", 1, List.of());
    pod("first", "shared");
    start();
    var node = placed("first");
    pod("second", "shared");

    assertEquals(node, placed("second"));
    var claim = claimNamed("shared");
    assertEquals(1, claim.getStatus().getAllocation().getDevices().getResults().size());
    assertEquals(List.of("first", "second"), reservedFor(claim));
  }

  /** Devices taken are taken: a second claim for the only device of the cluster waits, with kube's message. */
  @Test
  void a_device_in_use_is_not_given_to_a_second_claim() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    claim("first", 1, List.of());
    claim("second", 1, List.of());
    pod("first", "first");
    start();
    assertEquals("node-a", placed("first"));
    pod("second", "second");

    assertPendingWith("second", CANNOT_ALLOCATE);
    assertNull(claimNamed("second").getStatus() == null ? null : claimNamed("second").getStatus().getAllocation());
  }

  // Queueing hints: each event that may help a waiting pod retries it (kube's DynamicResources hints); were one
  // missed, the pod would wait for the unschedulable timeout (5 minutes), past these tests' wait.

  /** A ResourceSlice added with the devices a waiting pod needs: the pod is retried and placed. */
  @Test
  void a_waiting_pod_is_placed_once_a_slice_offers_the_devices_it_needs() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    claim("two", 2, List.of());
    pod("trainer", "two");
    start();
    assertPendingWith("trainer", CANNOT_ALLOCATE);

    slice("node-b", gpu("gpu-0", "a100", "40Gi"), gpu("gpu-1", "a100", "40Gi"));

    assertEquals("node-b", placed("trainer"));
  }

  /** A claim holding the only device deleted (while allocated): the pod waiting for a device is placed. */
  @Test
  void a_waiting_pod_is_placed_once_the_claim_holding_its_device_is_deleted() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    claim("first", 1, List.of());
    claim("second", 1, List.of());
    pod("first", "first");
    start();
    assertEquals("node-a", placed("first"));
    pod("second", "second");
    assertPendingWith("second", CANNOT_ALLOCATE);

    var first = claimNamed("first");
    first.getMetadata().setFinalizers(List.of());
    admin.resources(ResourceClaim.class).inNamespace(namespace).resource(first).update();
    admin.resources(ResourceClaim.class).inNamespace(namespace).withName("first").delete();

    assertEquals("node-a", placed("second"));
    assertEquals(List.of("node-a/gpu-0"), devices(claimNamed("second")));
  }

  /** A pod naming a claim that does not exist yet is placed once the claim is created. */
  @Test
  void a_pod_naming_a_claim_not_created_yet_is_placed_once_it_is() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    pod("early", "later");
    start();
    Thread.sleep(2_000); // the scheduler has seen the pod and set it aside

    claim("later", 1, List.of());

    assertEquals("node-a", placed("early"));
  }

  /** Too few devices anywhere: the pod stays pending with kube's message and nothing is allocated. */
  @Test
  void too_few_devices_leave_the_pod_pending_with_kubes_message() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    slice("node-b", gpu("gpu-0", "a100", "40Gi"), gpu("gpu-1", "a100", "40Gi"));
    claim("three", 3, List.of());
    pod("trainer", "three");
    start();

    assertPendingWith("trainer", CANNOT_ALLOCATE);
  }

  /** A claim naming a DeviceClass that does not exist: pending with kube's message. */
  @Test
  void a_missing_class_leaves_the_pod_pending_with_kubes_message() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    claimOfClass("nowhere", "no-such-class", 1);
    pod("trainer", "nowhere");
    start();

    assertPendingWith("trainer", "0/2 nodes are available: request gpu: device class no-such-class does not exist."
        + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  }

  /** A template makes a claim per pod (the resource claim controller), and each pod gets its own device. */
  @Test
  void a_template_makes_a_claim_per_pod_each_with_its_own_device() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"), gpu("gpu-1", "a100", "40Gi"));
    admin.resources(ResourceClaimTemplate.class).inNamespace(namespace).resource(
        new ResourceClaimTemplateBuilder().withNewMetadata().withName("one-gpu").endMetadata()
            .withNewSpec().withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
            .withDeviceClassName(CLASS).endExactly().endRequest().endDevices().endSpec().endSpec().build()).create();
    start();
    podFromTemplate("w1", "one-gpu");
    podFromTemplate("w2", "one-gpu");

    assertEquals("node-a", placed("w1"));
    assertEquals("node-a", placed("w2"));
    var allocated = new TreeSet<String>();
    for (var claim : admin.resources(ResourceClaim.class).inNamespace(namespace).list().getItems()) {
      allocated.addAll(devices(claim));
    }
    assertEquals(new TreeSet<>(List.of("node-a/gpu-0", "node-a/gpu-1")), allocated);
  }

  /** Partitionable devices: two partitions of 40Gi each consume a GPU's 80Gi counter; a third one cannot fit. */
  @Test
  void partitions_of_a_device_never_overcommit_its_shared_counter() throws Exception {
    var partitions = new ArrayList<Device>();
    for (int i = 0; i < 3; i++) {
      partitions.add(new DeviceBuilder().withName("gpu-0-part-" + i)
          .withAttributes(Map.of("model", attribute("a100")))
          .withConsumesCounters(new DeviceCounterConsumptionBuilder().withCounterSet("gpu-0")
              .withCounters(Map.of("memory", new Counter(new Quantity("40Gi")))).build())
          .build());
    }
    // kube 1.37 keeps a pool's shared counters and the devices consuming them in separate slices of the pool.
    admin.resources(ResourceSlice.class).resource(new ResourceSliceBuilder()
        .withNewMetadata().withName("node-a-counters").endMetadata()
        .withNewSpec().withDriver(DRIVER).withNodeName("node-a").withNewPool().withName("node-a").withGeneration(1L)
        .withResourceSliceCount(2L).endPool()
        .withSharedCounters(new CounterSetBuilder().withName("gpu-0")
            .withCounters(Map.of("memory", new Counter(new Quantity("80Gi")))).build())
        .endSpec().build()).create();
    admin.resources(ResourceSlice.class).resource(new ResourceSliceBuilder()
        .withNewMetadata().withName("node-a-partitions").endMetadata()
        .withNewSpec().withDriver(DRIVER).withNodeName("node-a").withNewPool().withName("node-a").withGeneration(1L)
        .withResourceSliceCount(2L).endPool()
        .withDevices(partitions).endSpec().build()).create();
    for (var name : List.of("p0", "p1", "p2")) {
      claim(name, 1, List.of());
    }
    start();
    pod("p0", "p0");
    assertEquals("node-a", placed("p0"));
    pod("p1", "p1");
    assertEquals("node-a", placed("p1"));
    pod("p2", "p2");

    assertPendingWith("p2", CANNOT_ALLOCATE);
  }

  /**
   * An extended resource backed by the class (its {@code extendedResourceName}), which no node offers through a
   * device plugin: the scheduler creates a claim for the pod, allocates it, and names it in the pod's status.
   */
  @Test
  void an_extended_resource_backed_by_a_class_is_allocated_through_a_claim_the_scheduler_creates() throws Exception {
    extendedResourceName(CLASS, EXTENDED);
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    podRequesting("trainer", EXTENDED, "1");
    start();

    assertEquals("node-a", placed("trainer"));
    var claims = admin.resources(ResourceClaim.class).inNamespace(namespace).list().getItems();
    assertEquals(1, claims.size());
    var claim = claims.get(0);
    assertTrue(claim.getMetadata().getName().startsWith("trainer-extended-resources-"), claim.getMetadata().getName());
    assertEquals("true", claim.getMetadata().getAnnotations().get("resource.kubernetes.io/extended-resource-claim"));
    var owner = claim.getMetadata().getOwnerReferences().get(0);
    assertEquals(List.of("Pod", "trainer", true), List.of(owner.getKind(), owner.getName(), owner.getController()));
    // the resource is the second of the container's sorted request names (cpu, it, memory)
    assertEquals(List.of("container-0-request-1"),
        claim.getSpec().getDevices().getRequests().stream().map(r -> r.getName()).toList());
    assertEquals(List.of("node-a/gpu-0"), devices(claim));
    assertEquals(List.of("trainer"), reservedFor(claim));
    eventually(WAIT, "the pod's status names the claim", () -> {
      var status = admin.pods().inNamespace(namespace).withName("trainer").get().getStatus();
      return status.getExtendedResourceClaimStatus() != null;
    });
    var status = admin.pods().inNamespace(namespace).withName("trainer").get().getStatus()
        .getExtendedResourceClaimStatus();
    assertEquals(claim.getMetadata().getName(), status.getResourceClaimName());
    assertEquals(List.of("app " + EXTENDED + " container-0-request-1"),
        status.getRequestMappings().stream()
            .map(m -> m.getContainerName() + " " + m.getResourceName() + " " + m.getRequestName()).toList());
  }

  /**
   * A claim for the pod's extended resources left from an earlier attempt (allocated; its deletion failed then):
   * PostFilter deletes it ({@code deletion of ResourceClaim completed}), and the pod is placed through a new one.
   */
  @Test
  void a_claim_for_extended_resources_left_from_an_earlier_attempt_is_deleted_and_the_pod_placed() throws Exception {
    extendedResourceName(CLASS, EXTENDED);
    slice("node-a", gpu("gpu-0", "a100", "40Gi"), gpu("gpu-1", "a100", "40Gi"));
    // Gated while the claim is made, so that no scheduler tries the pod before it exists.
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, "trainer", schedulerName(), "100m", "64Mi"))
        .editSpec().addNewSchedulingGate().withName("e2e.example.com/claim-first").endSchedulingGate()
        .editFirstContainer().editResources()
        .addToRequests(EXTENDED, new Quantity("1")).addToLimits(EXTENDED, new Quantity("1"))
        .endResources().endContainer().endSpec().build());
    var pod = admin.pods().inNamespace(namespace).withName("trainer").get();
    admin.resources(ResourceClaim.class).inNamespace(namespace).resource(new ResourceClaimBuilder()
        .withNewMetadata().withName("trainer-extended-resources-stale")
        .addToAnnotations("resource.kubernetes.io/extended-resource-claim", "true")
        .addNewOwnerReference().withApiVersion("v1").withKind("Pod").withName("trainer")
        .withUid(pod.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly().withDeviceClassName(CLASS)
        .withCount(1L).endExactly().endRequest().endDevices().endSpec().build()).create();
    allocate("trainer-extended-resources-stale", "node-a", "gpu-1");
    start();
    admin.pods().inNamespace(namespace).withName("trainer").edit(p -> new PodBuilder(p).editSpec()
        .withSchedulingGates().endSpec().build());

    assertEquals("node-a", placed("trainer"));
    eventually(WAIT, "the claim left from the earlier attempt is deleted", () -> admin.resources(ResourceClaim.class)
        .inNamespace(namespace).withName("trainer-extended-resources-stale").get() == null);
    var claims = admin.resources(ResourceClaim.class).inNamespace(namespace).list().getItems();
    assertEquals(1, claims.size());
    assertTrue(claims.get(0).getMetadata().getName().startsWith("trainer-extended-resources-"));
    assertTrue(!claims.get(0).getMetadata().getName().equals("trainer-extended-resources-stale"), "a new claim");
    assertEquals(List.of("trainer"), reservedFor(claims.get(0)));
  }

  /** An extended resource backed by the class, more than any node's devices: pending with kube's message. */
  @Test
  void an_extended_resource_backed_by_a_class_with_too_few_devices_waits_with_kubes_message() throws Exception {
    extendedResourceName(CLASS, EXTENDED);
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    slice("node-b", gpu("gpu-0", "a100", "40Gi"));
    podRequesting("trainer", EXTENDED, "2");
    start();

    assertPendingWith("trainer", CANNOT_ALLOCATE);
    assertEquals(List.of(), admin.resources(ResourceClaim.class).inNamespace(namespace).list().getItems());
  }

  /**
   * PostFilter: a claim allocated on {@code node-a}, reserved for no pod, while {@code node-a} has no room for the
   * pod: kube deallocates it (and preemption finds no victim), and the pod's next attempt allocates it on {@code
   * node-b}.
   */
  @Test
  void an_idle_claim_allocated_where_the_pod_cannot_go_is_deallocated_and_allocated_where_it_can() throws Exception {
    slice("node-a", gpu("gpu-0", "a100", "40Gi"));
    slice("node-b", gpu("gpu-0", "a100", "40Gi"));
    claim("idle", 1, List.of());
    allocate("idle", "node-a", "gpu-0");
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, "hog", schedulerName(), "4", "64Mi"))
        .editSpec().withNodeName("node-a").endSpec().build());
    start();
    pod("trainer", "idle");

    assertEquals("node-b", placed("trainer"));
    var claim = claimNamed("idle");
    assertEquals(List.of("node-b/gpu-0"), devices(claim));
    assertEquals(List.of("trainer"), reservedFor(claim));
    eventually(SOON, "a FailedScheduling event for trainer", () -> !failedScheduling("trainer").isEmpty());
    assertEquals(
        List.of("0/2 nodes are available: 1 Insufficient cpu, 1 resourceclaim not available on the node."
            + " deallocation of ResourceClaim completed, preemption: 0/2 nodes are available: 1 No preemption"
            + " victims found for incoming pod, 1 Preemption is not helpful for scheduling."),
        failedScheduling("trainer"));
  }

  /**
   * Binding conditions: the claim is allocated and reserved, then the binding waits (a {@code
   * BindingConditionsPending} event) until the driver reports the device's condition {@code True} in the claim's
   * {@code status.devices}; then the pod is bound.
   */
  @Test
  void a_device_with_binding_conditions_is_bound_once_its_condition_is_true() throws Exception {
    slice("node-a", fabricGpu("gpu-0"));
    claim("fabric", 1, List.of());
    start();
    pod("trainer", "fabric");
    eventually(SOON, "fabric reserved for trainer", () -> reservedForOrNone("fabric").contains("trainer"));
    Thread.sleep(1_000);
    assertEquals("", nodeOf("trainer"), "not bound while the device is not ready");

    reportDevice("fabric", "node-a", "gpu-0", ATTACHED, "Attached", "attached to node-a");

    assertEquals("node-a", placed("trainer"));
    assertEquals(List.of("node-a/gpu-0"), devices(claimNamed("fabric")));
    eventually(SOON, "a BindingConditionsPending event", () -> eventsAbout("trainer").stream()
        .anyMatch(e -> "BindingConditionsPending".equals(e.getReason())
            && "waiting for binding conditions for device on node node-a".equals(e.getNote())));
  }

  /**
   * A binding failure condition: PreBind fails and the pod leaves the claim; its next attempt finds the claim
   * unusable on every node, and PostFilter deallocates it. The device is gone by then (its slice deleted), so the
   * pod stays pending and the claim unallocated.
   */
  @Test
  void a_device_whose_binding_fails_is_not_bound_and_its_claim_is_deallocated() throws Exception {
    slice("node-a", fabricGpu("gpu-0"));
    claim("fabric", 1, List.of());
    start();
    pod("trainer", "fabric");
    eventually(SOON, "fabric reserved for trainer", () -> reservedForOrNone("fabric").contains("trainer"));
    admin.resources(ResourceSlice.class).delete();

    reportDevice("fabric", "node-a", "gpu-0", FAILED, "LinkDown", "fabric link down");

    assertPendingWith("trainer", CANNOT_ALLOCATE);
    var claim = claimNamed("fabric");
    assertNull(claim.getStatus() == null ? null : claim.getStatus().getAllocation(), "deallocated");
    var preBindFailed = "running PreBind plugin \"DynamicResources\": device binding failed: claim=fabric,"
        + " reason=LinkDown, message=\"fabric link down\"";
    eventually(SOON, "the PreBind failure's FailedScheduling event", () -> failedScheduling("trainer").contains(
        preBindFailed));
    // kube-scheduler's event broadcaster folds a FailedScheduling event into the series of an earlier one about the
    // same object reference (resourceVersion included) whatever its note, so which later notes are written depends
    // on when the pod's status changed: each one written is one of these.
    var expected = List.of(
        preBindFailed,
        "0/2 nodes are available: 2 resourceclaim not available on the node. deallocation of ResourceClaim"
            + " completed, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        CANNOT_ALLOCATE);
    var notes = failedScheduling("trainer");
    assertTrue(expected.containsAll(notes), "FailedScheduling notes " + notes);
  }

  // ---------------------------------------------------------------- building the cluster

  private void extendedResourceName(String deviceClass, String resource) {
    admin.resources(DeviceClass.class).withName(deviceClass).edit(c -> {
      c.getSpec().setExtendedResourceName(resource);
      return c;
    });
  }

  /** A pod whose one container requests (and is limited to) {@code amount} of the extended resource. */
  private void podRequesting(String name, String resource, String amount) {
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, name, schedulerName(), "100m", "64Mi"))
        .editSpec().editFirstContainer().editResources()
        .addToRequests(resource, new Quantity(amount)).addToLimits(resource, new Quantity(amount))
        .endResources().endContainer().endSpec().build());
  }

  private static final String ATTACHED = "attached";
  private static final String FAILED = "failed";

  /** A device that must be attached before use: binding condition {@value #ATTACHED}, failure {@value #FAILED}. */
  private static Device fabricGpu(String name) {
    return new DeviceBuilder(gpu(name, "a100", "40Gi"))
        .withBindingConditions(ATTACHED).withBindingFailureConditions(FAILED).build();
  }

  /** Reports condition {@code type} True for {@code device} in the claim's {@code status.devices}, as a driver. */
  private void reportDevice(String claimName, String node, String device, String type, String reason, String message) {
    for (int attempt = 1; ; attempt++) {
      var claim = claimNamed(claimName);
      claim.getStatus().setDevices(List.of(new AllocatedDeviceStatusBuilder()
          .withDriver(DRIVER).withPool(node).withDevice(device)
          .withConditions(new io.fabric8.kubernetes.api.model.ConditionBuilder()
              .withType(type).withStatus("True").withReason(reason).withMessage(message)
              .withLastTransitionTime(
                  java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString())
              .build())
          .build()));
      try {
        admin.resources(ResourceClaim.class).inNamespace(namespace).resource(claim).updateStatus();
        return;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 5) {
          throw e;
        }
      }
    }
  }

  private List<String> reservedForOrNone(String claimName) {
    var claim = claimNamed(claimName);
    return claim.getStatus() == null ? List.of() : reservedFor(claim);
  }

  /** Allocates claim {@code name} to {@code device} of {@code node}'s pool as a driver's controller would. */
  private void allocate(String name, String node, String device) {
    var claim = claimNamed(name);
    claim.setStatus(new ResourceClaimStatusBuilder().withNewAllocation()
        .withNewDevices().addNewResult().withRequest("gpu").withDriver(DRIVER).withPool(node).withDevice(device)
        .endResult().endDevices()
        .withNodeSelector(new io.fabric8.kubernetes.api.model.NodeSelectorBuilder().addNewNodeSelectorTerm()
            .addNewMatchField().withKey("metadata.name").withOperator("In").withValues(node).endMatchField()
            .endNodeSelectorTerm().build())
        .endAllocation().build());
    admin.resources(ResourceClaim.class).inNamespace(namespace).resource(claim).updateStatus();
  }

  private void deviceClass(String name, String selector) {
    admin.resources(DeviceClass.class).resource(new DeviceClassBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().addNewSelector().withNewCel().withExpression(selector).endCel().endSelector().endSpec().build())
        .create();
  }

  private static DeviceAttribute attribute(String value) {
    var attribute = new DeviceAttribute();
    attribute.setString(value);
    return attribute;
  }

  private static Device gpu(String name, String model, String memory) {
    return new DeviceBuilder().withName(name)
        .withAttributes(Map.of("model", attribute(model)))
        .withCapacity(Map.of("memory", new DeviceCapacity(null, new Quantity(memory))))
        .build();
  }

  /** Publishes {@code devices} in one slice of the pool {@code node}, local to that node. */
  private void slice(String node, Device... devices) {
    admin.resources(ResourceSlice.class).resource(new ResourceSliceBuilder()
        .withNewMetadata().withName(node + "-" + DRIVER).endMetadata()
        .withNewSpec().withDriver(DRIVER).withNodeName(node).withNewPool().withName(node).withGeneration(1L)
        .withResourceSliceCount(1L).endPool().withDevices(devices).endSpec().build()).create();
  }

  private void claim(String name, long count, List<String> selectors) {
    var exactly = new ResourceClaimBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly().withDeviceClassName(CLASS)
        .withCount(count);
    for (var selector : selectors) {
      exactly.addNewSelector().withNewCel().withExpression(selector).endCel().endSelector();
    }
    admin.resources(ResourceClaim.class).inNamespace(namespace)
        .resource(exactly.endExactly().endRequest().endDevices().endSpec().build()).create();
  }

  private void claimOfClass(String name, String deviceClass, long count) {
    admin.resources(ResourceClaim.class).inNamespace(namespace).resource(new ResourceClaimBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName(deviceClass).withCount(count).endExactly().endRequest().endDevices().endSpec().build())
        .create();
  }

  private void pod(String name, String claim) {
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, name, schedulerName(), "100m", "64Mi"))
        .editSpec().addNewResourceClaim().withName("gpu").withResourceClaimName(claim).endResourceClaim()
        .editFirstContainer().editResources().addNewClaim().withName("gpu").endClaim().endResources().endContainer()
        .endSpec().build());
  }

  private void podFromTemplate(String name, String template) {
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, name, schedulerName(), "100m", "64Mi"))
        .editSpec().addNewResourceClaim().withName("gpu").withResourceClaimTemplateName(template).endResourceClaim()
        .editFirstContainer().editResources().addNewClaim().withName("gpu").endClaim().endResources().endContainer()
        .endSpec().build());
  }

  // ---------------------------------------------------------------- reading the cluster

  private String placed(String pod) {
    eventually(WAIT, pod + " is bound", () -> !nodeOf(pod).isEmpty());
    return nodeOf(pod);
  }

  private ResourceClaim claimNamed(String name) {
    var claim = admin.resources(ResourceClaim.class).inNamespace(namespace).withName(name).get();
    assertNotNull(claim, name);
    return claim;
  }

  /** @return the claim's allocated devices as {@code pool/device}, sorted */
  private static List<String> devices(ResourceClaim claim) {
    if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
      return List.of();
    }
    return claim.getStatus().getAllocation().getDevices().getResults().stream()
        .map(r -> r.getPool() + "/" + r.getDevice()).sorted().toList();
  }

  private static List<String> reservedFor(ResourceClaim claim) {
    return claim.getStatus().getReservedFor().stream().map(r -> r.getName()).sorted().toList();
  }

  private static List<String> selectorTerms(ResourceClaim claim) {
    var selector = claim.getStatus().getAllocation().getNodeSelector();
    var terms = new ArrayList<String>();
    for (var term : selector.getNodeSelectorTerms()) {
      var parts = new LinkedHashMap<String, String>();
      term.getMatchFields().forEach(r -> parts.put(r.getKey(), r.getOperator() + " " + r.getValues()));
      term.getMatchExpressions().forEach(r -> parts.put(r.getKey(), r.getOperator() + " " + r.getValues()));
      parts.forEach((k, v) -> terms.add(k + " " + v));
    }
    return terms;
  }

  private void assertPendingWith(String pod, String message) throws InterruptedException {
    var deadline = System.nanoTime() + SOON.toNanos();
    var seen = "";
    while (System.nanoTime() - deadline < 0) {
      var current = admin.pods().inNamespace(namespace).withName(pod).get();
      seen = current == null ? "(no pod)" : condition(current).orElse("(no PodScheduled condition)");
      if (seen.equals(message)) {
        break;
      }
      Thread.sleep(50);
    }
    assertEquals(message, seen, pod + "'s PodScheduled message");
    assertEquals("", nodeOf(pod));
  }

  /** @return the notes of the pod's FailedScheduling events, oldest first, each once */
  private List<String> failedScheduling(String pod) {
    var notes = new ArrayList<String>();
    eventsAbout(pod).stream()
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .sorted(java.util.Comparator.comparing((Event e) -> e.getMetadata().getCreationTimestamp()))
        .map(Event::getNote)
        .filter(n -> !notes.contains(n))
        .forEach(notes::add);
    return notes;
  }

  private static java.util.Optional<String> condition(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return java.util.Optional.empty();
    }
    return pod.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType()))
        .map(c -> c.getMessage() == null ? "" : c.getMessage()).findFirst();
  }
}
