package io.kubesched.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.policy.config.SchedulerProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The same KubeSchedulerConfiguration files read by kube-scheduler 1.37.2 (the binary {@code
 * tools/test-cluster/cluster.sh build-scheduler} builds, see {@link KubeSchedulerProcess}) and by {@link
 * SchedulerConfiguration}: each profile's plugins and weights per extension point must be the same.
 *
 * <p>kube-scheduler reveals what it resolved when it builds each profile's framework: at {@code -v=2} it logs
 * {@code "the scheduler starts to work with those plugins"} with every extension point's plugins, in order, and the
 * score weights ({@code frameworkImpl.ListPlugins}). With {@code --logging-format=json} that is one JSON object per
 * line. {@code --write-config-to} makes it exit as soon as the frameworks are built, before it talks to an API
 * server, so no cluster is needed: its kubeconfig points nowhere. Its frameworks are built in the file's profile
 * order, which is the order of those lines.
 */
class KubeSchedulerConfigParityIT {

  private static final String HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
  private static final Map<String, String> POINTS = Map.ofEntries(
      Map.entry("PreEnqueue", "preEnqueue"),
      Map.entry("QueueSort", "queueSort"),
      Map.entry("PreFilter", "preFilter"),
      Map.entry("Filter", "filter"),
      Map.entry("PostFilter", "postFilter"),
      Map.entry("PreScore", "preScore"),
      Map.entry("Score", "score"),
      Map.entry("Reserve", "reserve"),
      Map.entry("Permit", "permit"),
      Map.entry("PreBind", "preBind"),
      Map.entry("Bind", "bind"),
      Map.entry("PostBind", "postBind"),
      Map.entry("MultiPoint", "multiPoint"),
      Map.entry("PlacementGenerate", "placementGenerate"),
      Map.entry("PlacementScore", "placementScore"),
      Map.entry("PodGroupPostFilter", "podGroupPostFilter"));

  static Stream<Arguments> files() {
    return Stream.of(
        Arguments.of("defaults", ""),
        Arguments.of("most allocated, a scorer disabled, weights changed", """
            profiles:
              - schedulerName: packing
                plugins:
                  score:
                    disabled: [{name: ImageLocality}]
                    enabled: [{name: NodeResourcesFit, weight: 5}, {name: TaintToleration, weight: 1}]
                  multiPoint:
                    enabled: [{name: PodTopologySpread, weight: 4}]
                pluginConfig:
                  - name: NodeResourcesFit
                    args:
                      scoringStrategy:
                        type: MostAllocated
                        resources: [{name: cpu, weight: 2}, {name: memory, weight: 1}]
            """),
        Arguments.of("multiPoint with everything disabled and a small set", """
            profiles:
              - schedulerName: small
                plugins:
                  multiPoint:
                    disabled: [{name: "*"}]
                    enabled:
                      - {name: PrioritySort}
                      - {name: DefaultBinder}
                      - {name: NodeResourcesFit, weight: 3}
                      - {name: TaintToleration}
                      - {name: NodeName}
                      - {name: DefaultPreemption}
                  filter:
                    disabled: [{name: TaintToleration}]
            """),
        Arguments.of("two profiles", """
            percentageOfNodesToScore: 50
            profiles:
              - schedulerName: spread
                plugins:
                  preScore:
                    disabled: [{name: "*"}]
                  score:
                    enabled: [{name: PodTopologySpread, weight: 3}, {name: ImageLocality}]
              - schedulerName: pack
                percentageOfNodesToScore: 20
                plugins:
                  postFilter:
                    disabled: [{name: DefaultPreemption}]
                  filter:
                    disabled: [{name: "*"}]
                    enabled: [{name: NodeResourcesFit}, {name: NodeAffinity}]
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void kubeSchedulerResolvesTheSamePluginsAndWeights(String name, String body) throws Exception {
    var dir = Files.createDirectories(Path.of("target", "kube-scheduler-config-parity", name.replaceAll("\\W+", "-")));
    var kubeconfig = dir.resolve("nowhere.kubeconfig");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: nowhere, cluster: {server: "https://127.0.0.1:9", insecure-skip-tls-verify: true}}]
        users: [{name: nobody, user: {token: none}}]
        contexts: [{name: nowhere, context: {cluster: nowhere, user: nobody}}]
        current-context: nowhere
        """);
    var text = HEADER
        + "clientConnection: {kubeconfig: " + kubeconfig.toAbsolutePath() + "}\n"
        + "leaderElection: {leaderElect: false}\n"
        + body;
    var config = Files.writeString(dir.resolve("kube-scheduler.yaml"), text);

    var ours = SchedulerConfiguration.read(config).profiles().stream().map(SchedulerProfile::enabledPlugins).toList();
    var kubes = kubeScheduler(config, dir);

    assertEquals(kubes, ours, "per profile, kube-scheduler's plugins (expected) and ours (actual)");
  }

  /** Runs kube-scheduler on {@code config} and returns, per profile, what it logged it resolved. */
  private static List<Map<String, List<String>>> kubeScheduler(Path config, Path dir)
      throws IOException, InterruptedException {
    var binary = KubeSchedulerProcess.binary(RealClusterExtension.projectDir(), dir);
    var log = dir.resolve("kube-scheduler.log");
    var process = new ProcessBuilder(
            binary.toString(), "--config=" + config.toAbsolutePath(), "--secure-port=0", "--v=2",
            "--logging-format=json", "--write-config-to=" + dir.resolve("written.yaml").toAbsolutePath())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError("kube-scheduler did not exit within 120 s; see " + log);
    }
    var lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new AssertionError("kube-scheduler exited with " + process.exitValue() + ":\n" + String.join("\n", lines));
    }
    var mapper = JsonMapper.builder().build();
    var profiles = new ArrayList<Map<String, List<String>>>();
    for (var line : lines) {
      if (!line.startsWith("{") || !line.contains("the scheduler starts to work with those plugins")) {
        continue;
      }
      profiles.add(plugins(mapper.readTree(line).get("Plugins")));
    }
    return profiles;
  }

  /** kube's {@code config.Plugins} as logged: per extension point {@code {"Enabled": [{"Name", "Weight"}]}}. */
  private static Map<String, List<String>> plugins(JsonNode logged) {
    Map<String, List<String>> plugins = new LinkedHashMap<>();
    for (var field : logged.propertyNames()) {
      var enabled = logged.get(field).get("Enabled");
      if (enabled == null || enabled.isNull() || enabled.isEmpty()) {
        continue;
      }
      var point = POINTS.get(field);
      if (point == null) {
        throw new AssertionError("kube-scheduler logged an extension point this test does not know: " + field);
      }
      boolean weighted = field.equals("Score") || field.equals("PlacementScore");
      var names = new ArrayList<String>();
      for (var plugin : enabled) {
        var pluginName = plugin.get("Name").stringValue();
        names.add(weighted ? pluginName + ":" + plugin.get("Weight").intValue() : pluginName);
      }
      plugins.put(point, names);
    }
    return plugins;
  }
}
