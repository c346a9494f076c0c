package io.kubesched.server;

import static io.kubesched.server.ServerFixtures.createNode;
import static io.kubesched.server.ServerFixtures.eventually;
import static io.kubesched.server.ServerFixtures.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The server's {@code /metrics} against kube-scheduler v1.37.2's families as its source declares them
 * ({@code kube-scheduler-metrics-v1.37.2.txt}): after a decision, a preemption, queue moves and requests to
 * the API server (the fake cluster), every family kube declares STABLE or BETA, and the client-go ones kube's
 * dashboards read, is there with kube's type, label names and bucket bounds, unless it is among {@link
 * #EXCLUDED}, each with why; and no family under kube's {@code scheduler_} prefix is there that kube lacks.
 */
class KubeMetricsTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  /** The kube families the library cannot produce, and why (as MicrometerMetrics' Javadoc and the docs say). */
  static final Map<String, String> EXCLUDED =
      Map.ofEntries(
          Map.entry("kube_pod_resource_request", "served by kube on /metrics/resources, an endpoint of its own"),
          Map.entry("kube_pod_resource_limit", "served by kube on /metrics/resources, an endpoint of its own"),
          Map.entry("kubernetes_healthcheck", "served by kube on /metrics/slis from its own health checks"),
          Map.entry("kubernetes_healthchecks_total", "served by kube on /metrics/slis from its own health checks"),
          Map.entry("scheduler_goroutines", "fixed thread pools, not goroutines started per operation"),
          Map.entry("scheduler_plugin_execution_duration_seconds", "plugins are not timed one by one"),
          Map.entry("scheduler_plugin_evaluation_total", "plugins are not counted one by one"),
          Map.entry("scheduler_unschedulable_pods", "a FinderFunc need not be made of plugins"),
          Map.entry("scheduler_permit_wait_duration_seconds", "there is no Permit extension point"),
          Map.entry("kubernetes_build_info", "would fire kubernetes-mixin's KubeVersionMismatch; kubesched_build_info"),
          Map.entry("kubernetes_feature_enabled", "describes kube's feature gates"),
          Map.entry("registered_metrics_total", "describes kube's metrics framework's stability classes"),
          Map.entry("disabled_metrics_total", "describes kube's metrics framework"),
          Map.entry("hidden_metrics_total", "describes kube's metrics framework"));

  /** Beside each timer and summary Micrometer publishes {@code <family>_max}, which kube has not. */
  private static final String MICROMETER_MAX = "_max";

  record Family(String name, String type, Set<String> labels, List<Double> buckets) {}

  @Test
  void metrics_match_kube_schedulers_families_labels_and_buckets() throws Exception {
    var config =
        ServerFixtures.config(
            """
            leaderElection:
              leaderElect: true
              resourceNamespace: default
              resourceName: kubesched-metrics
            profiles:
              - schedulerName: metrics
            """);
    var registry = MetricsRegistry.create();
    var setup = SchedulerSetup.of(config, "config test.yaml");
    var options = ServerOptions.options(setup, new Options.Connection.Fake(), MicrometerMetrics.of(registry));
    var server =
        new SchedulerServer(
            options, setup.profiles(), false, ServerFixtures.notServed(), Map.of(), Map.of(), registry);
    String scrape;
    try {
      server.start();
      var kube = server.client().kubernetesClient();
      createNode(kube, "only", "2", "4Gi");
      eventually(PATIENCE, "the scheduler sees the node", () -> server.controller().nodes().size() == 1);
      createPod(kube, "low", 0, "1500m");
      eventually(PATIENCE, "the low-priority pod is bound", () -> !nodeOf(kube, "low").isEmpty());
      createPod(kube, "high", 1000, "1500m");
      eventually(
          PATIENCE,
          "preemption evicted the low-priority pod for the high-priority one",
          () -> registry.scrape().contains("scheduler_preemption_victims_count 1"));
      scrape = registry.scrape(); // while running: closing unregisters the pending pods' gauges
    } finally {
      server.close();
    }
    var scraped = parse(scrape);
    var kube = kubeFamilies();

    var differences = new ArrayList<String>();
    for (var expected : kube.values()) {
      if (EXCLUDED.containsKey(expected.name())) {
        if (scraped.containsKey(expected.name())) {
          differences.add(expected.name() + ": excluded as not produced, but it is there");
        }
        continue;
      }
      var actual = scraped.get(expected.name());
      if (actual == null) {
        differences.add(expected.name() + ": missing");
      } else if (!actual.equals(expected)) {
        differences.add(expected.name() + ": kube has " + expected + ", /metrics has " + actual);
      }
    }
    for (var name : scraped.keySet()) {
      if (name.startsWith("scheduler_") && !name.endsWith(MICROMETER_MAX) && !kube.containsKey(name)) {
        differences.add(name + ": not a kube-scheduler family");
      }
    }
    assertEquals(List.of(), differences, "families that differ from kube-scheduler v1.37.2's");
    for (var standard : List.of("process_cpu_seconds_total", "process_start_time_seconds", "jvm_memory_used_bytes")) {
      assertTrue(scraped.containsKey(standard), standard + " among " + scraped.keySet());
    }
    assertTrue(scraped.containsKey("kubesched_build_info"), "kubesched_build_info");
  }

  @Test
  void every_exclusion_names_a_family_of_kubes_list() throws IOException {
    var kube = kubeFamilies();
    for (var name : EXCLUDED.keySet()) {
      assertTrue(kube.containsKey(name), name + " is not in kube's list: the exclusion is stale");
    }
  }

  private static void createPod(KubernetesClient kube, String name, int priority, String cpu) {
    kube.pods()
        .inNamespace(ServerFixtures.NAMESPACE)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ServerFixtures.NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("metrics")
                .withPriority(priority)
                .addNewContainer()
                .withName("app")
                .withImage("app:1")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("1Gi")))
                .endResources()
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  static Map<String, Family> kubeFamilies() throws IOException {
    var families = new TreeMap<String, Family>();
    try (InputStream in =
        Objects.requireNonNull(
            KubeMetricsTest.class.getResourceAsStream("/kube-scheduler-metrics-v1.37.2.txt"), "the kube list")) {
      for (var line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        var f = line.trim().split(" +");
        var labels = f[3].equals("-") ? Set.<String>of() : Set.of(f[3].split(","));
        var buckets =
            f[4].equals("-") ? List.<Double>of() : Arrays.stream(f[4].split(",")).map(Double::parseDouble).toList();
        families.put(f[0], new Family(f[0], f[1], labels, buckets));
      }
    }
    return families;
  }

  private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) (\\S+)$");
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+.*$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** The families of a Prometheus text scrape: each one's type, label names (without {@code le}) and bounds. */
  static Map<String, Family> parse(String text) {
    var types = new HashMap<String, String>();
    var labels = new HashMap<String, Set<String>>();
    var bounds = new HashMap<String, Set<Double>>();
    for (var line : text.lines().toList()) {
      var t = TYPE.matcher(line);
      if (t.matches()) {
        types.put(t.group(1), t.group(2));
        continue;
      }
      var s = SAMPLE.matcher(line);
      if (line.startsWith("#") || !s.matches()) {
        continue;
      }
      var sample = s.group(1);
      var family = familyOf(sample, types);
      var names = labels.computeIfAbsent(family, f -> new TreeSet<>());
      if (s.group(2) != null) {
        var l = LABEL.matcher(s.group(2));
        while (l.find()) {
          if (l.group(1).equals("le") && sample.endsWith("_bucket")) {
            if (!l.group(2).equals("+Inf")) {
              bounds.computeIfAbsent(family, f -> new TreeSet<>()).add(Double.parseDouble(l.group(2)));
            }
          } else {
            names.add(l.group(1));
          }
        }
      }
    }
    return labels.keySet().stream()
        .collect(
            Collectors.toMap(
                f -> f,
                f ->
                    new Family(
                        f,
                        typeOf(f, types),
                        Set.copyOf(labels.get(f)),
                        List.copyOf(bounds.getOrDefault(f, Set.of())))));
  }

  /** The family a sample belongs to: a counter's family keeps {@code _total}, as kube names it. */
  private static String familyOf(String sample, Map<String, String> types) {
    for (var suffix : List.of("_bucket", "_count", "_sum", "_created")) {
      if (sample.endsWith(suffix)) {
        var base = sample.substring(0, sample.length() - suffix.length());
        if ("histogram".equals(types.get(base)) || "summary".equals(types.get(base))) {
          return base;
        }
      }
    }
    return sample;
  }

  private static String typeOf(String family, Map<String, String> types) {
    var type = types.get(family);
    if (type == null && family.endsWith("_total")) {
      type = types.get(family.substring(0, family.length() - "_total".length()));
    }
    return type == null ? "untyped" : type;
  }

  static {
    // The list must parse before any test trusts it.
    try {
      if (kubeFamilies().isEmpty()) {
        fail("the kube list is empty");
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
