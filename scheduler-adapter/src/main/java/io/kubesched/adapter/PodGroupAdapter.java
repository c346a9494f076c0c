package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.Resources;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@code PodGroup} object, as fabric8 reads it without a typed model ({@link GenericKubernetesResource}),
 * to a {@link PodGroup}, as pure functions. Two APIs define the object:
 *
 * <ul>
 *   <li>{@code scheduling.k8s.io/v1beta1} (Kubernetes' Workload API): {@code spec.schedulingPolicy} is
 *       exactly one of {@code gang: {minCount: n}} (minMember {@code n}, at least 1) and {@code basic: {}}
 *       (no all-or-nothing: minMember 1); {@code spec.priority} is the group's priority when set. There is
 *       neither a timeout nor a minimum of resources.
 *   <li>{@code scheduling.x-k8s.io/v1alpha1} (scheduler-plugins' coscheduling): {@code spec.minMember}
 *       (unset or 0 reads as 1: coscheduling's checks pass for any count then), {@code
 *       spec.scheduleTimeoutSeconds} (unset or 0: the scheduler's default) and {@code spec.minResources}
 *       (a resource list read with Kubernetes' quantity rules; {@code pods} only where the list names it);
 *       no priority.
 * </ul>
 *
 * Both take namespace, name, uid, {@code metadata.generation} (0 when unset) and the creation time (the
 * epoch when unset) from the metadata. Fields neither API defines are ignored.
 */
public final class PodGroupAdapter {

  /** The kind both APIs give the object. */
  public static final String KIND = "PodGroup";

  private PodGroupAdapter() {}

  /**
   * @param object a {@code PodGroup} of either API, told apart by its {@code apiVersion}
   * @return the group it defines
   * @throws MalformedObjectException naming the object, field and value, if the {@code apiVersion} is
   *     neither API's, or {@link #toPodGroup(PodGroupRef.Source, GenericKubernetesResource)} finds a field it
   *     cannot read
   */
  public static PodGroup toPodGroup(GenericKubernetesResource object) {
    var apiVersion = orEmpty(object.getApiVersion());
    for (var source : PodGroupRef.Source.values()) {
      if (source.apiVersion().equals(apiVersion)) {
        return toPodGroup(source, object);
      }
    }
    throw new MalformedObjectException(
        "PodGroup " + key(object.getMetadata()),
        "apiVersion",
        apiVersion,
        "is neither " + PodGroupRef.Source.WORKLOAD_API.apiVersion() + " nor "
            + PodGroupRef.Source.COSCHEDULING.apiVersion(),
        null);
  }

  /**
   * Reads {@code object} as {@code source}'s {@code PodGroup}, whatever {@code apiVersion} it carries: an
   * informer on one API knows the source even where the server leaves the list items' {@code apiVersion}
   * out.
   *
   * @param source the API {@code object} was read from
   * @param object the object
   * @return the group it defines
   * @throws MalformedObjectException naming the object (as {@code <apiVersion> PodGroup namespace/name}),
   *     field and value, if the namespace or name is empty, the kind is set and is not {@value #KIND}, the
   *     creation time is not RFC 3339, or a field of the source's spec (above) is missing, of the wrong type,
   *     out of range, or (a quantity) malformed
   */
  public static PodGroup toPodGroup(PodGroupRef.Source source, GenericKubernetesResource object) {
    var meta = Objects.requireNonNullElseGet(object.getMetadata(), ObjectMeta::new);
    var described = describe(source, meta);
    var namespace = orEmpty(meta.getNamespace());
    var name = orEmpty(meta.getName());
    if (namespace.isBlank()) {
      throw new MalformedObjectException(described, "metadata.namespace", namespace, "is empty", null);
    }
    if (name.isBlank()) {
      throw new MalformedObjectException(described, "metadata.name", name, "is empty", null);
    }
    var kind = orEmpty(object.getKind());
    if (!kind.isEmpty() && !KIND.equals(kind)) {
      throw new MalformedObjectException(described, "kind", kind, "is not " + KIND, null);
    }
    var ref = new PodGroupRef(source, namespace, name);
    var uid = orEmpty(meta.getUid());
    var generation = meta.getGeneration() == null ? 0L : meta.getGeneration();
    var created = created(meta, described);
    var spec = new Fields(described, object.getAdditionalProperties());
    spec.map("spec", source == PodGroupRef.Source.WORKLOAD_API);
    return switch (source) {
      case WORKLOAD_API -> new PodGroup(
          ref, uid, generation, minCount(spec), null, Resources.ZERO, spec.int32("spec.priority").orElse(null), created);
      case COSCHEDULING -> new PodGroup(
          ref,
          uid,
          generation,
          Math.max(1, spec.nonNegativeInt32("spec.minMember").orElse(0)),
          spec.nonNegativeInt32("spec.scheduleTimeoutSeconds").filter(s -> s > 0).map(Duration::ofSeconds).orElse(null),
          minResources(spec),
          null,
          created);
    };
  }

  /**
   * @return how errors name a group object: {@code <apiVersion> PodGroup namespace/name}, as {@link
   *     PodGroupRef#toString()} prints a group
   */
  public static String describe(PodGroupRef.Source source, @Nullable ObjectMeta meta) {
    return source.apiVersion() + " PodGroup " + key(meta);
  }

  private static String key(@Nullable ObjectMeta meta) {
    return meta == null ? "/" : orEmpty(meta.getNamespace()) + "/" + orEmpty(meta.getName());
  }

  /** The union {@code spec.schedulingPolicy}: exactly one of {@code gang} and {@code basic}. */
  private static int minCount(Fields spec) {
    var policy = spec.map("spec.schedulingPolicy", true);
    var gang = policy.get("gang");
    var basic = policy.get("basic");
    if (gang != null && basic != null) {
      throw spec.malformed("spec.schedulingPolicy", policy, "sets both basic and gang");
    }
    if (basic != null) {
      spec.map("spec.schedulingPolicy.basic", false);
      return 1;
    }
    if (gang == null) {
      throw spec.malformed("spec.schedulingPolicy", policy, "sets neither basic nor gang");
    }
    spec.map("spec.schedulingPolicy.gang", true);
    var minCount = spec.int32("spec.schedulingPolicy.gang.minCount");
    if (minCount.isEmpty()) {
      throw spec.malformed("spec.schedulingPolicy.gang.minCount", null, "is missing");
    }
    if (minCount.get() < 1) {
      throw spec.malformed("spec.schedulingPolicy.gang.minCount", minCount.get(), "is below 1");
    }
    return minCount.get();
  }

  private static Resources minResources(Fields spec) {
    var field = "spec.minResources";
    var list = spec.map(field, false);
    var texts = new LinkedHashMap<String, String>();
    list.forEach(
        (name, value) -> {
          var entry = field + "[" + name + "]";
          if (value instanceof String text) {
            texts.put(String.valueOf(name), text);
          } else if (value instanceof Number number) {
            texts.put(String.valueOf(name), number.toString());
          } else {
            throw spec.malformed(entry, value, "is not a quantity");
          }
        });
    return ResourceLists.readTexts(texts, spec.object, field).toResources(0);
  }

  private static Instant created(ObjectMeta meta, String object) {
    var text = meta.getCreationTimestamp();
    if (text == null || text.isEmpty()) {
      return Instant.EPOCH;
    }
    try {
      return OffsetDateTime.parse(text, PodAdapter.RFC_3339).toInstant();
    } catch (DateTimeParseException e) {
      throw new MalformedObjectException(
          object, "metadata.creationTimestamp", text, "is not an RFC 3339 time", e);
    }
  }

  /** The untyped fields of one object, read by dotted path, every failure naming the object and path. */
  private static final class Fields {

    private static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);

    final String object;
    private final Map<String, Object> root;

    Fields(String object, @Nullable Map<String, Object> root) {
      this.object = object;
      this.root = root == null ? Map.of() : root;
    }

    /**
     * @return the object at {@code path}; an empty map if it is absent (or {@code null}) and not required
     * @throws MalformedObjectException if it is absent and required, or not an object
     */
    Map<?, ?> map(String path, boolean required) {
      var value = get(path);
      if (value == null) {
        if (required) {
          throw malformed(path, null, "is missing");
        }
        return Map.of();
      }
      if (!(value instanceof Map<?, ?> map)) {
        throw malformed(path, value, "is not an object");
      }
      return map;
    }

    /** @return the int32 at {@code path}; empty if absent or {@code null} */
    Optional<Integer> int32(String path) {
      var value = get(path);
      if (value == null) {
        return Optional.empty();
      }
      BigInteger whole;
      if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
        whole = BigInteger.valueOf(((Number) value).longValue());
      } else if (value instanceof BigInteger big) {
        whole = big;
      } else if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
        var decimal = new BigDecimal(value.toString());
        try {
          whole = decimal.toBigIntegerExact();
        } catch (ArithmeticException e) {
          throw malformed(path, value, "is not an integer");
        }
      } else {
        throw malformed(path, value, "is not an integer");
      }
      if (whole.compareTo(INT32_MIN) < 0 || whole.compareTo(INT32_MAX) > 0) {
        throw malformed(path, value, "is out of the int32 range");
      }
      return Optional.of(whole.intValueExact());
    }

    Optional<Integer> nonNegativeInt32(String path) {
      var value = int32(path);
      if (value.isPresent() && value.get() < 0) {
        throw malformed(path, value.get(), "is negative");
      }
      return value;
    }

    /** The value at a dotted path; {@code null} where the path ends early or passes a non-object. */
    private @Nullable Object get(String path) {
      Object current = root;
      for (var step : path.split("\\.")) {
        if (!(current instanceof Map<?, ?> map)) {
          return null;
        }
        current = map.get(step);
      }
      return current;
    }

    MalformedObjectException malformed(String path, @Nullable Object value, String problem) {
      return new MalformedObjectException(object, path, value == null ? "" : String.valueOf(value), problem, null);
    }
  }
}
