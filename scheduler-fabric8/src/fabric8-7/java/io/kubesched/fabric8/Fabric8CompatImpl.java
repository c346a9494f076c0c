package io.kubesched.fabric8;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@link Fabric8Compat} on fabric8 7 and Jackson 2. Its model lacks fields newer than it ({@code
 * spec.schedulingGroup}, {@code status.allocatedResources} and {@code status.resources} of a pod): Jackson
 * keeps them in the object's {@code additionalProperties}, as decoded JSON (maps, lists, strings, numbers),
 * and the accessors here read and write them there. Its client has no TLS server name setting: a kubeconfig's
 * {@code tls-server-name} is not honoured on this line (fabric8 7 ignores it for every client it makes).
 */
final class Fabric8CompatImpl implements Fabric8Compat {

  static final Fabric8CompatImpl INSTANCE = new Fabric8CompatImpl();

  private static final String ALLOCATED_RESOURCES = "allocatedResources";
  private static final String RESOURCES = "resources";

  private final String builtFor = Fabric8Line.builtFor();

  private Fabric8CompatImpl() {}

  @Override
  public String builtFor() {
    return builtFor;
  }

  @Override
  public String jacksonMapperClass() {
    return "com.fasterxml.jackson.databind.ObjectMapper";
  }

  @Override
  public KubernetesSerialization leanSerialization(List<Class<? extends KubernetesResource>> kinds) {
    var serialization = new LeanSerialization(withoutManagedFields());
    kinds.forEach(serialization::registerKubernetesResource);
    return serialization;
  }

  @Override
  public KubernetesSerialization referenceSerialization(List<Class<? extends KubernetesResource>> kinds) {
    var serialization = new KubernetesSerialization(withoutManagedFields(), false);
    kinds.forEach(serialization::registerKubernetesResource);
    return serialization;
  }

  @Override
  public KubernetesSerialization plainSerialization() {
    return new KubernetesSerialization(new ObjectMapper(), false);
  }

  /** fabric8 7's default mapper ({@code new ObjectMapper()}, its modules added by the serialization) plus the mix-in. */
  private static ObjectMapper withoutManagedFields() {
    return JsonMapper.builder().addMixIn(ObjectMeta.class, WithoutManagedFields.class).build();
  }

  @Override
  public HttpClient.Factory inlineJdkHttpClientFactory() {
    return new InlineHttpClientFactory();
  }

  @Override
  public @Nullable String tlsServerName(Config config) {
    return null;
  }

  @Override
  public Optional<String> typedSchedulingGroupName(PodSpec spec) {
    return Optional.empty();
  }

  @Override
  public @Nullable Object schedulingGroup(PodSpec spec) {
    return null;
  }

  @Override
  public void setSchedulingGroup(PodSpec spec, @Nullable Object group) {
    // no typed field: a group stays in the spec's additional properties
  }

  @Override
  public @Nullable Map<String, Quantity> allocatedResources(PodStatus status) {
    return quantities(extra(status.getAdditionalProperties(), ALLOCATED_RESOURCES));
  }

  @Override
  public void setAllocatedResources(PodStatus status, @Nullable Map<String, Quantity> allocated) {
    status.setAdditionalProperties(with(status.getAdditionalProperties(), ALLOCATED_RESOURCES, allocated));
  }

  @Override
  public @Nullable ResourceRequirements resources(PodStatus status) {
    var value = extra(status.getAdditionalProperties(), RESOURCES);
    if (value == null || value instanceof ResourceRequirements) {
      return (ResourceRequirements) value;
    }
    var resources = new ResourceRequirements();
    if (value instanceof Map<?, ?> fields) {
      resources.setRequests(quantities(fields.get("requests")));
    } else {
      // Not an object: fabric8 8 fails to decode such a pod; here its requests cannot be read, and say so.
      resources.setRequests(Map.of("(status.resources)", new Quantity(String.valueOf(value))));
    }
    return resources;
  }

  @Override
  public void setResources(PodStatus status, @Nullable ResourceRequirements resources) {
    status.setAdditionalProperties(with(status.getAdditionalProperties(), RESOURCES, resources));
  }

  @Override
  public void clearUnread(PodSpec spec) {
    // fabric8 7's pod spec has none of fabric8 8's newer lists
  }

  @Override
  public void clearUnread(PodStatus status) {
    // fabric8 7's pod status has none of fabric8 8's newer lists
  }

  @Override
  public void clearUnread(NodeStatus status) {
    // fabric8 7's node status has none of fabric8 8's newer lists
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
    return copy;
  }

  /**
   * A resource list as fabric8 8's model decodes it: each value's text as a quantity; a value that is not a
   * string or number keeps its text, which the quantity's reader then rejects, naming the field.
   */
  @SuppressWarnings("unchecked")
  private static @Nullable Map<String, Quantity> quantities(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> entries)) {
      return Map.of("(not an object)", new Quantity(String.valueOf(value)));
    }
    if (entries.values().stream().allMatch(Quantity.class::isInstance)) {
      return (Map<String, Quantity>) entries;
    }
    var read = new LinkedHashMap<String, Quantity>();
    entries.forEach((name, quantity) -> read.put(String.valueOf(name),
        quantity instanceof Quantity q ? q : new Quantity(String.valueOf(quantity))));
    return read;
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
}
