package io.kubesched.benchmark.e2e;

/** Who places the measured pods in a run. */
enum Contestant {
  /** kube-scheduler built from the same k8s.io/kubernetes as the API server, default profile. */
  KUBE_SCHEDULER("kube-scheduler", "default-scheduler"),
  /** This library: {@link BenchmarkScheduler} in a JVM of its own. */
  KUBESCHED("kubesched", "kubesched"),
  /** No scheduler: the runner binds each pod to a node chosen round-robin, as fast as the server allows. */
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

  static Contestant parse(String text) {
    for (var c : values()) {
      if (c.label.equals(text) || c.name().equalsIgnoreCase(text.replace('-', '_'))) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "unknown contestant '" + text + "'; known: kube-scheduler, kubesched, ceiling");
  }
}
