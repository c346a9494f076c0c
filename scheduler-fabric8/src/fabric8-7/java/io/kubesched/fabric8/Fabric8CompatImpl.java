package io.kubesched.fabric8;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@link Fabric8Compat} on fabric8 7 and Jackson 2. Compiled against fabric8 7.5, whose model lacks fields newer
 * than it ({@code spec.schedulingGroup}, {@code status.allocatedResources} and {@code status.resources} of a pod):
 * there Jackson keeps them in the object's {@code additionalProperties}, as decoded JSON (maps, lists, strings,
 * numbers), and the accessors here read and write them there. A later fabric8 7 (7.9 has them all) decodes them
 * into typed properties, which the accessors then use through method handles found once, by name, at class
 * initialisation. The same for a kubeconfig's {@code tls-server-name}: fabric8 7.5 has no such setting (and
 * ignores it for every client it makes); a later 7 that has {@code Config.getTlsServerName()} gets it honoured by
 * the bindings' client too.
 */
final class Fabric8CompatImpl implements Fabric8Compat {

  static final Fabric8CompatImpl INSTANCE = new Fabric8CompatImpl();

  private static final String ALLOCATED_RESOURCES = "allocatedResources";
  private static final String RESOURCES = "resources";
  private static final String DECLARED_FEATURES = "declaredFeatures";
  private static final String BIND_MOUNT_OPTIONS = "bindMountOptions";
  private static final String RESTART_POLICY_RULES = "restartPolicyRules";

  /** The typed accessors of the running fabric8 7's model, {@code null} where it has none (7.5). */
  private static final @Nullable MethodHandle GET_ALLOCATED = method(PodStatus.class, "getAllocatedResources");
  private static final @Nullable MethodHandle SET_ALLOCATED =
      method(PodStatus.class, "setAllocatedResources", Map.class);
  private static final @Nullable MethodHandle GET_RESOURCES = method(PodStatus.class, "getResources");
  private static final @Nullable MethodHandle SET_RESOURCES =
      method(PodStatus.class, "setResources", ResourceRequirements.class);
  private static final @Nullable MethodHandle GET_GROUP = method(PodSpec.class, "getSchedulingGroup");
  private static final @Nullable MethodHandle SET_GROUP =
      GET_GROUP == null ? null : method(PodSpec.class, "setSchedulingGroup", GET_GROUP.type().returnType());
  private static final @Nullable MethodHandle GROUP_NAME =
      GET_GROUP == null ? null : method(GET_GROUP.type().returnType(), "getPodGroupName");
  private static final @Nullable MethodHandle TLS_SERVER_NAME = method(Config.class, "getTlsServerName");
  private static final @Nullable MethodHandle GET_DECLARED = method(NodeStatus.class, "getDeclaredFeatures");
  private static final @Nullable MethodHandle SET_DECLARED =
      method(NodeStatus.class, "setDeclaredFeatures", List.class);
  private static final @Nullable MethodHandle GET_BIND = method(VolumeMount.class, "getBindMountOptions");
  private static final @Nullable MethodHandle SET_BIND = method(VolumeMount.class, "setBindMountOptions", List.class);
  /** Typed on 7.5; fabric8 7.4 has no restart policy rules, so they are read from the additional properties there. */
  private static final @Nullable MethodHandle GET_RULES = method(Container.class, "getRestartPolicyRules");
  private static final @Nullable MethodHandle SET_RULES = method(Container.class, "setRestartPolicyRules", List.class);
  private static final @Nullable MethodHandle RULE_ACTION = GET_RULES == null ? null : ruleAction();
  /** The setters of lists the scheduler never reads, where the running model has them. */
  private static final List<MethodHandle> CLEAR_SPEC = methods(PodSpec.class, "setEvictionResponders");
  private static final List<MethodHandle> CLEAR_STATUS =
      methods(PodStatus.class, "setNodeAllocatableResourceClaimStatuses", "setVolumeHealth");
  private static final List<MethodHandle> CLEAR_NODE = methods(NodeStatus.class, "setDeclaredFeatures");
  private static final List<MethodHandle> CLEAR_CONTAINER = methods(Container.class, "setRestartPolicyRules");

  private Fabric8CompatImpl() {}

  @Override
  public String jacksonMapperClass() {
    return "com.fasterxml.jackson.databind.ObjectMapper";
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
    return new KubernetesSerialization(new ObjectMapper(), false);
  }

  /** fabric8 7's default mapper ({@code new ObjectMapper()}, its modules added by the serialization) plus the mix-in. */
  private static ObjectMapper withoutManagedFields() {
    return JsonMapper.builder().addMixIn(ObjectMeta.class, WithoutManagedFields.class).build();
  }

  /**
   * {@link #withoutManagedFields()}, with fabric8's model decoded from its fields ({@link ModelDeserializers})
   * and its {@code Editable} interfaces read raw ({@link ModelTypeFactory}): together they keep Jackson from
   * loading the model's builders.
   */
  private static ObjectMapper leanMapper() {
    return JsonMapper.builder()
        .addMixIn(ObjectMeta.class, WithoutManagedFields.class)
        .typeFactory(new ModelTypeFactory())
        .addModule(ModelDeserializers.module())
        .build();
  }

  @Override
  public HttpClient.Factory inlineJdkHttpClientFactory() {
    readJdkHttpClientModule();
    return new InlineHttpClientFactory();
  }

  /**
   * On the module path, makes this module read the one that holds fabric8's JDK HTTP client factory, which the
   * module descriptor cannot name for every fabric8 7 (see it). Like every fabric8 7 jar it is an automatic module,
   * resolved with the others. On the class path, and where it is read already, this changes nothing.
   */
  private static void readJdkHttpClientModule() {
    var own = Fabric8CompatImpl.class.getModule();
    if (!own.isNamed()) {
      return;
    }
    try {
      var factory = Class.forName(
          "io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory", false, Fabric8CompatImpl.class.getClassLoader());
      own.addReads(factory.getModule());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "io.fabric8:kubernetes-httpclient-jdk is not on the module path: kubesched talks to the API server"
              + " through fabric8's JDK HTTP client", e);
    }
  }

  @Override
  public @Nullable String tlsServerName(Config config) {
    return TLS_SERVER_NAME == null ? null : (String) invoke(TLS_SERVER_NAME, config);
  }

  @Override
  public Optional<String> typedSchedulingGroupName(PodSpec spec) {
    var group = schedulingGroup(spec);
    if (group == null || GROUP_NAME == null) {
      return Optional.empty();
    }
    var name = (String) invoke(GROUP_NAME, group);
    return Optional.of(name == null ? "" : name);
  }

  @Override
  public @Nullable Object schedulingGroup(PodSpec spec) {
    return GET_GROUP == null ? null : invoke(GET_GROUP, spec);
  }

  @Override
  public void setSchedulingGroup(PodSpec spec, @Nullable Object group) {
    if (SET_GROUP != null) {
      invoke(SET_GROUP, spec, group);
    } // else no typed field: a group stays in the spec's additional properties
  }

  @Override
  @SuppressWarnings("unchecked")
  public @Nullable Map<String, Quantity> allocatedResources(PodStatus status) {
    if (GET_ALLOCATED != null) {
      return (Map<String, Quantity>) invoke(GET_ALLOCATED, status);
    }
    return quantities(extra(status.getAdditionalProperties(), ALLOCATED_RESOURCES));
  }

  @Override
  public void setAllocatedResources(PodStatus status, @Nullable Map<String, Quantity> allocated) {
    if (SET_ALLOCATED != null) {
      invoke(SET_ALLOCATED, status, allocated);
      return;
    }
    status.setAdditionalProperties(with(status.getAdditionalProperties(), ALLOCATED_RESOURCES, allocated));
  }

  @Override
  public @Nullable ResourceRequirements resources(PodStatus status) {
    if (GET_RESOURCES != null) {
      return (ResourceRequirements) invoke(GET_RESOURCES, status);
    }
    var value = extra(status.getAdditionalProperties(), RESOURCES);
    if (value == null || value instanceof ResourceRequirements) {
      return (ResourceRequirements) value;
    }
    var resources = new ResourceRequirements();
    // Not an object: fabric8 8 fails to decode such a pod; here its requests are a value the reader rejects.
    resources.setRequests(value instanceof Map<?, ?> fields ? quantities(fields.get("requests")) : notAnObject(value));
    return resources;
  }

  @Override
  public void setResources(PodStatus status, @Nullable ResourceRequirements resources) {
    if (SET_RESOURCES != null) {
      invoke(SET_RESOURCES, status, resources);
      return;
    }
    status.setAdditionalProperties(with(status.getAdditionalProperties(), RESOURCES, resources));
  }

  @Override
  public @Nullable List<String> declaredFeatures(NodeStatus status) {
    if (GET_DECLARED != null) {
      return texts(invoke(GET_DECLARED, status));
    }
    return texts(extra(status.getAdditionalProperties(), DECLARED_FEATURES));
  }

  @Override
  public void setDeclaredFeatures(NodeStatus status, @Nullable List<String> features) {
    if (SET_DECLARED != null) {
      invoke(SET_DECLARED, status, features);
      return;
    }
    status.setAdditionalProperties(with(status.getAdditionalProperties(), DECLARED_FEATURES, features));
  }

  @Override
  public @Nullable List<String> bindMountOptions(VolumeMount mount) {
    if (GET_BIND != null) {
      return texts(invoke(GET_BIND, mount));
    }
    return texts(extra(mount.getAdditionalProperties(), BIND_MOUNT_OPTIONS));
  }

  @Override
  public void setBindMountOptions(VolumeMount mount, @Nullable List<String> options) {
    if (SET_BIND != null) {
      invoke(SET_BIND, mount, options);
      return;
    }
    mount.setAdditionalProperties(with(mount.getAdditionalProperties(), BIND_MOUNT_OPTIONS, options));
  }

  @Override
  public List<@Nullable String> restartRuleActions(Container container) {
    var rules = GET_RULES != null
        ? invoke(GET_RULES, container)
        : extra(container.getAdditionalProperties(), RESTART_POLICY_RULES);
    if (!(rules instanceof List<?> list) || list.isEmpty()) {
      return List.of();
    }
    var actions = new ArrayList<@Nullable String>(list.size());
    for (var rule : list) {
      Object action;
      if (rule == null) {
        action = null;
      } else if (rule instanceof Map<?, ?> fields) {
        action = fields.get("action");
      } else {
        action = RULE_ACTION == null ? null : invoke(RULE_ACTION, rule);
      }
      actions.add(action == null ? null : action.toString());
    }
    return actions;
  }

  @Override
  public void copyRestartPolicyRules(Container from, Container to) {
    if (GET_RULES != null && SET_RULES != null) {
      var rules = invoke(GET_RULES, from);
      if (rules instanceof List<?> list && !list.isEmpty()) {
        invoke(SET_RULES, to, rules);
      }
      return;
    }
    var rules = extra(from.getAdditionalProperties(), RESTART_POLICY_RULES);
    if (rules != null) {
      to.setAdditionalProperties(with(to.getAdditionalProperties(), RESTART_POLICY_RULES, rules));
    }
  }

  @Override
  public void clearUnread(PodSpec spec) {
    CLEAR_SPEC.forEach(setter -> invoke(setter, spec, List.of()));
  }

  @Override
  public void clearUnread(PodStatus status) {
    CLEAR_STATUS.forEach(setter -> invoke(setter, status, List.of()));
  }

  @Override
  public void clearUnread(NodeStatus status) {
    CLEAR_NODE.forEach(setter -> invoke(setter, status, List.of()));
  }

  @Override
  public void clearUnread(Container container) {
    CLEAR_CONTAINER.forEach(setter -> invoke(setter, container, List.of()));
  }

  /** A public method of the running model by name and parameter types, or {@code null} if it has none. */
  private static @Nullable MethodHandle method(Class<?> type, String name, Class<?>... parameters) {
    try {
      return MethodHandles.publicLookup().unreflect(type.getMethod(name, parameters));
    } catch (NoSuchMethodException e) {
      return null;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("fabric8's " + type.getName() + "." + name + " is not accessible", e);
    }
  }

  /** The getter of a restart rule's action, where the running model has restart rules. */
  private static @Nullable MethodHandle ruleAction() {
    try {
      var rule = Class.forName(
          "io.fabric8.kubernetes.api.model.ContainerRestartRule", false, Container.class.getClassLoader());
      return method(rule, "getAction");
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  /** A list of texts as fabric8 8 decodes a list of strings: each entry's text, a JSON {@code null} as null. */
  @SuppressWarnings("unchecked")
  private static @Nullable List<String> texts(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof List<?> entries)) {
      return List.of(value + " (not a list)");
    }
    if (entries.stream().allMatch(e -> e == null || e instanceof String)) {
      return (List<String>) entries;
    }
    var read = new ArrayList<String>(entries.size());
    entries.forEach(e -> read.add(e == null ? null : e.toString()));
    return read;
  }

  private static List<MethodHandle> methods(Class<?> type, String... listSetters) {
    var found = new ArrayList<MethodHandle>();
    for (var name : listSetters) {
      var setter = method(type, name, List.class);
      if (setter != null) {
        found.add(setter);
      }
    }
    return List.copyOf(found);
  }

  private static @Nullable Object invoke(MethodHandle handle, Object... arguments) {
    try {
      return handle.invokeWithArguments(arguments);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  private static @Nullable Object extra(@Nullable Map<String, Object> extras, String name) {
    return extras == null ? null : extras.get(name);
  }

  private static Map<String, Object> with(@Nullable Map<String, Object> extras, String name, @Nullable Object value) {
    var copy = new LinkedHashMap<String, Object>(extras == null ? Map.of() : extras);
    if (value == null) {
      copy.remove(name);
    } else {
      copy.put(name, value);
    }
    return Collections.unmodifiableMap(copy);
  }

  /**
   * A resource list as fabric8 8's model decodes it: each value's text as a quantity, unparsed (amount the text,
   * no format), so that the adapter's reader judges it and names the field: a JSON {@code null} as no quantity,
   * a value that is not a string or number as a text no quantity has.
   */
  @SuppressWarnings("unchecked")
  private static @Nullable Map<String, @Nullable Quantity> quantities(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> entries)) {
      return notAnObject(value);
    }
    if (entries.values().stream().allMatch(Quantity.class::isInstance)) {
      return (Map<String, @Nullable Quantity>) entries;
    }
    var read = new LinkedHashMap<String, @Nullable Quantity>();
    entries.forEach((name, quantity) -> read.put(String.valueOf(name), quantity(quantity)));
    return read;
  }

  private static @Nullable Quantity quantity(@Nullable Object value) {
    if (value == null || value instanceof Quantity) {
      return (Quantity) value;
    }
    var text = value instanceof String || value instanceof Number ? value.toString() : value + " (not a quantity)";
    return new Quantity(text, "");
  }

  /** A list in the place of one that is not an object: one entry whose text no quantity has. */
  private static Map<String, @Nullable Quantity> notAnObject(Object value) {
    return Map.of("", new Quantity(value + " (not an object)", ""));
  }

  /**
   * fabric8's serialization, with watch events decoded by {@link WatchEventDeserializer} and straight from the
   * string the watch received (why: the fabric8 8 line's). fabric8 7's mapper is mutable and its {@code
   * configureMapper} returns nothing: the module is added to the mapper fabric8 configures.
   */
  static final class LeanSerialization extends KubernetesSerialization {

    /** The mapper fabric8 configured; {@code null} would mean fabric8 stopped calling {@code configureMapper}. */
    private @Nullable ObjectMapper configured;

    LeanSerialization(ObjectMapper mapper) {
      super(mapper, false);
    }

    @Override
    protected void configureMapper(ObjectMapper mapper) {
      var module = new SimpleModule("kubesched-watch-events");
      module.addDeserializer(WatchEvent.class, new WatchEventDeserializer(this::getRegisteredKubernetesResource));
      mapper.registerModule(module);
      super.configureMapper(mapper);
      configured = mapper;
    }

    @Override
    public <T> T unmarshal(String str, Class<T> type) {
      var mapper = configured;
      if (type == WatchEvent.class && mapper != null) {
        try {
          return mapper.readValue(str, type);
        } catch (RuntimeException | IOException e) {
          // fabric8's way, so that what it throws (and its caller's recovery) stays as it was
        }
      }
      return super.unmarshal(str, type);
    }
  }

  @Override
  public List<String> draAlphaFields(Object model) {
    // fabric8 7.5 types none of kube 1.37's DRA alpha fields: they arrive in the additional properties.
    return List.of();
  }
}
