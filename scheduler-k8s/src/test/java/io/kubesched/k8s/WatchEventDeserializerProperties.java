package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kubesched.fabric8.Fabric8Compat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The scheduling client's one-pass watch-event decoding gives what fabric8's own decoding gives, the same
 * mapper and registered kinds otherwise: the same event (type, object of the same class and content, unknown
 * properties) or the same class of exception, whatever the order of the object's properties, for registered
 * kinds, kinds not registered, objects without a type, and objects that are not JSON objects.
 */
class WatchEventDeserializerProperties {

  /** fabric8's decoding, as the scheduling client had it before: the same mix-in and registered kinds. */
  private static final KubernetesSerialization FABRIC8 = fabric8Serialization();

  private static final KubernetesSerialization LEAN = SchedulingClients.serialization();

  private static KubernetesSerialization fabric8Serialization() {
    return Fabric8Compat.get().referenceSerialization(SchedulingClients.KINDS);
  }

  /** One generated event: its JSON and which way the one-pass decoding should take. */
  record Event(String json, String way) {}

  @Property(tries = 400)
  void decodes_as_fabric8_does(@ForAll("events") Event event) {
    Statistics.label("way").collect(event.way());

    assertEquals(decoded(FABRIC8, event.json()), decoded(LEAN, event.json()), event.json());

    Statistics.label("way")
        .coverage(
            coverage -> {
              for (var way :
                  List.of(
                      "one pass, registered kind",
                      "one pass, kind not registered",
                      "fabric8's way, type later",
                      "fabric8's way, no type",
                      "fabric8's way, kind not a string",
                      "fabric8's way, not an object",
                      "no object")) {
                coverage.check(way).count(n -> n > 0);
              }
            });
  }

  /**
   * The event decoded, as the class of its object and the event written back as JSON (not the event itself:
   * some of fabric8's lists do not compare by content), or the class of what decoding threw.
   */
  private static String decoded(KubernetesSerialization serialization, String json) {
    try {
      WatchEvent event = serialization.unmarshal(json, WatchEvent.class);
      var object = event.getObject();
      return (object == null ? "null" : object.getClass().getName()) + " " + FABRIC8.asJson(event);
    } catch (RuntimeException e) {
      return e.getClass().getName();
    }
  }

  @Provide
  Arbitrary<Event> events() {
    // A type that is not a string (a number, null) is read Jackson's way; a string as it is.
    var type =
        Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.of("ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR").map(t -> "\"" + t + "\"")),
            Tuple.of(1, Arbitraries.of("7", "null")));
    var extra = Arbitraries.of("", ",\"extra\":{\"x\":[1,\"two\",null]}");
    var objectFirst = Arbitraries.of(true, false);
    return Combinators.combine(type, objects(), extra, objectFirst)
        .as(
            (t, object, more, first) -> {
              var typeEntry = "\"type\":" + t;
              var objectEntry = "\"object\":" + object.json();
              var body = first ? objectEntry + "," + typeEntry : typeEntry + "," + objectEntry;
              return new Event("{" + body + more + "}", object.way());
            });
  }

  private Arbitrary<Event> objects() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, typedObjects()),
        Tuple.of(1, Arbitraries.of("null", "[]", "\"text\"", "7")
            .map(json -> new Event(json, json.equals("null") ? "no object" : "fabric8's way, not an object"))));
  }

  /** A JSON object with or without a type, its properties in some order. */
  private Arbitrary<Event> typedObjects() {
    var kinds =
        Arbitraries.of(
            List.of("Pod", "v1"),
            List.of("Node", "v1"),
            List.of("Status", "v1"),
            List.of("Lease", "coordination.k8s.io/v1"),
            List.of("PodDisruptionBudget", "policy/v1"),
            List.of("ConfigMap", "v1"),
            List.of("Pod", "v2"),
            List.of("Workload", "scheduling.k8s.io/v1beta1"));
    var typeShape = Arbitraries.of("both", "both", "both", "kind only", "apiVersion only", "neither", "kind 7");
    var order = Arbitraries.of("type first", "type first", "apiVersion first", "shuffled");
    return Combinators.combine(kinds, typeShape, order, bodies(), Arbitraries.randoms())
        .as(
            (kind, shape, ordering, body, random) -> {
              var typeEntries = new ArrayList<String>();
              if (shape.equals("both") || shape.equals("kind only")) {
                typeEntries.add("\"kind\":\"" + kind.get(0) + "\"");
              }
              if (shape.equals("kind 7")) {
                typeEntries.add("\"kind\":7");
              }
              if (shape.equals("both") || shape.equals("apiVersion only") || shape.equals("kind 7")) {
                typeEntries.add("\"apiVersion\":\"" + kind.get(1) + "\"");
              }
              if (ordering.equals("apiVersion first")) {
                Collections.reverse(typeEntries);
              }
              var entries = new ArrayList<String>();
              if (ordering.equals("shuffled")) {
                entries.addAll(typeEntries);
                entries.addAll(body);
                Collections.shuffle(entries, random);
              } else {
                entries.addAll(typeEntries);
                entries.addAll(body);
              }
              boolean typeFirst =
                  shape.equals("both")
                      && entries.subList(0, 2).stream()
                          .allMatch(e -> e.startsWith("\"kind\"") || e.startsWith("\"apiVersion\""));
              String way;
              if (typeFirst) {
                boolean registered =
                    SchedulingClients.KINDS.stream()
                        .anyMatch(
                            c ->
                                HasMetadata.getKind(c).equals(kind.get(0))
                                    && HasMetadata.getApiVersion(c)
                                        .equals(kind.get(1)));
                way = registered ? "one pass, registered kind" : "one pass, kind not registered";
              } else if (shape.equals("both")) {
                way = "fabric8's way, type later";
              } else if (shape.equals("kind 7")) {
                way = "fabric8's way, kind not a string";
              } else {
                way = "fabric8's way, no type";
              }
              return new Event("{" + String.join(",", entries) + "}", way);
            });
  }

  /** Some of the properties of a pod, a node, a status or a config map (each kind ignores the others'). */
  private Arbitrary<List<String>> bodies() {
    var name = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(6);
    var labels =
        Arbitraries.maps(name, name).ofMaxSize(3)
            .map(
                m ->
                    m.entrySet().stream()
                        .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                        .collect(Collectors.joining(",", "{", "}")));
    var managedFields =
        Arbitraries.of(
            "",
            ",\"managedFields\":[{\"manager\":\"runner\",\"operation\":\"Update\",\"fieldsType\":\"FieldsV1\","
                + "\"fieldsV1\":{\"f:spec\":{\"f:nodeName\":{}}}}]");
    var metadata =
        Combinators.combine(name, labels, managedFields)
            .as(
                (n, l, m) ->
                    "\"metadata\":{\"name\":\"" + n + "\",\"resourceVersion\":\"42\",\"labels\":" + l + m + "}");
    var parts =
        Arbitraries.subsetOf(
            "\"spec\":{\"nodeName\":\"node-1\",\"containers\":[{\"name\":\"c\",\"image\":\"i\","
                + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"1Gi\"}}}],\"unschedulable\":true,"
                + "\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}",
            "\"status\":{\"phase\":\"Pending\",\"allocatable\":{\"cpu\":\"4\"}}",
            "\"code\":410",
            "\"reason\":\"Expired\"",
            "\"data\":{\"k\":\"v\"}",
            "\"unknownField\":[{\"a\":1},2]");
    return Combinators.combine(metadata, parts, Arbitraries.of(true, false))
        .as(
            (m, p, withMetadata) -> {
              var body = new ArrayList<String>();
              if (withMetadata) {
                body.add(m);
              }
              body.addAll(p);
              return body;
            });
  }
}
