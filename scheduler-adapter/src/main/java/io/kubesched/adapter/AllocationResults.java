package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfigurationBuilder;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.ClaimConfig;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceToleration;
import io.kubesched.fabric8.Fabric8Compat;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The api's {@link io.kubesched.api.AllocationResult} as fabric8's, for the claim status the binding cycle
 * writes (kube's DynamicResources PreBind). The inverse of what the adapter reads, field for field; a driver's
 * opaque parameters go back as the JSON they were read as.
 */
public final class AllocationResults {

  private AllocationResults() {}

  /** @return {@code allocation} as fabric8's model */
  public static AllocationResult toFabric8(io.kubesched.api.AllocationResult allocation) {
    var builder = new AllocationResultBuilder().withNewDevices()
        .withResults(allocation.devices().stream().map(AllocationResults::result).toList())
        .withConfig(allocation.config().stream().map(AllocationResults::config).toList())
        .endDevices();
    var terms = allocation.nodeSelector();
    if (terms != null) {
      builder.withNodeSelector(nodeSelector(terms));
    }
    var timestamp = allocation.allocationTimestamp();
    if (timestamp != null) {
      builder.withAllocationTimestamp(DateTimeFormatter.ISO_INSTANT.format(timestamp));
    }
    return builder.build();
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult result(
      DeviceAllocation device) {
    var builder = new DeviceRequestAllocationResultBuilder()
        .withRequest(device.request())
        .withDriver(device.driver())
        .withPool(device.pool())
        .withDevice(device.device())
        .withTolerations(device.tolerations().stream().map(AllocationResults::toleration).toList())
        .withBindingConditions(device.bindingConditions())
        .withBindingFailureConditions(device.bindingFailureConditions());
    if (device.adminAccess()) {
      builder.withAdminAccess(true);
    }
    if (device.shareId() != null) {
      builder.withShareID(device.shareId());
    }
    if (!device.consumedCapacity().isEmpty()) {
      var consumed = new LinkedHashMap<String, Quantity>();
      device.consumedCapacity().forEach((name, amount) -> consumed.put(name, new Quantity(amount.toString())));
      builder.withConsumedCapacity(consumed);
    }
    return builder.build();
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration toleration(DeviceToleration t) {
    var builder = new DeviceTolerationBuilder().withOperator(t.operator());
    if (!t.key().isEmpty()) {
      builder.withKey(t.key());
    }
    if (!t.value().isEmpty()) {
      builder.withValue(t.value());
    }
    if (t.effect() != null) {
      builder.withEffect(t.effect().kubeName());
    }
    if (t.tolerationSeconds() != null) {
      builder.withTolerationSeconds(t.tolerationSeconds());
    }
    return builder.build();
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration config(ClaimConfig c) {
    return new DeviceAllocationConfigurationBuilder()
        .withSource(c.source())
        .withRequests(c.requests())
        .withOpaque(
            new OpaqueDeviceConfigurationBuilder()
                .withDriver(c.opaque().driver())
                .withParameters(
                    Fabric8Compat.get().plainSerialization().unmarshal(c.opaque().parametersJson(), Map.class))
                .build())
        .build();
  }

  private static NodeSelector nodeSelector(List<NodeSelectorTerm> terms) {
    var selector = new NodeSelector();
    for (var term : terms) {
      selector.getNodeSelectorTerms().add(
          new NodeSelectorTermBuilder()
              .withMatchExpressions(term.matchExpressions().stream().map(AllocationResults::requirement).toList())
              .withMatchFields(term.matchFields().stream().map(AllocationResults::requirement).toList())
              .build());
    }
    return selector;
  }

  private static io.fabric8.kubernetes.api.model.NodeSelectorRequirement requirement(NodeSelectorRequirement r) {
    var operator = switch (r.operator()) {
      case IN -> "In";
      case NOT_IN -> "NotIn";
      case EXISTS -> "Exists";
      case DOES_NOT_EXIST -> "DoesNotExist";
      case GT -> "Gt";
      case LT -> "Lt";
    };
    return new NodeSelectorRequirementBuilder().withKey(r.key()).withOperator(operator).withValues(r.values()).build();
  }
}
