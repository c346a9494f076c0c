package io.kubesched.fabric8;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSchedulingGroup;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/** {@link Fabric8Compat} on fabric8 8 and Jackson 3: the model has every field the scheduler reads. */
final class Fabric8CompatImpl implements Fabric8Compat {

  static final Fabric8CompatImpl INSTANCE = new Fabric8CompatImpl();

  private Fabric8CompatImpl() {}

  @Override
  public String jacksonMapperClass() {
    return "tools.jackson.databind.ObjectMapper";
  }

  @Override
  public KubernetesSerialization leanSerialization(List<Class<? extends KubernetesResource>> kinds) {
    return Fabric8Compat.registering(new LeanSerialization(leanMapper()), kinds);
  }

  @Override
  public KubernetesSerialization referenceSerialization(List<Class<? extends KubernetesResource>> kinds) {
    return Fabric8Compat.registering(new KubernetesSerialization(withoutManagedFields(), false), kinds);
  }

  @Override
  public KubernetesSerialization plainSerialization() {
    return new KubernetesSerialization(fabric8Mapper().build(), false);
  }

  private static ObjectMapper withoutManagedFields() {
    return fabric8Mapper().addMixIn(ObjectMeta.class, WithoutManagedFields.class).build();
  }

  /**
   * {@link #withoutManagedFields()}, with fabric8's model decoded from its fields ({@link ModelDeserializers})
   * and its {@code Editable} interfaces read raw ({@link ModelTypeFactory}): together they keep Jackson from
   * loading the model's builders.
   */
  private static ObjectMapper leanMapper() {
    return fabric8Mapper()
        .addMixIn(ObjectMeta.class, WithoutManagedFields.class)
        .typeFactory(new ModelTypeFactory())
        .addModule(ModelDeserializers.module())
        .build();
  }

  /**
   * A mapper builder set up as fabric8's default serialization's (Jackson 2 defaults, fabric8's JDK types
   * module), for a {@link KubernetesSerialization} built with {@code searchClassloaders} false.
   */
  private static JsonMapper.Builder fabric8Mapper() {
    return JsonMapper.builderWithJackson2Defaults().addModule(new Jackson2JdkTypesModule());
  }

  @Override
  public HttpClient.Factory inlineJdkHttpClientFactory() {
    return new InlineHttpClientFactory();
  }

  @Override
  public @Nullable String tlsServerName(Config config) {
    return config.getTlsServerName();
  }

  @Override
  public Optional<String> typedSchedulingGroupName(PodSpec spec) {
    var group = spec.getSchedulingGroup();
    if (group == null) {
      return Optional.empty();
    }
    var name = group.getPodGroupName();
    return Optional.of(name == null ? "" : name);
  }

  @Override
  public @Nullable Object schedulingGroup(PodSpec spec) {
    return spec.getSchedulingGroup();
  }

  @Override
  public void setSchedulingGroup(PodSpec spec, @Nullable Object group) {
    spec.setSchedulingGroup((PodSchedulingGroup) group);
  }

  @Override
  public @Nullable Map<String, Quantity> allocatedResources(PodStatus status) {
    return status.getAllocatedResources();
  }

  @Override
  public void setAllocatedResources(PodStatus status, @Nullable Map<String, Quantity> allocated) {
    status.setAllocatedResources(allocated);
  }

  @Override
  public @Nullable ResourceRequirements resources(PodStatus status) {
    return status.getResources();
  }

  @Override
  public void setResources(PodStatus status, @Nullable ResourceRequirements resources) {
    status.setResources(resources);
  }

  @Override
  public @Nullable List<String> declaredFeatures(NodeStatus status) {
    return status.getDeclaredFeatures();
  }

  @Override
  public void setDeclaredFeatures(NodeStatus status, @Nullable List<String> features) {
    status.setDeclaredFeatures(features);
  }

  @Override
  public @Nullable List<String> bindMountOptions(VolumeMount mount) {
    return mount.getBindMountOptions();
  }

  @Override
  public void setBindMountOptions(VolumeMount mount, @Nullable List<String> options) {
    mount.setBindMountOptions(options);
  }

  @Override
  public List<@Nullable String> restartRuleActions(Container container) {
    var rules = container.getRestartPolicyRules();
    if (rules == null || rules.isEmpty()) {
      return List.of();
    }
    var actions = new ArrayList<@Nullable String>(rules.size());
    rules.forEach(rule -> actions.add(rule == null ? null : rule.getAction()));
    return actions;
  }

  @Override
  public void copyRestartPolicyRules(Container from, Container to) {
    var rules = from.getRestartPolicyRules();
    if (rules != null && !rules.isEmpty()) {
      to.setRestartPolicyRules(rules);
    }
  }

  @Override
  public void clearUnread(PodSpec spec) {
    spec.setEvictionResponders(List.of());
  }

  @Override
  public void clearUnread(PodStatus status) {
    status.setNodeAllocatableResourceClaimStatuses(List.of());
    status.setVolumeHealth(List.of());
  }

  @Override
  public void clearUnread(NodeStatus status) {
    status.setDeclaredFeatures(List.of());
  }

  @Override
  public void clearUnread(Container container) {
    container.setRestartPolicyRules(List.of());
  }

  /**
   * fabric8's serialization, with watch events decoded by {@link WatchEventDeserializer} and straight from the
   * string the watch received: fabric8's {@code unmarshal(String, Class)} copies the string into bytes and reads
   * them through a {@code BufferedInputStream} of 8 KiB, per event, to tell JSON from YAML, and a watch event is
   * always JSON. Everything else is fabric8's.
   */
  static final class LeanSerialization extends KubernetesSerialization {

    /**
     * The mapper fabric8 configured ({@code configureMapper}, called by the constructor; the field has no
     * initializer, so the constructor does not reset it afterwards); {@code null} would mean fabric8 stopped
     * calling it, and then every event goes fabric8's way.
     */
    private @Nullable ObjectMapper configured;

    LeanSerialization(ObjectMapper mapper) {
      super(mapper, false);
    }

    @Override
    protected ObjectMapper configureMapper(ObjectMapper mapper) {
      var module = new SimpleModule("kubesched-watch-events");
      module.addDeserializer(WatchEvent.class, new WatchEventDeserializer(this::getRegisteredKubernetesResource));
      var withEvents = super.configureMapper(mapper.rebuild().addModule(module).build());
      configured = withEvents;
      return withEvents;
    }

    @Override
    public <T> T unmarshal(String str, Class<T> type) {
      var mapper = configured;
      if (type == WatchEvent.class && mapper != null) {
        try {
          return mapper.readValue(str, type);
        } catch (RuntimeException e) {
          // fabric8's way, so that what it throws (and its caller's recovery) stays as it was
        }
      }
      return super.unmarshal(str, type);
    }
  }

  @Override
  public List<String> draAlphaFields(Object model) {
    var set = new ArrayList<String>();
    if (model instanceof ResourceSliceSpec spec) {
      addIf(set, spec.getPartitionTypeAttribute() != null && !spec.getPartitionTypeAttribute().isEmpty(), "partitionTypeAttribute");
      addIf(set, !isEmpty(spec.getSkipNodeOperations()), "skipNodeOperations");
    } else if (model instanceof Device device) {
      addIf(set, !isEmpty(device.getNodeAllocatableResources()), "nodeAllocatableResources");
    } else if (model instanceof DeviceAttribute attribute) {
      addIf(set, !isEmpty(attribute.getBools()), "bools");
      addIf(set, !isEmpty(attribute.getInts()), "ints");
      addIf(set, !isEmpty(attribute.getStrings()), "strings");
      addIf(set, !isEmpty(attribute.getVersions()), "versions");
    } else if (model instanceof DeviceCounterConsumption consumption) {
      addIf(set, !isEmpty(consumption.getCompatibilityGroups()), "compatibilityGroups");
    } else if (model instanceof ExactDeviceRequest request) {
      addIf(set, !isEmpty(request.getDerivedAttributes()), "derivedAttributes");
    } else if (model instanceof DeviceSubRequest request) {
      addIf(set, !isEmpty(request.getDerivedAttributes()), "derivedAttributes");
    } else if (model instanceof DeviceRequestAllocationResult result) {
      addIf(set, !isEmpty(result.getSkipNodeOperations()), "skipNodeOperations");
    }
    return set;
  }

  private static void addIf(List<String> set, boolean present, String field) {
    if (present) {
      set.add(field);
    }
  }

  private static boolean isEmpty(@Nullable Collection<?> values) {
    return values == null || values.isEmpty();
  }

  private static boolean isEmpty(@Nullable Map<?, ?> values) {
    return values == null || values.isEmpty();
  }
}
