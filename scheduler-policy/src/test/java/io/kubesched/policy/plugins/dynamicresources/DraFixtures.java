package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.ContainerRequests;
import java.util.TreeSet;
import java.util.HashMap;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.Owner;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import io.kubesched.api.Resources;
import io.kubesched.api.AllocatedDeviceStatus;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourcePool;
import io.kubesched.api.ResourceSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** kube's fixtures of dynamicresources_test.go ({@code podWithClaimName}, {@code pendingClaim}, …), as records. */
final class DraFixtures {

  static final String NODE_NAME = "worker";
  static final String NODE2_NAME = "worker-2";
  static final String DRIVER = "some-driver";
  static final String POD_NAME = "my-pod";
  static final String POD_UID = "1234";
  static final String RESOURCE_NAME = "my-resource";
  static final String CLAIM_NAME = POD_NAME + "-" + RESOURCE_NAME;
  static final String CLAIM_NAME2 = POD_NAME + "-" + RESOURCE_NAME + "-2";
  static final String CLASS_NAME = "my-resource-class";
  static final String NAMESPACE = "default";
  static final String EXTENDED_RESOURCE_NAME = "example.com/gpu";
  static final Owner POD_OWNER = new Owner("Pod", POD_NAME, POD_UID);

  static final NodeInfo WORKER_NODE = node(NODE_NAME);
  static final NodeInfo WORKER_NODE2 = node(NODE2_NAME);
  static final DeviceClass DEVICE_CLASS = new DeviceClass(CLASS_NAME, List.of(), List.of(), null);
  static final DeviceClass DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME =
      new DeviceClass(CLASS_NAME, List.of(), List.of(), EXTENDED_RESOURCE_NAME);
  static final ResourceSlice WORKER_NODE_SLICE = slice(NODE_NAME, "instance-1");

  static final PodInfo POD_WITH_CLAIM_NAME =
      pod(POD_NAME, POD_UID, PodResourceClaim.ofClaim(RESOURCE_NAME, CLAIM_NAME));
  static final PodInfo POD_WITH_CLAIM_TEMPLATE =
      pod(POD_NAME, POD_UID, new PodResourceClaim(RESOURCE_NAME, null, CLAIM_NAME, null));
  static final PodInfo POD_WITH_CLAIM_TEMPLATE_IN_STATUS =
      pod(POD_NAME, POD_UID, new PodResourceClaim(RESOURCE_NAME, null, CLAIM_NAME, CLAIM_NAME));

  /** kube's {@code claim}: one request {@code req-1} of one device of the class, no owner. */
  static final ResourceClaim CLAIM = claim(CLAIM_NAME, null, exact("req-1", CLASS_NAME, 1));
  /** kube's {@code pendingClaim}: {@link #CLAIM} owned by the pod. */
  static final ResourceClaim PENDING_CLAIM = claim(CLAIM_NAME, POD_OWNER, exact("req-1", CLASS_NAME, 1));
  static final ResourceClaim PENDING_CLAIM2 = claim(CLAIM_NAME2, POD_OWNER, exact("req-1", CLASS_NAME, 1));
  /** kube's {@code allocationResult}: instance-1 of the worker, selecting the worker by name. */
  static final AllocationResult ALLOCATION_RESULT = allocation(NODE_NAME, "req-1", "instance-1");
  static final AllocationResult ALLOCATION_RESULT2 = allocation(NODE2_NAME, "req-1", "instance-1");
  static final ResourceClaim ALLOCATED_CLAIM = PENDING_CLAIM.withAllocation(ALLOCATION_RESULT);
  static final ResourceClaim IN_USE_CLAIM =
      ALLOCATED_CLAIM.withReservedFor(List.of(ConsumerRef.pod(POD_NAME, POD_UID)));
  static final ResourceClaim ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY = PENDING_CLAIM.withAllocation(ALLOCATION_RESULT2);
  static final ResourceClaim ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY = PENDING_CLAIM.withAllocation(ALLOCATION_RESULT);
  static final ResourceClaim OTHER_CLAIM = claim("not-my-claim", null, exact("req-1", CLASS_NAME, 1));
  /** kube's {@code claimWithPrioritzedList}, owned by the pod: {@code req-1} with one alternative {@code subreq-1}. */
  static final ResourceClaim PENDING_CLAIM_WITH_PRIORITIZED_LIST = claim(CLAIM_NAME, POD_OWNER,
      prioritized("req-1", new DeviceRequest.SubRequest("subreq-1", requirements(CLASS_NAME, 1))));

  /** kube's {@code bindingConditions} and {@code bindingFailureConditions} of its fabric devices. */
  static final String BINDING_CONDITION = "condition";
  static final String BINDING_FAILURE_CONDITION = "failed";
  static final String DRIVER2 = "some-driver-2";
  /** kube's zero {@code metav1.Time} its binding-condition allocations carry: long past any binding timeout. */
  static final Instant LONG_AGO = Instant.parse("0001-01-01T00:00:00Z");
  static final PodInfo POD_WITH_TWO_CLAIM_NAMES = pod(POD_NAME, POD_UID,
      PodResourceClaim.ofClaim(RESOURCE_NAME, CLAIM_NAME), PodResourceClaim.ofClaim(RESOURCE_NAME + "-2", CLAIM_NAME2));

  private DraFixtures() {}

  /** kube's {@code allocationResultWithBindingConditions}: one device of {@code driver} that has binding conditions. */
  static AllocationResult allocationWithBindingConditions(String driver, String request, String device) {
    return new AllocationResult(
        List.of(new DeviceAllocation(request, driver, NODE_NAME, device, false, List.of(), List.of(BINDING_CONDITION),
            List.of(BINDING_FAILURE_CONDITION), null, Map.of())),
        List.of(), List.of(nodeNameTerm(NODE_NAME)), LONG_AGO);
  }

  /** {@code claim} allocated {@code allocation}, its one device's {@code status.devices} entry with {@code conditions}. */
  static ResourceClaim withDeviceStatus(
      ResourceClaim claim, AllocationResult allocation, AllocatedDeviceStatus.Condition... conditions) {
    var device = allocation.devices().get(0);
    return new ResourceClaim(claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion(), claim.controller(),
        claim.annotations(), claim.requests(), claim.constraints(), claim.config(), allocation, claim.reservedFor(),
        claim.deleting(), List.of(new AllocatedDeviceStatus(device.driver(), device.pool(), device.device(), null,
            List.of(conditions))));
  }

  static AllocatedDeviceStatus.Condition condition(String type, boolean status) {
    return new AllocatedDeviceStatus.Condition(type, status ? "True" : "False", "", "");
  }

  /** kube's {@code boundClaim}: its device's binding condition True, its failure condition False. */
  static ResourceClaim boundClaim() {
    return withDeviceStatus(PENDING_CLAIM, allocationWithBindingConditions(DRIVER, "req-1", "instance-1"),
        condition(BINDING_CONDITION, true), condition(BINDING_FAILURE_CONDITION, false));
  }

  /** kube's {@code boundClaim2}, of the second claim and driver. */
  static ResourceClaim boundClaim2() {
    return withDeviceStatus(PENDING_CLAIM2, allocationWithBindingConditions(DRIVER2, "req-2", "instance-2"),
        condition(BINDING_CONDITION, true), condition(BINDING_FAILURE_CONDITION, false));
  }

  /** kube's {@code failedBindingClaim}: its device's failure condition True. */
  static ResourceClaim failedBindingClaim() {
    return withDeviceStatus(PENDING_CLAIM, allocationWithBindingConditions(DRIVER, "req-1", "instance-1"),
        condition(BINDING_CONDITION, false), condition(BINDING_FAILURE_CONDITION, true));
  }

  /** kube's {@code failedBindingClaim2}. */
  static ResourceClaim failedBindingClaim2() {
    return withDeviceStatus(PENDING_CLAIM2, allocationWithBindingConditions(DRIVER2, "req-2", "instance-2"),
        condition(BINDING_CONDITION, false), condition(BINDING_FAILURE_CONDITION, true));
  }

  static NodeInfo node(String name) {
    return NodeInfo.builder(name).labels(Map.of("kubernetes.io/hostname", name)).allocatable(4000, 8L << 30, 110)
        .build();
  }

  static NodeInfo nodeWithExtended(String name, String resource, long amount) {
    return NodeInfo.builder(name)
        .labels(Map.of("kubernetes.io/hostname", name))
        .allocatable(new Resources(4000, 8L << 30, 0, 110, Map.of(resource, amount)))
        .build();
  }

  static PodInfo pod(String name, String uid, PodResourceClaim... claims) {
    return PodInfo.builder(NAMESPACE, name).uid(uid).resourceClaims(List.of(claims)).build();
  }

  static PodInfo podRequesting(String resource, long amount) {
    return PodInfo.builder(NAMESPACE, POD_NAME).uid(POD_UID)
        .requests(new Resources(0, 0, 0, 1, Map.of(resource, amount)))
        .build();
  }

  static DeviceRequirements requirements(String className, long count) {
    return new DeviceRequirements(className, List.of(), AllocationMode.EXACT_COUNT, count, false, List.of(), Map.of());
  }

  static DeviceRequest exact(String name, String className, long count) {
    return DeviceRequest.exactly(name, requirements(className, count));
  }

  static DeviceRequest prioritized(String name, DeviceRequest.SubRequest... alternatives) {
    return new DeviceRequest(name, null, List.of(alternatives));
  }

  static ResourceClaim claim(String name, Owner controller, DeviceRequest... requests) {
    return new ResourceClaim(NAMESPACE, name, name + "-uid", "1", controller, Map.of(), List.of(requests),
        List.of(), List.of(), null, List.of(), false);
  }

  static ResourceClaim deleting(ResourceClaim claim) {
    return new ResourceClaim(claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion(),
        claim.controller(), claim.annotations(), claim.requests(), claim.constraints(), claim.config(),
        claim.allocation(), claim.reservedFor(), true);
  }

  static ResourceClaim withController(ResourceClaim claim, Owner controller) {
    return new ResourceClaim(claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion(), controller,
        claim.annotations(), claim.requests(), claim.constraints(), claim.config(), claim.allocation(),
        claim.reservedFor(), claim.deleting());
  }

  static NodeSelectorTerm nodeNameTerm(String node) {
    return new NodeSelectorTerm(List.of(), List.of(
        NodeSelectorRequirement.of(NodeSelectorTerm.NODE_NAME_FIELD, NodeSelectorRequirement.Operator.IN, node)));
  }

  static DeviceAllocation device(String request, String pool, String device) {
    return new DeviceAllocation(request, DRIVER, pool, device, false, List.of(), List.of(), List.of(), null, Map.of());
  }

  static AllocationResult allocation(String node, String request, String device) {
    return new AllocationResult(List.of(device(request, node, device)), List.of(), List.of(nodeNameTerm(node)), null);
  }

  static AllocationResult allocationOf(String node, List<DeviceAllocation> devices) {
    return new AllocationResult(devices, List.of(), List.of(nodeNameTerm(node)), null);
  }

  /** kube's {@code MakeResourceSlice(node, driver).Device(...)}: the node's pool, named after it. */
  static ResourceSlice slice(String node, String... devices) {
    var list = new ArrayList<Device>();
    for (var name : devices) {
      list.add(Device.of(name, Map.of(), Map.of()));
    }
    return new ResourceSlice(node + "-" + DRIVER, DRIVER, new ResourcePool(node, 1, 1), NodeSelection.node(node),
        false, list, List.of());
  }

  static DynamicResources resources(
      List<ResourceSlice> slices, List<DeviceClass> classes, List<ResourceClaim> claims) {
    return DynamicResources.of(slices, classes, claims, List.of());
  }

  static ClusterSnapshot snapshot(List<NodeInfo> nodes, DynamicResources resources) {
    return ClusterSnapshot.of(nodes).withDynamicResources(resources);
  }

  /** kube's {@code st.MakePod().Req(...)}: one container per map, {@code con0}, {@code con1}, ... */
  @SafeVarargs
  static PodInfo podWithContainers(Map<String, Long>... containers) {
    var total = new HashMap<String, Long>();
    var requests = new ArrayList<ContainerRequests>();
    for (int i = 0; i < containers.length; i++) {
      containers[i].forEach((name, amount) -> total.merge(name, amount, Long::sum));
      requests.add(new ContainerRequests(
          i, "con" + i, false, false, List.copyOf(new TreeSet<>(containers[i].keySet())), containers[i]));
    }
    return PodInfo.builder(NAMESPACE, POD_NAME).uid(POD_UID)
        .requests(new Resources(0, 0, 0, 1, total))
        .containerRequests(requests)
        .build();
  }
}
