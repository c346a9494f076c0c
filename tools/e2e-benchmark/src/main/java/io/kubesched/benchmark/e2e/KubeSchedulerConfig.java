package io.kubesched.benchmark.e2e;

import io.kubesched.policy.Policy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The KubeSchedulerConfiguration files kube-scheduler runs with in the benchmark: leader election off, the given
 * client limits, and one profile, either kube's default one or one that runs exactly the plugins of a {@link
 * Policy} (this library's {@code DefaultPolicy}) with its weights.
 *
 * <p>The second profile disables every default plugin at {@code multiPoint} ({@code disabled: [{name: "*"}]}) and
 * enables the policy's plugins there, in kube's default order. kube-scheduler 1.37's v1 defaults put every plugin
 * in {@code multiPoint} and none at a single extension point, so nothing else is left at any point. A {@code "*"}
 * at a single point is not added: kube's {@code expandMultiPointPlugins} then skips that point's {@code multiPoint}
 * expansion, so it would remove the enabled plugins there too.
 */
final class KubeSchedulerConfig {

  /**
   * kube's names for the scorers whose plugin name differs from the scorer's: LeastAllocated is {@code
   * NodeResourcesFit}'s default scoring strategy.
   */
  private static final Map<String, String> KUBE_NAMES = Map.of("NodeResourcesLeastAllocated", "NodeResourcesFit");

  /** Plugins of the scheduling loop this library's controller always runs, not its policy: queue, gates, binding. */
  private static final List<String> LOOP_FIRST = List.of("SchedulingGates", "PrioritySort");

  /** kube-scheduler 1.37's in-tree plugins with a score point, by the names its configuration uses. */
  private static final List<String> KUBE_SCORERS =
      List.of(
          "TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread",
          "InterPodAffinity", "DynamicResources", "NodeResourcesBalancedAllocation", "ImageLocality");

  private KubeSchedulerConfig() {}

  /** Which plugins the file's profile runs. */
  enum Profile {
    /** kube's default profile, as the binary resolves it (the file names no plugin). */
    DEFAULT,
    /** Exactly {@code DefaultPolicy}'s plugins and weights ({@link #samePlugins}). */
    SAME_PLUGINS
  }

  /**
   * The file's text.
   *
   * @param schedulerName the profile's {@code schedulerName} (the pods' {@code spec.schedulerName})
   * @param samePlugins for {@link Profile#SAME_PLUGINS}, the {@code multiPoint} plugins ({@link #samePlugins});
   *     ignored for {@link Profile#DEFAULT}
   */
  static String file(
      Path kubeconfig, double qps, int burst, String schedulerName, Profile profile, List<String> samePlugins) {
    var text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            clientConnection:
              kubeconfig: %s
              qps: %s
              burst: %d
            leaderElection:
              leaderElect: false
            profiles:
              - schedulerName: %s
            """,
            kubeconfig, qps, burst, schedulerName));
    if (profile == Profile.SAME_PLUGINS) {
      text.append("    plugins:\n")
          .append("      multiPoint:\n")
          .append("        disabled:\n")
          .append("          - name: \"*\"\n")
          .append("        enabled:\n");
      for (var plugin : samePlugins) {
        int colon = plugin.indexOf(':');
        text.append("          - name: ").append(colon < 0 ? plugin : plugin.substring(0, colon)).append('\n');
        if (colon >= 0) {
          text.append("            weight: ").append(plugin.substring(colon + 1)).append('\n');
        }
      }
    }
    return text.toString();
  }

  /**
   * The {@code multiPoint} plugins that run what {@code policy} runs, in kube's default order, as {@code Name} or
   * {@code Name:weight} for a scorer: the queue's and the gates' plugins ({@code SchedulingGates}, {@code
   * PrioritySort}); each filter, with its scorer's weight where the plugin also scores; {@code DefaultPreemption}
   * if the policy preempts; the scorers that are no filter; {@code DefaultBinder}; and {@code GangScheduling} when
   * {@code gangs} (kube-scheduler then runs with the {@code GenericWorkload} gate, and this library watches the
   * Workload API's pod groups).
   *
   * @throws IllegalArgumentException if a scorer of the policy has a name kube's plugins do not (such as {@code
   *     NodeResourcesMostAllocated}, which kube expresses as {@code NodeResourcesFit} arguments this file does not
   *     write)
   */
  static List<String> samePlugins(Policy policy, boolean gangs) {
    var weights = new LinkedHashMap<String, Integer>();
    for (var scorer : policy.scorers()) {
      var name = scorer.scorer().name();
      var kubeName = KUBE_NAMES.getOrDefault(name, name);
      if (!KUBE_SCORERS.contains(kubeName)) {
        throw new IllegalArgumentException(
            "the policy's scorer '" + name + "' has no kube-scheduler plugin of that name in the generated profile;"
                + " known: " + String.join(", ", KUBE_SCORERS) + ", NodeResourcesLeastAllocated");
      }
      weights.put(kubeName, scorer.weight());
    }
    var plugins = new ArrayList<>(LOOP_FIRST);
    for (var filter : policy.filters()) {
      var weight = weights.remove(filter.name());
      plugins.add(weight == null ? filter.name() : filter.name() + ":" + weight);
    }
    if (policy.preemption().isPresent()) {
      plugins.add("DefaultPreemption");
    }
    weights.forEach((name, weight) -> plugins.add(name + ":" + weight));
    plugins.add("DefaultBinder");
    if (gangs) {
      plugins.add("GangScheduling");
    }
    return List.copyOf(plugins);
  }

  /**
   * kube's extension points as kube-scheduler logs them, to the names {@code SchedulerProfile.enabledPlugins()}
   * uses.
   */
  private static final Map<String, String> POINTS =
      Map.ofEntries(
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

  /**
   * What kube-scheduler itself resolves a one-profile file to: it runs the binary on {@code config} (its {@code
   * clientConnection.kubeconfig} replaced by one that points nowhere) with {@code --write-config-to}, which makes
   * it exit once its frameworks are built, before it talks to an API server, and reads the plugins it logs at
   * {@code -v=2} ({@code "the scheduler starts to work with those plugins"}), as {@code
   * SchedulerProfile.enabledPlugins()} writes them: per extension point with plugins, {@code Name}, or {@code
   * Name:weight} at {@code score} and {@code placementScore}. The end-to-end suite's {@code
   * KubeSchedulerConfigParityIT} reads them the same way.
   *
   * @param flags more flags (a workload's feature gates)
   * @param dir where the files and the log go
   * @throws IllegalStateException with the log, if kube-scheduler refuses the file or logs no profile
   */
  static Map<String, List<String>> resolvedBy(Path binary, String config, List<String> flags, Path dir)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    var nowhere = dir.resolve("nowhere.kubeconfig");
    Files.writeString(
        nowhere,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: nowhere, cluster: {server: "https://127.0.0.1:9", insecure-skip-tls-verify: true}}]
        users: [{name: nobody, user: {token: none}}]
        contexts: [{name: nowhere, context: {cluster: nowhere, user: nobody}}]
        current-context: nowhere
        """);
    var file = dir.resolve("kube-scheduler.yaml");
    Files.writeString(file, config.replaceFirst("(?m)^  kubeconfig: .*$", "  kubeconfig: " + nowhere.toAbsolutePath()));
    var log = dir.resolve("kube-scheduler.log");
    var command =
        new ArrayList<>(
            List.of(
                binary.toString(), "--config=" + file.toAbsolutePath(), "--secure-port=0", "--v=2",
                "--logging-format=json", "--write-config-to=" + dir.resolve("written.yaml").toAbsolutePath()));
    command.addAll(flags);
    var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException("kube-scheduler did not exit within 120 s with --write-config-to; see " + log);
    }
    var lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    var mapper = JsonMapper.builder().build();
    for (var line : lines) {
      if (line.startsWith("{") && line.contains("the scheduler starts to work with those plugins")) {
        if (process.exitValue() == 0) {
          return plugins(mapper.readTree(line).get("Plugins"));
        }
      }
    }
    throw new IllegalStateException(
        "kube-scheduler exited with " + process.exitValue() + " and logged no profile's plugins for " + file + ":\n"
            + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
  }

  /** kube's {@code config.Plugins} as logged: per extension point {@code {"Enabled": [{"Name", "Weight"}]}}. */
  private static Map<String, List<String>> plugins(JsonNode logged) {
    var plugins = new LinkedHashMap<String, List<String>>();
    for (var field : logged.propertyNames()) {
      var enabled = logged.get(field).get("Enabled");
      if (enabled == null || enabled.isNull() || enabled.isEmpty()) {
        continue;
      }
      var point = POINTS.get(field);
      if (point == null) {
        throw new IllegalStateException(
            "kube-scheduler logged an extension point the benchmark does not know: " + field);
      }
      boolean weighted = field.equals("Score") || field.equals("PlacementScore");
      var names = new ArrayList<String>();
      for (var plugin : enabled) {
        var name = plugin.get("Name").stringValue();
        names.add(weighted ? name + ":" + plugin.get("Weight").intValue() : name);
      }
      plugins.put(point, List.copyOf(names));
    }
    return plugins;
  }
}
