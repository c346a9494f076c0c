package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.fabric8.Fabric8Compat;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The scheduling client's serialization decodes every kind it registers as fabric8's own decoding does (the same
 * mapper settings, Jackson's bean deserializers): the same object, or an exception of the same class and
 * message (the path inside it included). The lean serialization decodes fabric8's model from its fields rather
 * than through Jackson's introspection of its methods (the fabric8 line's {@code ModelDeserializers}, where the
 * line has one), so this is what keeps the two the same.
 *
 * <p>The generator writes random objects of each kind from the model's own fields, recursively: every
 * property's declared type, values Jackson coerces (numbers as strings or decimals), values of the wrong shape
 * (a string for an object, an object for a string, an array for a number), nulls, unknown names, the names
 * Jackson ignores on a model class ({@code additionalProperties}, {@code finalizers} of a {@code HasMetadata},
 * {@code managedFields} under the lean mix-in), and roots that are not objects.
 */
class ModelDecodingProperties {

  private static final KubernetesSerialization REFERENCE =
      Fabric8Compat.get().referenceSerialization(SchedulingClients.KINDS);

  private static final KubernetesSerialization LEAN = SchedulingClients.serialization();

  private static final List<String> IGNORED_ON_SOME =
      List.of("additionalProperties", "finalizers", "markedForDeletion", "plural", "singular", "fullResourceName",
          "managedFields");

  private static final List<String> WRONG_SHAPES =
      List.of("null", "\"text\"", "7", "-2.5", "true", "[]", "{}", "[{\"x\":1}]", "{\"a\":[null]}", "\"12\"");

  /** One generated object: its kind, its JSON, and whether it was given a value of the wrong shape somewhere. */
  record Sample(Class<? extends KubernetesResource> kind, String json, boolean misshapen) {}

  @Property(tries = 600)
  void decodes_every_registered_kind_as_fabric8_does(@ForAll("samples") Sample sample) {
    var reference = decoded(REFERENCE, sample);
    var lean = decoded(LEAN, sample);
    Statistics.label("outcome").collect(reference.startsWith("error ") ? "error" : "value");
    Statistics.label("misshapen").collect(sample.misshapen());

    assertEquals(reference, lean, sample.json());

    Statistics.label("outcome").coverage(c -> {
      c.check("error").count(n -> n > 20);
      c.check("value").count(n -> n > 200);
    });
    Statistics.label("misshapen").coverage(c -> c.check(true).count(n -> n > 50));
  }

  /** The decoded object as its class and JSON, or what decoding threw: each cause's class and message. */
  private static String decoded(KubernetesSerialization serialization, Sample sample) {
    try {
      Object decoded = serialization.unmarshal(sample.json(), sample.kind());
      return decoded == null ? "null" : decoded.getClass().getName() + " " + REFERENCE.asJson(decoded);
    } catch (RuntimeException e) {
      var thrown = new StringBuilder("error");
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        thrown.append(' ').append(cause.getClass().getName()).append(": ").append(cause.getMessage());
      }
      return thrown.toString();
    }
  }

  @Provide
  Arbitrary<Sample> samples() {
    return Combinators.combine(Arbitraries.of(SchedulingClients.KINDS), Arbitraries.randoms())
        .as((kind, random) -> {
          var writer = new Writer(random);
          String json;
          if (random.nextInt(20) == 0) {
            json = WRONG_SHAPES.get(random.nextInt(WRONG_SHAPES.size()));
            writer.misshapen = true;
          } else {
            json = writer.object(kind, 0);
          }
          return new Sample(kind, json, writer.misshapen);
        });
  }

  /** Writes random JSON for a model class from its {@code @JsonProperty} fields. */
  private static final class Writer {

    private static final int DEPTH = 5;

    private final Random random;
    boolean misshapen;

    Writer(Random random) {
      this.random = random;
    }

    String object(Class<?> type, int depth) {
      var entries = new ArrayList<String>();
      var fields = new ArrayList<Field>();
      for (Field field : type.getDeclaredFields()) {
        if (!Modifier.isStatic(field.getModifiers()) && field.isAnnotationPresent(JsonProperty.class)) {
          fields.add(field);
        }
      }
      Collections.shuffle(fields, random);
      int count = Math.min(fields.size(), depth == 0 ? 6 : random.nextInt(5));
      for (Field field : fields.subList(0, count)) {
        var name = field.getAnnotation(JsonProperty.class).value();
        entries.add(quote(name) + ":" + value(field.getGenericType(), depth + 1));
      }
      if (random.nextInt(4) == 0) {
        var name = random.nextBoolean()
            ? IGNORED_ON_SOME.get(random.nextInt(IGNORED_ON_SOME.size()))
            : "unknown" + random.nextInt(3);
        entries.add(random.nextInt(entries.size() + 1), quote(name) + ":" + scalarOrTree(depth + 1));
      }
      return "{" + String.join(",", entries) + "}";
    }

    private String value(Type type, int depth) {
      if (random.nextInt(40) == 0) {
        misshapen = true;
        return WRONG_SHAPES.get(random.nextInt(WRONG_SHAPES.size()));
      }
      if (type instanceof ParameterizedType parameterized) {
        var raw = (Class<?>) parameterized.getRawType();
        var arguments = parameterized.getActualTypeArguments();
        if (List.class.isAssignableFrom(raw)) {
          var items = new ArrayList<String>();
          for (int i = random.nextInt(depth >= DEPTH ? 1 : 3); i > 0; i--) {
            items.add(value(arguments[0], depth + 1));
          }
          return "[" + String.join(",", items) + "]";
        }
        if (Map.class.isAssignableFrom(raw)) {
          var entries = new ArrayList<String>();
          for (int i = random.nextInt(depth >= DEPTH ? 1 : 3); i > 0; i--) {
            entries.add(quote("k" + i) + ":" + value(arguments[1], depth + 1));
          }
          return "{" + String.join(",", entries) + "}";
        }
        return scalarOrTree(depth);
      }
      var raw = (Class<?>) type;
      if (raw == String.class) {
        return quote(List.of("a", "Pending", "node-1", "", "100m", "ünïcode").get(random.nextInt(6)));
      }
      if (raw == Integer.class || raw == Long.class || raw == int.class || raw == long.class) {
        return List.of("0", "7", "-3", "\"12\"", "1.0", "2.5", "9999999999").get(random.nextInt(7));
      }
      if (raw == Boolean.class || raw == boolean.class) {
        return List.of("true", "false", "\"true\"", "0").get(random.nextInt(4));
      }
      if (raw == Double.class || raw == double.class || raw == Float.class) {
        return List.of("0.5", "3", "\"1.5\"").get(random.nextInt(3));
      }
      if (raw == Quantity.class) {
        return List.of("\"100m\"", "\"1Gi\"", "2", "\"3.5\"", "\"\"").get(random.nextInt(5));
      }
      if (raw == IntOrString.class) {
        return List.of("8080", "\"http\"", "\"50%\"").get(random.nextInt(3));
      }
      if (raw == Object.class) {
        return scalarOrTree(depth);
      }
      if (raw.getName().startsWith("io.fabric8.kubernetes.api.model.") && !raw.isInterface() && !raw.isEnum()
          && hasProperties(raw)) {
        return depth >= DEPTH ? "{}" : object(raw, depth);
      }
      return quote("2026-12-05T00:00:00Z");
    }

    private String scalarOrTree(int depth) {
      return List.of("1", "\"s\"", "null", "[1,\"two\",{\"x\":null}]", "{\"y\":{\"z\":[true]}}", "false")
          .get(random.nextInt(depth > DEPTH ? 3 : 6));
    }

    private static boolean hasProperties(Class<?> raw) {
      for (Field field : raw.getDeclaredFields()) {
        if (field.isAnnotationPresent(JsonProperty.class)) {
          return true;
        }
      }
      return false;
    }

    private static String quote(String text) {
      return "\"" + text.replace("\"", "\\\"") + "\"";
    }
  }
}
