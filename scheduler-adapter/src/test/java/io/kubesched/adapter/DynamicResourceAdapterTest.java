package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.Owner;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimConfig;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.CounterConsumption;
import io.kubesched.api.CounterSet;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.DeviceConstraint;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.DeviceToleration;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.OpaqueConfig;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourcePool;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DynamicResourceAdapter}: each {@code resource.k8s.io/v1} object decoded from JSON as the informers decode
 * it, and read into its record.
 */
class DynamicResourceAdapterTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private static ResourceSlice slice(String spec) {
    return JSON.unmarshal(
        "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": {\"name\": \"s1\"},"
            + " \"spec\": " + spec + "}",
        ResourceSlice.class);
  }

  private static ResourceClaim claim(String rest) {
    return JSON.unmarshal(
        "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", " + rest + "}", ResourceClaim.class);
  }

  private static GenericKubernetesResource rule(String spec) {
    return JSON.unmarshal(
        "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceTaintRule\", \"metadata\": {\"name\": \"r1\"},"
            + " \"spec\": " + spec + "}",
        GenericKubernetesResource.class);
  }

  private static Quantity q(String text) {
    return Quantity.parse(text);
  }

  private static void assertNames(MalformedObjectException e, String object, String field, String value) {
    assertEquals(object, e.object(), e.getMessage());
    assertEquals(field, e.field(), e.getMessage());
    assertEquals(value, e.value(), e.getMessage());
  }

  @Nested
  class Slices {

    @Test
    void every_field_the_allocator_reads_is_read() {
      var read =
          DynamicResourceAdapter.slice(
              slice(
                  """
                  {"driver": "gpu.example.com", "nodeName": "n1",
                   "pool": {"name": "n1", "generation": 3, "resourceSliceCount": 2},
                   "sharedCounters": [{"name": "mem", "counters": {"memory": {"value": "80Gi"}}}],
                   "devices": [{"name": "gpu-0", "bindsToNode": true, "allowMultipleAllocations": true,
                     "bindingConditions": ["ready"], "bindingFailureConditions": ["failed"],
                     "attributes": {"model": {"string": "a100"}, "cores": {"int": 108},
                       "gpu.example.com/mig": {"bool": false}, "driverVersion": {"version": "1.2.3"}},
                     "capacity": {"memory": {"value": " 40Gi ", "requestPolicy": {"default": "1Gi",
                       "validValues": ["1Gi", "2Gi"], "validRange": {"min": "1Gi", "max": "4Gi", "step": "1Gi"}}}},
                     "consumesCounters": [{"counterSet": "mem", "counters": {"memory": {"value": "40Gi"}}}],
                     "taints": [{"key": "broken", "value": "yes", "effect": "NoSchedule",
                       "timeAdded": "2026-01-02T03:04:05Z"}]}]}
                  """));

      var gi = q("1Gi");
      assertEquals(
          new io.kubesched.api.ResourceSlice(
              "s1",
              "gpu.example.com",
              new ResourcePool("n1", 3, 2),
              NodeSelection.node("n1"),
              false,
              List.of(
                  new Device(
                      "gpu-0",
                      Map.of(
                          "model", new DeviceAttribute.StringValue("a100"),
                          "cores", new DeviceAttribute.IntValue(108),
                          "gpu.example.com/mig", new DeviceAttribute.BoolValue(false),
                          "driverVersion", new DeviceAttribute.VersionValue("1.2.3")),
                      Map.of(
                          "memory",
                          new DeviceCapacity(
                              q("40Gi"),
                              new DeviceCapacity.RequestPolicy(
                                  gi, List.of(gi, q("2Gi")), new DeviceCapacity.Range(gi, q("4Gi"), gi)))),
                      List.of(new CounterConsumption("mem", Map.of("memory", q("40Gi")))),
                      NodeSelection.NONE,
                      List.of(
                          new DeviceTaint(
                              "broken", "yes", DeviceTaint.Effect.NO_SCHEDULE, Instant.parse("2026-01-02T03:04:05Z"))),
                      true,
                      List.of("ready"),
                      List.of("failed"),
                      true)),
              List.of(new CounterSet("mem", Map.of("memory", q("80Gi"))))),
          read);
    }

    @Test
    void a_slice_for_all_nodes_and_one_by_node_selector() {
      assertEquals(
          NodeSelection.ALL_NODES,
          DynamicResourceAdapter.slice(slice("{\"driver\": \"d\", \"allNodes\": true, \"pool\": {\"name\": \"p\"}}"))
              .nodeSelection());
      assertEquals(
          NodeSelection.selector(
              List.of(
                  new NodeSelectorTerm(
                      List.of(new NodeSelectorRequirement("zone", NodeSelectorRequirement.Operator.IN, List.of("a"))),
                      List.of()))),
          DynamicResourceAdapter.slice(
                  slice(
                      """
                      {"driver": "d", "pool": {"name": "p"}, "nodeSelector": {"nodeSelectorTerms":
                        [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}
                      """))
              .nodeSelection());
    }

    @Test
    void per_device_node_selection_is_read_on_each_device() {
      var read =
          DynamicResourceAdapter.slice(
              slice(
                  """
                  {"driver": "d", "pool": {"name": "p"}, "perDeviceNodeSelection": true,
                   "devices": [{"name": "a", "nodeName": "n1"}, {"name": "b", "allNodes": true}]}
                  """));

      assertTrue(read.perDeviceNodeSelection());
      assertEquals(NodeSelection.NONE, read.nodeSelection());
      assertEquals(NodeSelection.node("n1"), read.devices().get(0).nodeSelection());
      assertEquals(NodeSelection.ALL_NODES, read.devices().get(1).nodeSelection());
    }

    @Test
    void a_slice_that_selects_no_node_is_malformed() {
      var e =
          assertThrows(
              MalformedObjectException.class,
              () -> DynamicResourceAdapter.slice(slice("{\"driver\": \"d\", \"pool\": {\"name\": \"p\"}}")));

      assertNames(e, "ResourceSlice s1", "spec.nodeName", "");
    }

    @Test
    void a_malformed_capacity_names_the_device_and_capacity() {
      var e =
          assertThrows(
              MalformedObjectException.class,
              () ->
                  DynamicResourceAdapter.slice(
                      slice(
                          """
                          {"driver": "d", "allNodes": true, "pool": {"name": "p"},
                           "devices": [{"name": "a", "capacity": {"memory": {"value": "1 Gi"}}}]}
                          """)));

      assertNames(e, "ResourceSlice s1", "spec.devices[0].capacity[memory].value", "1 Gi");
    }

    @Test
    void an_attribute_with_two_values_is_malformed() {
      var e =
          assertThrows(
              MalformedObjectException.class,
              () ->
                  DynamicResourceAdapter.slice(
                      slice(
                          """
                          {"driver": "d", "allNodes": true, "pool": {"name": "p"},
                           "devices": [{"name": "a", "attributes": {"x": {"int": 1, "string": "1"}}}]}
                          """)));

      assertEquals("spec.devices[0].attributes[x]", e.field());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
        strings = {
          "{\"name\": \"a\", \"attributes\": {\"x\": {\"ints\": [1, 2]}}}|spec.devices[0].attributes[x].ints",
          "{\"name\": \"a\", \"nodeAllocatableResources\": {\"cpu\": {}}}|spec.devices[0].nodeAllocatableResources",
          "{\"name\": \"a\", \"consumesCounters\": [{\"counterSet\": \"c\", \"counters\": {},"
              + " \"compatibilityGroups\": [\"g\"]}]}|spec.devices[0].consumesCounters[0].compatibilityGroups",
        })
    void an_alpha_field_is_refused_on_either_fabric8_line(String deviceAndField) {
      var parts = deviceAndField.split("\\|");
      var e =
          assertThrows(
              MalformedObjectException.class,
              () ->
                  DynamicResourceAdapter.slice(
                      slice(
                          "{\"driver\": \"d\", \"allNodes\": true, \"pool\": {\"name\": \"p\"}, \"devices\": ["
                              + parts[0]
                              + "]}")));

      assertEquals(parts[1], e.field(), e.getMessage());
    }
  }

  @Nested
  class Claims {

    @Test
    void every_field_the_scheduler_reads_and_writes_is_read() {
      var read =
          DynamicResourceAdapter.claim(
              claim(
                  """
                  "metadata": {"namespace": "ns", "name": "gpu", "uid": "c1", "resourceVersion": "42",
                    "deletionTimestamp": "2026-01-01T00:00:00Z", "annotations": {"a": "b"},
                    "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "web", "uid": "p1",
                      "controller": true}]},
                  "spec": {"devices": {
                    "requests": [{"name": "r", "exactly": {"deviceClassName": "gpu", "count": 2,
                      "selectors": [{"cel": {"expression": "device.driver == 'd'"}}],
                      "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute",
                        "tolerationSeconds": 30}],
                      "capacity": {"requests": {"memory": " 1Gi"}}}}],
                    "constraints": [{"requests": ["r"], "matchAttribute": "d/model"}],
                    "config": [{"requests": ["r"], "opaque": {"driver": "d", "parameters": {"x": 1}}}]}},
                  "status": {
                    "allocation": {
                      "devices": {
                        "results": [{"request": "r", "driver": "d", "pool": "p", "device": "g0",
                          "adminAccess": false, "shareID": "s1", "consumedCapacity": {"memory": "1Gi"}}],
                        "config": [{"source": "FromClaim", "requests": ["r"],
                          "opaque": {"driver": "d", "parameters": {"x": 1}}}]},
                      "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name",
                        "operator": "In", "values": ["n1"]}]}]},
                      "allocationTimestamp": "2026-01-01T00:00:01Z"},
                    "reservedFor": [{"resource": "pods", "name": "web", "uid": "p1"}],
                    "devices": [{"driver": "d", "pool": "p", "device": "g0", "shareID": "s1",
                      "conditions": [{"type": "attached", "status": "True", "reason": "Attached",
                        "message": "on n1", "lastTransitionTime": "2026-01-01T00:00:02Z"}],
                      "data": {"ignored": true}}]}
                  """));

      var opaque = new OpaqueConfig("d", "{\"x\":1}");
      assertEquals(
          new io.kubesched.api.ResourceClaim(
              "ns",
              "gpu",
              "c1",
              "42",
              new Owner("Pod", "web", "p1"),
              Map.of("a", "b"),
              List.of(
                  DeviceRequest.exactly(
                      "r",
                      new DeviceRequirements(
                          "gpu",
                          List.of("device.driver == 'd'"),
                          AllocationMode.EXACT_COUNT,
                          2,
                          false,
                          List.of(new DeviceToleration("k", "Exists", "", DeviceTaint.Effect.NO_EXECUTE, 30L)),
                          Map.of("memory", q("1Gi"))))),
              List.of(new DeviceConstraint(List.of("r"), "d/model", null)),
              List.of(new ClaimConfig(ClaimConfig.FROM_CLAIM, List.of("r"), opaque)),
              new AllocationResult(
                  List.of(
                      new DeviceAllocation(
                          "r", "d", "p", "g0", false, List.of(), List.of(), List.of(), "s1",
                          Map.of("memory", q("1Gi")))),
                  List.of(new ClaimConfig(ClaimConfig.FROM_CLAIM, List.of("r"), opaque)),
                  List.of(
                      new NodeSelectorTerm(
                          List.of(),
                          List.of(
                              new NodeSelectorRequirement(
                                  "metadata.name", NodeSelectorRequirement.Operator.IN, List.of("n1"))))),
                  Instant.parse("2026-01-01T00:00:01Z")),
              List.of(ConsumerRef.pod("web", "p1")),
              true,
              List.of(new io.kubesched.api.AllocatedDeviceStatus("d", "p", "g0", "s1", List.of(
                  new io.kubesched.api.AllocatedDeviceStatus.Condition("attached", "True", "Attached", "on n1"))))),
          read);
    }

    @Test
    void an_unset_mode_is_exact_count_of_one_and_an_unset_operator_is_equal() {
      var read =
          DynamicResourceAdapter.claim(
              claim(
                  """
                  "metadata": {"namespace": "ns", "name": "c"},
                  "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu",
                    "tolerations": [{"key": "k", "value": "v"}]}}]}}
                  """));

      var requirements = read.requests().get(0).exactly();
      assertEquals(AllocationMode.EXACT_COUNT, requirements.allocationMode());
      assertEquals(1, requirements.count());
      assertEquals(new DeviceToleration("k", "Equal", "v", null, null), requirements.tolerations().get(0));
      assertNull(read.allocation());
      assertFalse(read.deleting());
      assertNull(read.controller());
    }

    @Test
    void a_prioritized_list_is_read_in_order() {
      var read =
          DynamicResourceAdapter.claim(
              claim(
                  """
                  "metadata": {"namespace": "ns", "name": "c"},
                  "spec": {"devices": {"requests": [{"name": "r", "firstAvailable": [
                    {"name": "big", "deviceClassName": "gpu", "allocationMode": "All"},
                    {"name": "small", "deviceClassName": "gpu", "count": 1}]}]}}
                  """));

      var request = read.requests().get(0);
      assertNull(request.exactly());
      assertEquals(List.of("big", "small"), request.firstAvailable().stream().map(DeviceRequest.SubRequest::name).toList());
      assertEquals(AllocationMode.ALL, request.firstAvailable().get(0).requirements().allocationMode());
    }

    @Test
    void an_unknown_allocation_mode_names_the_request() {
      var e =
          assertThrows(
              MalformedObjectException.class,
              () ->
                  DynamicResourceAdapter.claim(
                      claim(
                          """
                          "metadata": {"namespace": "ns", "name": "c"},
                          "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu",
                            "allocationMode": "Some"}}]}}
                          """)));

      assertNames(e, "ResourceClaim ns/c", "spec.devices.requests[0].exactly.allocationMode", "Some");
    }

    @Test
    void a_request_with_neither_exactly_nor_first_available_is_malformed() {
      var e =
          assertThrows(
              MalformedObjectException.class,
              () ->
                  DynamicResourceAdapter.claim(
                      claim("\"metadata\": {\"namespace\": \"ns\", \"name\": \"c\"},"
                          + " \"spec\": {\"devices\": {\"requests\": [{\"name\": \"r\"}]}}")));

      assertNames(e, "ResourceClaim ns/c", "spec.devices.requests[0]", "r");
    }

    @Test
    void a_derived_attribute_is_refused() {
      var e =
          assertThrows(
              MalformedObjectException.class,
              () ->
                  DynamicResourceAdapter.claim(
                      claim(
                          """
                          "metadata": {"namespace": "ns", "name": "c"},
                          "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu",
                            "derivedAttributes": [{"name": "x"}]}}]}}
                          """)));

      assertEquals("spec.devices.requests[0].exactly.derivedAttributes", e.field());
    }
  }

  @Nested
  class Classes {

    @Test
    void selectors_config_and_extended_resource_are_read() {
      var read =
          DynamicResourceAdapter.deviceClass(
              JSON.unmarshal(
                  """
                  {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
                   "spec": {"selectors": [{"cel": {"expression": "true"}}],
                     "config": [{"opaque": {"driver": "d", "parameters": {"a": "b"}}}],
                     "extendedResourceName": "example.com/gpu"}}
                  """,
                  DeviceClass.class));

      assertEquals(
          new io.kubesched.api.DeviceClass(
              "gpu", List.of("true"), List.of(new OpaqueConfig("d", "{\"a\":\"b\"}")), "example.com/gpu"),
          read);
    }
  }

  @Nested
  class TaintRules {

    @Test
    void a_rule_is_read_from_the_generic_object() {
      assertEquals(
          Optional.of(
              new DeviceTaintRule(
                  "r1", "d", null, "g0",
                  new DeviceTaint("k", "v", DeviceTaint.Effect.NO_EXECUTE, Instant.parse("2026-01-01T00:00:00Z")))),
          DynamicResourceAdapter.taintRule(
              rule(
                  """
                  {"deviceSelector": {"driver": "d", "device": "g0"},
                   "taint": {"key": "k", "value": "v", "effect": "NoExecute", "timeAdded": "2026-01-01T00:00:00Z"}}
                  """)));
    }

    @Test
    void an_empty_selector_matches_every_device() {
      var read =
          DynamicResourceAdapter.taintRule(rule("{\"deviceSelector\": {}, \"taint\": {\"key\": \"k\", \"effect\": \"None\"}}"))
              .orElseThrow();

      assertTrue(read.matches("any", "pool", "device"));
    }

    @Test
    void a_rule_without_a_selector_matches_no_device_so_reads_as_none() {
      assertEquals(
          Optional.empty(),
          DynamicResourceAdapter.taintRule(rule("{\"taint\": {\"key\": \"k\", \"effect\": \"NoSchedule\"}}")));
    }

    @Test
    void an_unknown_effect_names_the_rule() {
      var e =
          assertThrows(
              MalformedObjectException.class,
              () ->
                  DynamicResourceAdapter.taintRule(
                      rule("{\"deviceSelector\": {}, \"taint\": {\"key\": \"k\", \"effect\": \"PreferNoSchedule\"}}")));

      assertNames(e, "DeviceTaintRule r1", "spec.taint.effect", "PreferNoSchedule");
    }
  }
}
