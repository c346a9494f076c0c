package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.Owner;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocatedDeviceStatus;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimConfig;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.CounterConsumption;
import io.kubesched.api.CounterSet;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceConstraint;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.DeviceToleration;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.OpaqueConfig;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourcePool;
import io.kubesched.api.ResourceSlice;
import io.kubesched.fabric8.Fabric8Compat;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The dynamic resource allocation objects of {@code resource.k8s.io/v1} (ResourceSlices, DeviceClasses,
 * ResourceClaims, DeviceTaintRules) read into {@code io.kubesched.api}, as pure functions. The Kubernetes rules
 * applied here:
 *
 * <ul>
 *   <li>Quantities are read as {@code Quantity.UnmarshalJSON} reads them: white space around the text is ignored
 *       ({@link Quantities#trimSpace}), the rest parsed exactly ({@link Quantity#parse}).
 *   <li>An unset allocation mode is {@code ExactCount}, an unset count 1 for it (the API server's defaults); an
 *       unset toleration operator is {@code Equal}.
 *   <li>A DeviceTaintRule without {@code spec.deviceSelector} matches no device, so it is read as no rule.
 *   <li>An alpha field of kube 1.37 (list-typed attributes, derived attributes, compatibility groups, node
 *       allocatable resources, partition types, optional node operations), which the API server serves only
 *       with its gate on, is refused: placing as if it were absent could place wrongly.
 * </ul>
 *
 * <p>DeviceTaintRules are read from {@link GenericKubernetesResource}s: fabric8 7.5 has no model of their {@code
 * resource.k8s.io/v1} version. Unset strings, lists and maps read as empty, as Go reads them. Safe to call from
 * any thread; never returns {@code null}.
 */
public final class DynamicResourceAdapter {

  /** The API group and version of every object read here. */
  public static final String API_VERSION = "resource.k8s.io/v1";

  /** The JSON names of kube 1.37's DRA alpha fields, wherever fabric8 keeps them untyped. */
  private static final Set<String> ALPHA_FIELDS =
      Set.of(
          "partitionTypeAttribute",
          "skipNodeOperations",
          "nodeAllocatableResources",
          "bools",
          "ints",
          "strings",
          "versions",
          "compatibilityGroups",
          "derivedAttributes");

  private static final String ALPHA = "is an alpha field of kube 1.37 that the scheduler does not implement";

  private DynamicResourceAdapter() {}

  /**
   * @return what the allocator reads of {@code slice}
   * @throws MalformedObjectException naming the slice, field and value, if it has no spec, selects no nodes, a
   *     quantity or attribute is malformed, or an alpha field is set
   */
  public static ResourceSlice slice(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice slice) {
    var meta = meta(slice);
    var object = "ResourceSlice " + orEmpty(meta.getName());
    var spec = slice.getSpec();
    if (spec == null) {
      throw new MalformedObjectException(object, "spec", "", "must be set", null);
    }
    refuseAlpha(spec, spec.getAdditionalProperties(), object, "spec");
    var pool = spec.getPool();
    var perDevice = Boolean.TRUE.equals(spec.getPerDeviceNodeSelection());
    NodeSelection selection =
        perDevice
            ? NodeSelection.NONE
            : nodeSelection(spec.getNodeName(), spec.getNodeSelector(), spec.getAllNodes(), object, "spec");
    if (!perDevice && selection.isNone()) {
      throw new MalformedObjectException(
          object, "spec.nodeName", "", "one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection must be set",
          null);
    }
    var devices = new ArrayList<Device>();
    var specDevices = orEmpty(spec.getDevices());
    for (int i = 0; i < specDevices.size(); i++) {
      devices.add(device(specDevices.get(i), perDevice, object, "spec.devices[" + i + "]"));
    }
    var counterSets = new ArrayList<CounterSet>();
    var shared = orEmpty(spec.getSharedCounters());
    for (int i = 0; i < shared.size(); i++) {
      var set = shared.get(i);
      var field = "spec.sharedCounters[" + i + "]";
      if (set == null) {
        throw new MalformedObjectException(object, field, "null", "must be a counter set", null);
      }
      counterSets.add(new CounterSet(orEmpty(set.getName()), counters(set.getCounters(), object, field + ".counters")));
    }
    return new ResourceSlice(
        orEmpty(meta.getName()),
        orEmpty(spec.getDriver()),
        new ResourcePool(
            pool == null ? "" : orEmpty(pool.getName()),
            pool == null || pool.getGeneration() == null ? 0 : pool.getGeneration(),
            pool == null || pool.getResourceSliceCount() == null ? 0 : pool.getResourceSliceCount()),
        selection,
        perDevice,
        devices,
        counterSets);
  }

  /**
   * @return what the allocator reads of {@code deviceClass}
   * @throws MalformedObjectException naming the class, field and value, if a selector has no CEL expression
   */
  public static DeviceClass deviceClass(io.fabric8.kubernetes.api.model.resource.v1.DeviceClass deviceClass) {
    var meta = meta(deviceClass);
    var object = "DeviceClass " + orEmpty(meta.getName());
    var spec = deviceClass.getSpec();
    if (spec == null) {
      return new DeviceClass(orEmpty(meta.getName()), List.of(), List.of(), null);
    }
    var config = new ArrayList<OpaqueConfig>();
    var specConfig = orEmpty(spec.getConfig());
    for (int i = 0; i < specConfig.size(); i++) {
      var entry = specConfig.get(i);
      config.add(opaque(entry == null ? null : entry.getOpaque(), object, "spec.config[" + i + "].opaque"));
    }
    var extended = spec.getExtendedResourceName();
    return new DeviceClass(
        orEmpty(meta.getName()),
        selectors(spec.getSelectors(), object, "spec.selectors"),
        config,
        extended == null || extended.isEmpty() ? null : extended);
  }

  /**
   * @return what the allocator and the binding read of {@code claim}: its requests, its allocation and who it is
   *     reserved for
   * @throws MalformedObjectException naming the claim, field and value, if a request has neither {@code exactly}
   *     nor {@code firstAvailable}, an allocation mode, effect, quantity or time is malformed, or an alpha field
   *     is set
   */
  public static ResourceClaim claim(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim claim) {
    var meta = meta(claim);
    var object = "ResourceClaim " + orEmpty(meta.getNamespace()) + "/" + orEmpty(meta.getName());
    var spec = claim.getSpec();
    var devices = spec == null ? null : spec.getDevices();
    var requests = new ArrayList<DeviceRequest>();
    var constraints = new ArrayList<DeviceConstraint>();
    var config = new ArrayList<ClaimConfig>();
    if (devices != null) {
      var specRequests = orEmpty(devices.getRequests());
      for (int i = 0; i < specRequests.size(); i++) {
        requests.add(request(specRequests.get(i), object, "spec.devices.requests[" + i + "]"));
      }
      for (var constraint : orEmpty(devices.getConstraints())) {
        if (constraint != null) {
          constraints.add(
              new DeviceConstraint(
                  strings(constraint.getRequests()),
                  emptyToNull(constraint.getMatchAttribute()),
                  emptyToNull(constraint.getDistinctAttribute())));
        }
      }
      var specConfig = orEmpty(devices.getConfig());
      for (int i = 0; i < specConfig.size(); i++) {
        var entry = specConfig.get(i);
        var field = "spec.devices.config[" + i + "]";
        config.add(
            new ClaimConfig(
                ClaimConfig.FROM_CLAIM,
                entry == null ? List.of() : strings(entry.getRequests()),
                opaque(entry == null ? null : entry.getOpaque(), object, field + ".opaque")));
      }
    }
    var status = claim.getStatus();
    AllocationResult allocation = null;
    var reservedFor = new ArrayList<ConsumerRef>();
    var deviceStatuses = new ArrayList<AllocatedDeviceStatus>();
    if (status != null) {
      allocation = allocation(status.getAllocation(), object, "status.allocation");
      for (var device : orEmpty(status.getDevices())) {
        if (device != null) {
          deviceStatuses.add(deviceStatus(device));
        }
      }
      for (ResourceClaimConsumerReference consumer : orEmpty(status.getReservedFor())) {
        if (consumer != null) {
          reservedFor.add(
              new ConsumerRef(
                  orEmpty(consumer.getApiGroup()),
                  orEmpty(consumer.getResource()),
                  orEmpty(consumer.getName()),
                  orEmpty(consumer.getUid())));
        }
      }
    }
    return new ResourceClaim(
        orEmpty(meta.getNamespace()),
        orEmpty(meta.getName()),
        orEmpty(meta.getUid()),
        orEmpty(meta.getResourceVersion()),
        controller(meta.getOwnerReferences()),
        nonNullValues(meta.getAnnotations()),
        requests,
        constraints,
        config,
        allocation,
        reservedFor,
        meta.getDeletionTimestamp() != null,
        deviceStatuses);
  }

  /** A {@code status.devices} entry: the device and its conditions (what binding conditions are checked against). */
  private static AllocatedDeviceStatus deviceStatus(io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus device) {
    var conditions = new ArrayList<AllocatedDeviceStatus.Condition>();
    for (var condition : orEmpty(device.getConditions())) {
      if (condition != null) {
        conditions.add(new AllocatedDeviceStatus.Condition(
            orEmpty(condition.getType()), orEmpty(condition.getStatus()), orEmpty(condition.getReason()),
            orEmpty(condition.getMessage())));
      }
    }
    return new AllocatedDeviceStatus(
        orEmpty(device.getDriver()), orEmpty(device.getPool()), orEmpty(device.getDevice()),
        emptyToNull(device.getShareID()), conditions);
  }

  /**
   * @param rule a {@code resource.k8s.io/v1} DeviceTaintRule, as fabric8 decodes any object
   * @return what the allocator reads of {@code rule}; empty for a rule without {@code spec.deviceSelector}, which
   *     matches no device
   * @throws MalformedObjectException naming the rule, field and value, if the taint's effect is not one
   *     Kubernetes knows, its time is not an RFC 3339 time, or a field has the wrong JSON type
   */
  public static Optional<DeviceTaintRule> taintRule(GenericKubernetesResource rule) {
    var meta = meta(rule);
    var object = "DeviceTaintRule " + orEmpty(meta.getName());
    var spec = map(rule.getAdditionalProperties().get("spec"), object, "spec");
    var selector = map(spec.get("deviceSelector"), object, "spec.deviceSelector");
    if (!spec.containsKey("deviceSelector") || spec.get("deviceSelector") == null) {
      return Optional.empty();
    }
    var taint = map(spec.get("taint"), object, "spec.taint");
    var effect = string(taint.get("effect"), object, "spec.taint.effect");
    var timeAdded = string(taint.get("timeAdded"), object, "spec.taint.timeAdded");
    return Optional.of(
        new DeviceTaintRule(
            orEmpty(meta.getName()),
            optionalString(selector.get("driver"), object, "spec.deviceSelector.driver"),
            optionalString(selector.get("pool"), object, "spec.deviceSelector.pool"),
            optionalString(selector.get("device"), object, "spec.deviceSelector.device"),
            new DeviceTaint(
                string(taint.get("key"), object, "spec.taint.key"),
                string(taint.get("value"), object, "spec.taint.value"),
                taintEffect(effect, object, "spec.taint.effect"),
                time(timeAdded.isEmpty() ? null : timeAdded, object, "spec.taint.timeAdded"))));
  }

  private static Device device(
      io.fabric8.kubernetes.api.model.resource.v1.@Nullable Device device,
      boolean perDevice,
      String object,
      String field) {
    if (device == null) {
      throw new MalformedObjectException(object, field, "null", "must be a device", null);
    }
    refuseAlpha(device, device.getAdditionalProperties(), object, field);
    var attributes = new HashMap<String, DeviceAttribute>();
    orEmpty(device.getAttributes())
        .forEach((name, value) -> attributes.put(name, attribute(value, object, field + ".attributes[" + name + "]")));
    var capacity = new HashMap<String, DeviceCapacity>();
    orEmpty(device.getCapacity())
        .forEach((name, value) -> capacity.put(name, capacity(value, object, field + ".capacity[" + name + "]")));
    var consumes = new ArrayList<CounterConsumption>();
    var consumptions = orEmpty(device.getConsumesCounters());
    for (int i = 0; i < consumptions.size(); i++) {
      var consumption = consumptions.get(i);
      var at = field + ".consumesCounters[" + i + "]";
      if (consumption == null) {
        throw new MalformedObjectException(object, at, "null", "must be a counter consumption", null);
      }
      refuseAlpha(consumption, consumption.getAdditionalProperties(), object, at);
      consumes.add(
          new CounterConsumption(
              orEmpty(consumption.getCounterSet()), counters(consumption.getCounters(), object, at + ".counters")));
    }
    var selection =
        perDevice
            ? nodeSelection(device.getNodeName(), device.getNodeSelector(), device.getAllNodes(), object, field)
            : NodeSelection.NONE;
    if (perDevice && selection.isNone()) {
      throw new MalformedObjectException(
          object, field + ".nodeName", "", "one of nodeName, nodeSelector, allNodes must be set per device", null);
    }
    var taints = new ArrayList<DeviceTaint>();
    var deviceTaints = orEmpty(device.getTaints());
    for (int i = 0; i < deviceTaints.size(); i++) {
      var taint = deviceTaints.get(i);
      var at = field + ".taints[" + i + "]";
      if (taint == null) {
        throw new MalformedObjectException(object, at, "null", "must be a taint", null);
      }
      taints.add(
          new DeviceTaint(
              orEmpty(taint.getKey()),
              orEmpty(taint.getValue()),
              taintEffect(orEmpty(taint.getEffect()), object, at + ".effect"),
              time(taint.getTimeAdded(), object, at + ".timeAdded")));
    }
    return new Device(
        orEmpty(device.getName()),
        attributes,
        capacity,
        consumes,
        selection,
        taints,
        Boolean.TRUE.equals(device.getBindsToNode()),
        strings(device.getBindingConditions()),
        strings(device.getBindingFailureConditions()),
        Boolean.TRUE.equals(device.getAllowMultipleAllocations()));
  }

  private static DeviceAttribute attribute(
      io.fabric8.kubernetes.api.model.resource.v1.@Nullable DeviceAttribute attribute, String object, String field) {
    if (attribute == null) {
      throw new MalformedObjectException(object, field, "null", "must set exactly one of int, bool, string, version",
          null);
    }
    refuseAlpha(attribute, attribute.getAdditionalProperties(), object, field);
    var values = new ArrayList<DeviceAttribute>(1);
    if (attribute.getInt() != null) {
      values.add(new DeviceAttribute.IntValue(attribute.getInt()));
    }
    if (attribute.getBool() != null) {
      values.add(new DeviceAttribute.BoolValue(attribute.getBool()));
    }
    if (attribute.getString() != null) {
      values.add(new DeviceAttribute.StringValue(attribute.getString()));
    }
    if (attribute.getVersion() != null) {
      values.add(new DeviceAttribute.VersionValue(attribute.getVersion()));
    }
    if (values.size() != 1) {
      throw new MalformedObjectException(
          object, field, values.toString(), "must set exactly one of int, bool, string, version", null);
    }
    return values.get(0);
  }

  private static DeviceCapacity capacity(
      io.fabric8.kubernetes.api.model.resource.v1.@Nullable DeviceCapacity capacity, String object, String field) {
    if (capacity == null || capacity.getValue() == null) {
      throw new MalformedObjectException(object, field + ".value", "", "must be set", null);
    }
    var value = quantity(capacity.getValue(), object, field + ".value");
    var policy = capacity.getRequestPolicy();
    if (policy == null) {
      return new DeviceCapacity(value, null);
    }
    var at = field + ".requestPolicy";
    var validValues = new ArrayList<Quantity>();
    var listed = orEmpty(policy.getValidValues());
    for (int i = 0; i < listed.size(); i++) {
      validValues.add(quantity(listed.get(i), object, at + ".validValues[" + i + "]"));
    }
    var range = policy.getValidRange();
    DeviceCapacity.Range validRange = null;
    if (range != null) {
      if (range.getMin() == null) {
        throw new MalformedObjectException(object, at + ".validRange.min", "", "must be set", null);
      }
      validRange =
          new DeviceCapacity.Range(
              quantity(range.getMin(), object, at + ".validRange.min"),
              optionalQuantity(range.getMax(), object, at + ".validRange.max"),
              optionalQuantity(range.getStep(), object, at + ".validRange.step"));
    }
    return new DeviceCapacity(
        value,
        new DeviceCapacity.RequestPolicy(
            optionalQuantity(policy.getDefault(), object, at + ".default"), validValues, validRange));
  }

  private static Map<String, Quantity> counters(@Nullable Map<String, Counter> counters, String object, String field) {
    var read = new HashMap<String, Quantity>();
    orEmpty(counters)
        .forEach(
            (name, counter) -> {
              var at = field + "[" + name + "].value";
              if (counter == null || counter.getValue() == null) {
                throw new MalformedObjectException(object, at, "", "must be set", null);
              }
              read.put(name, quantity(counter.getValue(), object, at));
            });
    return read;
  }

  private static DeviceRequest request(
      io.fabric8.kubernetes.api.model.resource.v1.@Nullable DeviceRequest request, String object, String field) {
    if (request == null) {
      throw new MalformedObjectException(object, field, "null", "must be a request", null);
    }
    var name = orEmpty(request.getName());
    var exactly = request.getExactly();
    var firstAvailable = orEmpty(request.getFirstAvailable());
    if ((exactly == null) == firstAvailable.isEmpty()) {
      throw new MalformedObjectException(
          object, field, name, "must set exactly one of exactly and firstAvailable", null);
    }
    if (exactly != null) {
      var at = field + ".exactly";
      refuseAlpha(exactly, exactly.getAdditionalProperties(), object, at);
      return DeviceRequest.exactly(
          name,
          requirements(
              exactly.getDeviceClassName(),
              exactly.getSelectors(),
              exactly.getAllocationMode(),
              exactly.getCount(),
              Boolean.TRUE.equals(exactly.getAdminAccess()),
              exactly.getTolerations(),
              exactly.getCapacity(),
              object,
              at));
    }
    var alternatives = new ArrayList<DeviceRequest.SubRequest>();
    for (int i = 0; i < firstAvailable.size(); i++) {
      var sub = firstAvailable.get(i);
      var at = field + ".firstAvailable[" + i + "]";
      if (sub == null) {
        throw new MalformedObjectException(object, at, "null", "must be a sub-request", null);
      }
      refuseAlpha(sub, sub.getAdditionalProperties(), object, at);
      alternatives.add(
          new DeviceRequest.SubRequest(
              orEmpty(sub.getName()),
              requirements(
                  sub.getDeviceClassName(),
                  sub.getSelectors(),
                  sub.getAllocationMode(),
                  sub.getCount(),
                  false,
                  sub.getTolerations(),
                  sub.getCapacity(),
                  object,
                  at)));
    }
    return new DeviceRequest(name, null, alternatives);
  }

  private static DeviceRequirements requirements(
      @Nullable String className,
      @Nullable List<DeviceSelector> selectors,
      @Nullable String mode,
      @Nullable Long count,
      boolean adminAccess,
      @Nullable List<io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration> tolerations,
      @Nullable CapacityRequirements capacity,
      String object,
      String field) {
    var allocationMode =
        switch (orEmpty(mode)) {
          case "", "ExactCount" -> AllocationMode.EXACT_COUNT;
          case "All" -> AllocationMode.ALL;
          default -> throw new MalformedObjectException(
              object, field + ".allocationMode", orEmpty(mode), "is not ExactCount or All", null);
        };
    long devices = count != null ? count : allocationMode == AllocationMode.EXACT_COUNT ? 1 : 0;
    var read = new ArrayList<DeviceToleration>();
    var listed = orEmpty(tolerations);
    for (int i = 0; i < listed.size(); i++) {
      read.add(toleration(listed.get(i), object, field + ".tolerations[" + i + "]"));
    }
    var capacityRequests = new HashMap<String, Quantity>();
    if (capacity != null) {
      orEmpty(capacity.getRequests())
          .forEach(
              (name, q) ->
                  capacityRequests.put(name, quantity(q, object, field + ".capacity.requests[" + name + "]")));
    }
    return new DeviceRequirements(
        orEmpty(className),
        selectors(selectors, object, field + ".selectors"),
        allocationMode,
        devices,
        adminAccess,
        read,
        capacityRequests);
  }

  private static DeviceToleration toleration(
      io.fabric8.kubernetes.api.model.resource.v1.@Nullable DeviceToleration toleration, String object, String field) {
    if (toleration == null) {
      throw new MalformedObjectException(object, field, "null", "must be a toleration", null);
    }
    var operator = orEmpty(toleration.getOperator());
    if (!operator.isEmpty() && !operator.equals("Equal") && !operator.equals("Exists")) {
      throw new MalformedObjectException(object, field + ".operator", operator, "is not Equal or Exists", null);
    }
    var effect = orEmpty(toleration.getEffect());
    return new DeviceToleration(
        orEmpty(toleration.getKey()),
        operator.isEmpty() ? "Equal" : operator,
        orEmpty(toleration.getValue()),
        effect.isEmpty() ? null : taintEffect(effect, object, field + ".effect"),
        toleration.getTolerationSeconds());
  }

  private static @Nullable AllocationResult allocation(
      io.fabric8.kubernetes.api.model.resource.v1.@Nullable AllocationResult allocation, String object, String field) {
    if (allocation == null) {
      return null;
    }
    var devices = new ArrayList<DeviceAllocation>();
    var config = new ArrayList<ClaimConfig>();
    var allocated = allocation.getDevices();
    if (allocated != null) {
      var results = orEmpty(allocated.getResults());
      for (int i = 0; i < results.size(); i++) {
        var result = results.get(i);
        var at = field + ".devices.results[" + i + "]";
        if (result == null) {
          throw new MalformedObjectException(object, at, "null", "must be a device allocation", null);
        }
        refuseAlpha(result, result.getAdditionalProperties(), object, at);
        var tolerations = new ArrayList<DeviceToleration>();
        var listed = orEmpty(result.getTolerations());
        for (int j = 0; j < listed.size(); j++) {
          tolerations.add(toleration(listed.get(j), object, at + ".tolerations[" + j + "]"));
        }
        var consumed = new HashMap<String, Quantity>();
        orEmpty(result.getConsumedCapacity())
            .forEach((name, q) -> consumed.put(name, quantity(q, object, at + ".consumedCapacity[" + name + "]")));
        devices.add(
            new DeviceAllocation(
                orEmpty(result.getRequest()),
                orEmpty(result.getDriver()),
                orEmpty(result.getPool()),
                orEmpty(result.getDevice()),
                Boolean.TRUE.equals(result.getAdminAccess()),
                tolerations,
                strings(result.getBindingConditions()),
                strings(result.getBindingFailureConditions()),
                emptyToNull(result.getShareID()),
                consumed));
      }
      var configs = orEmpty(allocated.getConfig());
      for (int i = 0; i < configs.size(); i++) {
        var entry = configs.get(i);
        var at = field + ".devices.config[" + i + "]";
        if (entry == null) {
          throw new MalformedObjectException(object, at, "null", "must be a configuration", null);
        }
        config.add(
            new ClaimConfig(
                orEmpty(entry.getSource()), strings(entry.getRequests()), opaque(entry.getOpaque(), object, at)));
      }
    }
    List<NodeSelectorTerm> nodeSelector = null;
    if (allocation.getNodeSelector() != null) {
      nodeSelector = terms(allocation.getNodeSelector(), object, field + ".nodeSelector");
    }
    return new AllocationResult(
        devices, config, nodeSelector, time(allocation.getAllocationTimestamp(), object, field + ".allocationTimestamp"));
  }

  private static NodeSelection nodeSelection(
      @Nullable String nodeName,
      @Nullable NodeSelector selector,
      @Nullable Boolean allNodes,
      String object,
      String field) {
    int set = 0;
    NodeSelection selection = NodeSelection.NONE;
    if (nodeName != null && !nodeName.isEmpty()) {
      set++;
      selection = NodeSelection.node(nodeName);
    }
    if (selector != null) {
      set++;
      selection = NodeSelection.selector(terms(selector, object, field + ".nodeSelector"));
    }
    if (Boolean.TRUE.equals(allNodes)) {
      set++;
      selection = NodeSelection.ALL_NODES;
    }
    if (set > 1) {
      throw new MalformedObjectException(
          object, field + ".nodeName", orEmpty(nodeName), "only one of nodeName, nodeSelector, allNodes may be set",
          null);
    }
    return selection;
  }

  private static List<NodeSelectorTerm> terms(NodeSelector selector, String object, String field) {
    var terms = new ArrayList<NodeSelectorTerm>();
    var listed = orEmpty(selector.getNodeSelectorTerms());
    for (int i = 0; i < listed.size(); i++) {
      terms.add(Affinities.term(listed.get(i), object, field + ".nodeSelectorTerms[" + i + "]"));
    }
    return terms;
  }

  private static List<String> selectors(@Nullable List<DeviceSelector> selectors, String object, String field) {
    var expressions = new ArrayList<String>();
    var listed = orEmpty(selectors);
    for (int i = 0; i < listed.size(); i++) {
      var selector = listed.get(i);
      var cel = selector == null ? null : selector.getCel();
      if (cel == null) {
        throw new MalformedObjectException(object, field + "[" + i + "].cel", "", "must be set", null);
      }
      expressions.add(orEmpty(cel.getExpression()));
    }
    return expressions;
  }

  private static OpaqueConfig opaque(@Nullable OpaqueDeviceConfiguration opaque, String object, String field) {
    if (opaque == null) {
      throw new MalformedObjectException(object, field, "", "must be set", null);
    }
    var parameters = opaque.getParameters();
    var json = parameters == null ? "null" : Fabric8Compat.get().plainSerialization().asJson(parameters);
    return new OpaqueConfig(orEmpty(opaque.getDriver()), json);
  }

  private static DeviceTaint.Effect taintEffect(String text, String object, String field) {
    return switch (text) {
      case "NoSchedule" -> DeviceTaint.Effect.NO_SCHEDULE;
      case "NoExecute" -> DeviceTaint.Effect.NO_EXECUTE;
      case "None" -> DeviceTaint.Effect.NONE;
      default -> throw new MalformedObjectException(object, field, text, "is not NoSchedule, NoExecute or None", null);
    };
  }

  private static @Nullable Instant time(@Nullable String text, String object, String field) {
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new MalformedObjectException(object, field, text, "is not an RFC 3339 time", e);
    }
  }

  private static @Nullable Quantity optionalQuantity(
      io.fabric8.kubernetes.api.model.@Nullable Quantity quantity, String object, String field) {
    return quantity == null ? null : quantity(quantity, object, field);
  }

  /** Reads a quantity as kube's {@code Quantity.UnmarshalJSON}: trimmed of white space, then parsed exactly. */
  static Quantity quantity(io.fabric8.kubernetes.api.model.@Nullable Quantity quantity, String object, String field) {
    var text =
        quantity == null ? "" : orEmpty(quantity.getAmount()) + orEmpty(quantity.getFormat());
    try {
      return Quantity.parse(Quantities.trimSpace(text));
    } catch (IllegalArgumentException e) {
      throw new MalformedObjectException(object, field, text, "is not a valid quantity", e);
    }
  }

  private static void refuseAlpha(
      Object model, @Nullable Map<String, Object> additional, String object, String field) {
    for (var name : Fabric8Compat.get().draAlphaFields(model)) {
      throw new MalformedObjectException(object, field + "." + name, "set", ALPHA, null);
    }
    for (var name : orEmpty(additional).keySet()) {
      if (ALPHA_FIELDS.contains(name)) {
        throw new MalformedObjectException(object, field + "." + name, "set", ALPHA, null);
      }
    }
  }

  /** Kubernetes' {@code GetControllerOf}: the first owner reference marked as the controller. */
  private static @Nullable Owner controller(@Nullable List<OwnerReference> references) {
    for (var reference : orEmpty(references)) {
      if (reference != null && Boolean.TRUE.equals(reference.getController())) {
        return new Owner(orEmpty(reference.getKind()), orEmpty(reference.getName()), orEmpty(reference.getUid()));
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(@Nullable Object value, String object, String field) {
    if (value == null) {
      return Map.of();
    }
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new MalformedObjectException(object, field, String.valueOf(value), "is not an object", null);
  }

  private static String string(@Nullable Object value, String object, String field) {
    if (value == null) {
      return "";
    }
    if (value instanceof String text) {
      return text;
    }
    throw new MalformedObjectException(object, field, String.valueOf(value), "is not a string", null);
  }

  private static @Nullable String optionalString(@Nullable Object value, String object, String field) {
    return value == null ? null : string(value, object, field);
  }

  private static @Nullable String emptyToNull(@Nullable String text) {
    return text == null || text.isEmpty() ? null : text;
  }

  private static List<String> strings(@Nullable List<String> values) {
    return orEmpty(values).stream().map(v -> Objects.requireNonNullElse(v, "")).toList();
  }

  private static Map<String, String> nonNullValues(@Nullable Map<String, String> map) {
    var copy = new HashMap<String, String>();
    orEmpty(map).forEach((k, v) -> copy.put(k, Objects.requireNonNullElse(v, "")));
    return copy;
  }

  private static ObjectMeta meta(HasMetadata object) {
    return object.getMetadata() == null ? new ObjectMeta() : object.getMetadata();
  }
}
