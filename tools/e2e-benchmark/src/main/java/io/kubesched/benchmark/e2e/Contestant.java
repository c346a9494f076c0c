package io.kubesched.benchmark.e2e;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Who places the measured pods in a run. */
enum Contestant {
  /** kube-scheduler built from the same k8s.io/kubernetes as the API server, its whole default profile. */
  KUBE_SCHEDULER("kube-scheduler", "default-scheduler"),
  /**
   * The same kube-scheduler running exactly the plugins of {@code DefaultPolicy}, with its weights: a generated
   * profile ({@link KubeSchedulerConfig#samePlugins}).
   */
  KUBE_SCHEDULER_SAME_PLUGINS("kube-scheduler (same plugins)", "same-plugins-scheduler"),
  /** This library: {@link BenchmarkScheduler} in a JVM of its own. */
  KUBESCHED("kubesched", "kubesched"),
  /**
   * No scheduler: the runner binds each pod to a node chosen round-robin, as fast as the server allows ({@link
   * CeilingBinder}), at each concurrency of the search; the table shows the best.
   */
  CEILING("bind ceiling", "bind-ceiling");

  private final String label;
  private final String schedulerName;

  Contestant(String label, String schedulerName) {
    this.label = label;
    this.schedulerName = schedulerName;
  }

  /** How tables and logs name it. */
  String label() {
    return label;
  }

  /** The {@code spec.schedulerName} of the pods it is to place. */
  String schedulerName() {
    return schedulerName;
  }

  /** How {@code --contestants} names it: {@code kube-scheduler}, {@code kube-scheduler-same-plugins}, ... */
  String option() {
    return this == CEILING ? "ceiling" : name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @throws IllegalArgumentException naming {@code text} and the known names, if it names no contestant
   */
  static Contestant parse(String text) {
    for (var c : values()) {
      if (c.label.equals(text) || c.option().equals(text) || c.name().equalsIgnoreCase(text.replace('-', '_'))) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "--contestants: unknown contestant '" + text + "'; known: "
            + Arrays.stream(values()).map(Contestant::option).collect(Collectors.joining(", ")));
  }
}
