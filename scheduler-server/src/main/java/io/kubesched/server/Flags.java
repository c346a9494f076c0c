package io.kubesched.server;

import io.kubesched.api.ConfigurationException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Arrays;
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
 * @param serving how the endpoints are served ({@code --secure-port}, {@code --bind-address}, {@code --tls-*},
 *     {@code --authentication-kubeconfig}, {@code --authorization-kubeconfig}, {@code
 *     --authorization-always-allow-paths})
 * @param policyCrd whether SchedulingPolicy custom resources are watched (on unless {@code --no-policy-crd})
 */
record Flags(Path config, Optional<Path> kubeconfig, ServingOptions serving, boolean policyCrd) {

  private static final List<String> SERVING_FLAGS =
      List.of(
          "--secure-port",
          "--bind-address",
          "--tls-cert-file",
          "--tls-private-key-file",
          "--authentication-kubeconfig",
          "--authorization-kubeconfig",
          "--authorization-always-allow-paths");

  static final String USAGE =
      "usage: kubesched-server --config FILE [--kubeconfig FILE] [--secure-port N] [--no-policy-crd] ...\n"
          + "  --config FILE      a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), YAML or JSON\n"
          + "  --kubeconfig FILE  the cluster to schedule on; default: the pod's service account when run in\n"
          + "                     a pod, else KUBECONFIG or ~/.kube/config\n"
          + "  --secure-port N    HTTPS port of /healthz, /readyz, /livez and /metrics (default "
          + ServingOptions.DEFAULT_SECURE_PORT
          + "); 0: none\n"
          + "  --bind-address IP  the address listened on (default 0.0.0.0)\n"
          + "  --tls-cert-file FILE, --tls-private-key-file FILE\n"
          + "                     the serving certificate (chain) and key, PEM; default: self-signed at start\n"
          + "  --authentication-kubeconfig FILE, --authorization-kubeconfig FILE\n"
          + "                     the API server that reviews tokens and access; default: in-cluster in a pod\n"
          + "  --authorization-always-allow-paths P,P\n"
          + "                     paths served without a token (default /healthz,/readyz,/livez)\n"
          + "  --no-policy-crd    do not watch SchedulingPolicy custom resources (kubesched.io/v1alpha1)\n"
          + "  --version          print the version, the git revision it was built from and Java's, then exit";

  Flags {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(kubeconfig, "kubeconfig");
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
    @Nullable Boolean policyCrd = null;
    var serving = new java.util.HashMap<String, String>();
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
      if (!List.of("--config", "--kubeconfig").contains(name) && !SERVING_FLAGS.contains(name)) {
        throw new ConfigurationException(
            "command line: unknown flag '"
                + arg
                + "'; valid: --config, --kubeconfig, "
                + String.join(", ", SERVING_FLAGS)
                + ", --policy-crd, --no-policy-crd, --version, --help");
      }
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
        value = args.get(++i);
      } else {
        throw new ConfigurationException("command line: " + name + " needs a value");
      }
      if (value.isEmpty() && !name.equals("--authorization-always-allow-paths")) {
        throw new ConfigurationException("command line: " + name + " needs a value, was ''");
      }
      switch (name) {
        case "--config" -> config = once(name, config, Path.of(value));
        case "--kubeconfig" -> kubeconfig = once(name, kubeconfig, Path.of(value));
        default -> serving.put(name, once(name, serving.get(name), value));
      }
    }
    if (config == null) {
      throw new ConfigurationException("command line: --config FILE is required (a KubeSchedulerConfiguration)");
    }
    return new Flags(config, Optional.ofNullable(kubeconfig), serving(serving), policyCrd == null || policyCrd);
  }

  private static ServingOptions serving(java.util.Map<String, String> flags) {
    var defaults = ServingOptions.defaults();
    var paths = flags.get("--authorization-always-allow-paths");
    return new ServingOptions(
        flags.containsKey("--secure-port") ? port(flags.get("--secure-port")) : defaults.securePort(),
        flags.containsKey("--bind-address") ? address(flags.get("--bind-address")) : defaults.bindAddress(),
        Optional.ofNullable(flags.get("--tls-cert-file")).map(Path::of),
        Optional.ofNullable(flags.get("--tls-private-key-file")).map(Path::of),
        Optional.ofNullable(flags.get("--authentication-kubeconfig")).map(Path::of),
        Optional.ofNullable(flags.get("--authorization-kubeconfig")).map(Path::of),
        paths == null
            ? defaults.alwaysAllowPaths()
            : Arrays.stream(paths.split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList());
  }

  private static InetAddress address(String value) {
    // an IP literal only: getByName would resolve a host name
    if (value.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
      try {
        return InetAddress.getByName(value);
      } catch (UnknownHostException e) {
        // reported below
      }
    }
    throw new ConfigurationException("command line: --bind-address must be an IP address, was '" + value + "'");
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
    throw new ConfigurationException(
        "command line: --secure-port must be a number from 0 to 65535, was '" + value + "'");
  }

  private static <T> T once(String name, @Nullable T previous, T value) {
    if (previous != null) {
      throw new ConfigurationException("command line: " + name + " is given more than once");
    }
    return value;
  }
}
