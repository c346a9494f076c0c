package io.kubesched.server;

import io.kubesched.api.ConfigurationException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The server's command line, parsed. Immutable.
 *
 * @param config the KubeSchedulerConfiguration file ({@code --config})
 * @param kubeconfig the kubeconfig file ({@code --kubeconfig}); empty: in-cluster when run in a pod, else
 *     the usual kubeconfig lookup
 * @param port the port of {@code /healthz}, {@code /readyz} and {@code /metrics} ({@code --port}); 0 picks a
 *     free one
 * @param policyCrd whether SchedulingPolicy custom resources are watched (on unless {@code --no-policy-crd})
 * @param loggingFormat {@code --logging-format}: {@code text} (the default) or {@code json}, checked by {@link
 *     Logging#configure}
 * @param verbosity {@code -v} or {@code --v}: kube's log verbosity, 0 (the default) or more
 */
record Flags(
    Path config, Optional<Path> kubeconfig, int port, boolean policyCrd, String loggingFormat, int verbosity) {

  /**
   * kube-scheduler's secure port. Served here as plain HTTP: the endpoints carry no secret, and a cluster
   * that wants TLS on them puts a proxy in front.
   */
  static final int DEFAULT_PORT = 10259;

  static final String USAGE =
      "usage: kubesched-server --config FILE [--kubeconfig FILE] [--port N] [--no-policy-crd]\n"
          + "  --config FILE      a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), YAML or JSON\n"
          + "  --kubeconfig FILE  the cluster to schedule on; default: the pod's service account when run in\n"
          + "                     a pod, else KUBECONFIG or ~/.kube/config\n"
          + "  --port N           port of /healthz, /readyz and /metrics, plain HTTP (default "
          + DEFAULT_PORT
          + ")\n"
          + "  --no-policy-crd    do not watch SchedulingPolicy custom resources (kubesched.io/v1alpha1)\n"
          + "  --logging-format F text (default) or json: one JSON object per line\n"
          + "  -v, --v N          log verbosity, as kube's: 0 (default), 2 a line per decision, 4 debug\n"
          + "  --version          print the version, the git revision it was built from and Java's, then exit";

  Flags {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    Objects.requireNonNull(loggingFormat, "loggingFormat");
  }

  /** With text logs at verbosity 0. */
  Flags(Path config, Optional<Path> kubeconfig, int port, boolean policyCrd) {
    this(config, kubeconfig, port, policyCrd, "text", 0);
  }

  /** @return whether {@code args} ask for the usage text ({@code --help} or {@code -h}) */
  static boolean wantsHelp(List<String> args) {
    return args.contains("--help") || args.contains("-h");
  }

  /** @return whether {@code args} ask for the version ({@code --version}) */
  static boolean wantsVersion(List<String> args) {
    return args.contains("--version");
  }

  /**
   * Parses {@code --name value} and {@code --name=value}.
   *
   * @throws ConfigurationException naming the flag and the value: an unknown flag, a missing value, a port
   *     that is not a number from 0 to 65535, a flag given twice, or no {@code --config}
   */
  static Flags parse(List<String> args) {
    @Nullable Path config = null;
    @Nullable Path kubeconfig = null;
    @Nullable Integer port = null;
    @Nullable Boolean policyCrd = null;
    @Nullable String loggingFormat = null;
    @Nullable Integer verbosity = null;
    for (int i = 0; i < args.size(); i++) {
      var arg = args.get(i);
      var eq = arg.indexOf('=');
      var name = eq < 0 ? arg : arg.substring(0, eq);
      if (name.equals("--no-policy-crd") || name.equals("--policy-crd")) {
        if (eq >= 0) {
          throw new ConfigurationException("command line: " + name + " takes no value, was '" + arg + "'");
        }
        policyCrd = once("--policy-crd or --no-policy-crd", policyCrd, name.equals("--policy-crd"));
        continue;
      }
      if (name.equals("-v")) {
        name = "--v";
      }
      if (!List.of("--config", "--kubeconfig", "--port", "--logging-format", "--v").contains(name)) {
        throw new ConfigurationException(
            "command line: unknown flag '"
                + arg
                + "'; valid: --config, --kubeconfig, --port, --policy-crd, --no-policy-crd, --logging-format, -v,"
                + " --version, --help");
      }
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
        value = args.get(++i);
      } else {
        throw new ConfigurationException("command line: " + name + " needs a value");
      }
      if (value.isEmpty()) {
        throw new ConfigurationException("command line: " + name + " needs a value, was ''");
      }
      switch (name) {
        case "--config" -> config = once(name, config, Path.of(value));
        case "--kubeconfig" -> kubeconfig = once(name, kubeconfig, Path.of(value));
        case "--logging-format" -> loggingFormat = once(name, loggingFormat, value);
        case "--v" -> verbosity = once(name, verbosity, verbosity(value));
        default -> port = once(name, port, port(value));
      }
    }
    if (config == null) {
      throw new ConfigurationException("command line: --config FILE is required (a KubeSchedulerConfiguration)");
    }
    return new Flags(
        config,
        Optional.ofNullable(kubeconfig),
        port == null ? DEFAULT_PORT : port,
        policyCrd == null || policyCrd,
        loggingFormat == null ? "text" : loggingFormat,
        verbosity == null ? 0 : verbosity);
  }

  private static int verbosity(String value) {
    try {
      int v = Integer.parseInt(value);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below, with the value
    }
    throw new ConfigurationException("command line: -v must be a number, 0 or more, was '" + value + "'");
  }

  private static int port(String value) {
    try {
      int port = Integer.parseInt(value);
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below, with the value
    }
    throw new ConfigurationException("command line: --port must be a number from 0 to 65535, was '" + value + "'");
  }

  private static <T> T once(String name, @Nullable T previous, T value) {
    if (previous != null) {
      throw new ConfigurationException("command line: " + name + " is given more than once");
    }
    return value;
  }
}
