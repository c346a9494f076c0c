package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import tools.jackson.databind.json.JsonMapper;

/**
 * A configuration written by {@link SchedulerConfiguration#toYaml()} reads back as the same configuration: the
 * writer's output is what kube-scheduler's {@code --write-config-to} is to kube-scheduler.
 */
class ConfigWriterProperties {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Strings YAML would read as something else unless quoted, and plain ones. */
  private static Arbitrary<String> trickyStrings() {
    return Arbitraries.oneOf(
        Arbitraries.of("yes", "no", "true", "null", "~", "1.5", "0x1F", "1e3", "a: b", "#x", "- x", "'q'", "\"d\"",
            "with space", "ü-ñ", "*", "&a", "!t", "%p", "@at", "`b`", "{x}", "[y]"),
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8));
  }

  /** Float32 rates with integral, fractional, tiny and huge values (the last two written with exponents by Java). */
  private static Arbitrary<Float> rates() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(1, 1000).map(Integer::floatValue),
        Arbitraries.floats().between(0.001f, 1000f).ofScale(4),
        Arbitraries.of(1.0e-7f, 3.4028235e38f, 1.0e10f, 0.1f, 1.4e-45f, 123456.79f));
  }

  private static Arbitrary<String> durations() {
    return Arbitraries.longs().between(1, 4_000_000).map(ms -> GoDuration.format(Duration.ofMillis(ms)));
  }

  private static Arbitrary<Map<String, Object>> profile(int index) {
    var plugins = Arbitraries.of(
            Map.<String, Object>of(),
            Map.<String, Object>of("score", Map.of("enabled", List.of(Map.of("name", "NodeResourcesFit", "weight", 5)),
                "disabled", List.of(Map.of("name", "ImageLocality")))),
            Map.<String, Object>of("multiPoint", Map.of("disabled", List.of(Map.of("name", "PodTopologySpread")))))
        .injectNull(0.3);
    var pluginConfig = Arbitraries.of(
            List.<Object>of(Map.of("name", "NodeResourcesFit", "args", Map.of("scoringStrategy",
                Map.of("type", "MostAllocated", "resources", List.of(Map.of("name", "cpu", "weight", 2)))))),
            List.<Object>of(Map.of("name", "DefaultPreemption",
                "args", Map.of("minCandidateNodesPercentage", 20, "minCandidateNodesAbsolute", 50))))
        .injectNull(0.5);
    var percentage = Arbitraries.integers().between(0, 100).injectNull(0.5);
    return Combinators.combine(plugins, pluginConfig, percentage, trickyStrings()).as((p, c, pct, name) -> {
      var profile = new LinkedHashMap<String, Object>();
      profile.put("schedulerName", "p" + index + "-" + name);
      if (p != null) {
        profile.put("plugins", p);
      }
      if (c != null) {
        profile.put("pluginConfig", c);
      }
      if (pct != null) {
        profile.put("percentageOfNodesToScore", pct);
      }
      return profile;
    });
  }

  @Provide
  Arbitrary<String> configurations() {
    var connection = Combinators.combine(
            rates().injectNull(0.2),
            Arbitraries.integers().between(0, 100_000).injectNull(0.2),
            Arbitraries.of("", ClientConnection.PROTOBUF, ClientConnection.JSON).injectNull(0.3),
            Arbitraries.of("", ClientConnection.JSON, ClientConnection.PROTOBUF + "," + ClientConnection.JSON)
                .injectNull(0.3),
            trickyStrings().injectNull(0.3))
        .as((qps, burst, type, accept, kubeconfig) -> {
          var map = new LinkedHashMap<String, Object>();
          putIf(map, "qps", qps == null ? null : ConfigWriter.decimal(qps));
          putIf(map, "burst", burst);
          putIf(map, "contentType", type);
          putIf(map, "acceptContentTypes", accept);
          putIf(map, "kubeconfig", kubeconfig);
          return map;
        });
    var election = Combinators.combine(
            Arbitraries.of(true, false), durations(), durations(), durations(), trickyStrings(), trickyStrings())
        .as((elect, a, b, retry, name, namespace) -> {
          var lease = GoDuration.parse(a).orElseThrow().compareTo(GoDuration.parse(b).orElseThrow()) > 0 ? a : b;
          var renew = lease.equals(a) ? b : a;
          var map = new LinkedHashMap<String, Object>();
          map.put("leaderElect", elect);
          map.put("leaseDuration", lease.equals(renew) ? "1h" + lease : lease);
          map.put("renewDeadline", renew);
          map.put("retryPeriod", retry);
          map.put("resourceName", name);
          map.put("resourceNamespace", namespace);
          return map;
        });
    var profiles = Arbitraries.integers().between(0, 3).flatMap(n -> n == 0
        ? Arbitraries.just(List.<Map<String, Object>>of())
        : Combinators.combine(java.util.stream.IntStream.range(0, n).mapToObj(ConfigWriterProperties::profile)
            .toList()).as(list -> list));
    var top = Combinators.combine(
        Arbitraries.integers().between(1, 64).injectNull(0.3),
        Arbitraries.integers().between(0, 100).injectNull(0.3),
        Arbitraries.integers().between(1, 5),
        Arbitraries.integers().between(0, 30),
        Arbitraries.of(true, false).injectNull(0.5));
    return Combinators.combine(connection.injectNull(0.2), election.injectNull(0.2), profiles,
            top.as((parallelism, percentage, initial, extra, profiling) -> {
              var map = new LinkedHashMap<String, Object>();
              putIf(map, "parallelism", parallelism);
              putIf(map, "percentageOfNodesToScore", percentage);
              map.put("podInitialBackoffSeconds", initial);
              map.put("podMaxBackoffSeconds", initial + extra);
              putIf(map, "enableProfiling", profiling);
              return map;
            }))
        .as((c, e, p, t) -> {
          var root = new LinkedHashMap<String, Object>();
          root.put("apiVersion", SchedulerConfiguration.API_VERSION);
          root.put("kind", SchedulerConfiguration.KIND);
          root.putAll(t);
          putIf(root, "clientConnection", c);
          putIf(root, "leaderElection", e);
          if (!p.isEmpty()) {
            root.put("profiles", p);
          }
          return JSON.writeValueAsString(root);
        });
  }

  private static void putIf(Map<String, Object> map, String key, @org.jspecify.annotations.Nullable Object value) {
    if (value != null) {
      map.put(key, value);
    }
  }

  /** What a configuration exposes, as one comparable value. */
  record View(
      List<String> names,
      List<Map<String, List<String>>> plugins,
      int percentage,
      int parallelism,
      Duration initial,
      Duration max,
      ClientConnection connection,
      Optional<Path> kubeconfig,
      LeaderElectionSettings election) {

    static View of(SchedulerConfiguration c) {
      return new View(
          c.profiles().stream().map(SchedulerProfile::schedulerName).toList(),
          c.profiles().stream().map(SchedulerProfile::enabledPlugins).toList(),
          c.percentageOfNodesToScore(), c.parallelism(), c.podInitialBackoff(), c.podMaxBackoff(),
          c.clientConnection(), c.kubeconfig(), c.leaderElection());
    }
  }

  @Property
  void a_written_configuration_reads_back_the_same(@ForAll("configurations") String text) {
    var configuration = SchedulerConfiguration.parse(text, "generated");
    var written = configuration.toYaml();
    var read = SchedulerConfiguration.parse(written, "written");

    var qps = Float.toString(configuration.clientConnection().qps());
    Statistics.label("qps").collect(qps.contains("E") ? "exponent" : qps.endsWith(".0") ? "integral" : "fraction");
    Statistics.label("qps").coverage(c -> c.check("exponent").percentage(p -> p > 3));
    Statistics.label("profiles").collect(configuration.profiles().size());
    Statistics.label("kubeconfig").collect(configuration.kubeconfig().isPresent());
    Statistics.label("kubeconfig").coverage(c -> c.check(true).percentage(p -> p > 30));

    assertEquals(View.of(configuration), View.of(read), written);
    assertEquals(written, read.toYaml(), "writing is idempotent");
  }
}
