package io.kubesched.server;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.config.GoDuration;
import io.kubesched.policy.config.LeaderElectionSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The server's command line, parsed: kube-scheduler's flags with kube's names, defaults and spellings (pflag's:
 * {@code --flag=value}, {@code --flag value}, {@code -v=2}, {@code -v 2}, {@code --v=2}, a boolean as {@code
 * --leader-elect} or {@code --leader-elect=false}; a flag given twice takes the last value, a list flag collects
 * every value), plus {@code --[no-]policy-crd}. picocli splits the arguments; the values are checked here, so
 * that every message names the flag and the value. Immutable.
 *
 * @param config the KubeSchedulerConfiguration file ({@code --config})
 * @param kubeconfig the kubeconfig file ({@code --kubeconfig}); empty: the file's {@code
 *     clientConnection.kubeconfig}, else in-cluster when run in a pod, else the usual kubeconfig lookup
 * @param policyCrd whether SchedulingPolicy custom resources are watched (on unless {@code --no-policy-crd})
 * @param verbosity kube's log verbosity ({@code -v}), 0 or more
 * @param loggingFormat {@code text} or {@code json} ({@code --logging-format})
 * @param leaderElection the {@code --leader-elect*} flags given, which override the file's {@code leaderElection}
 * @param serving the secure-serving and delegated authentication and authorization flags
 * @param writeConfigTo where {@code --write-config-to} writes the effective configuration, then exits
 * @param featureGates the {@code --feature-gates} given, each one the library honours with that value
 */
record Flags(
    Path config,
    Optional<Path> kubeconfig,
    boolean policyCrd,
    int verbosity,
    String loggingFormat,
    LeaderElectionFlags leaderElection,
    ServingOptions serving,
    Optional<Path> writeConfigTo,
    Map<String, Boolean> featureGates) {

  /** kube's {@code --logging-format} values. */
  static final List<String> LOGGING_FORMATS = List.of("text", "json");

  /**
   * The feature gates of kube-scheduler 1.37 that this library honours, each with the only value it behaves as:
   * kube's default (GA gates locked to it, and the beta and alpha ones it implements as kube's default does).
   */
  static final Map<String, Boolean> FEATURE_GATES =
      Collections.unmodifiableMap(
          new LinkedHashMap<>(
              Map.ofEntries(
                  Map.entry("InPlacePodVerticalScaling", true),
                  Map.entry("InterPodAffinityHostnameFastPath", false),
                  Map.entry("MatchLabelKeysInPodAffinity", true),
                  Map.entry("MatchLabelKeysInPodTopologySpread", true),
                  Map.entry("NodeDeclaredFeatures", true),
                  Map.entry("NodeInclusionPolicyInPodTopologySpread", true),
                  Map.entry("PodLevelResources", true),
                  Map.entry("PodSchedulingReadiness", true),
                  Map.entry("StorageCapacityScoring", true))));

  /** The flags whose value is true or false, which pflag lets stand alone for true. */
  private static final List<String> BOOLEANS = List.of("--leader-elect", "--policy-crd");

  private static final Pattern IPV4 = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  Flags {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    Objects.requireNonNull(loggingFormat, "loggingFormat");
    Objects.requireNonNull(leaderElection, "leaderElection");
    Objects.requireNonNull(serving, "serving");
    Objects.requireNonNull(writeConfigTo, "writeConfigTo");
    featureGates = Collections.unmodifiableMap(new LinkedHashMap<>(featureGates));
  }

  /**
   * The {@code --leader-elect*} flags given, each empty when not given. As kube-scheduler, those given replace
   * the configuration file's {@code leaderElection} settings, and the result is validated as the file's is.
   */
  record LeaderElectionFlags(
      Optional<Boolean> leaderElect,
      Optional<Duration> leaseDuration,
      Optional<Duration> renewDeadline,
      Optional<Duration> retryPeriod,
      Optional<String> resourceLock,
      Optional<String> resourceName,
      Optional<String> resourceNamespace) {

    static final LeaderElectionFlags NONE =
        new LeaderElectionFlags(
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());

    /** @return whether any {@code --leader-elect*} flag was given */
    boolean any() {
      return !equals(NONE);
    }

    /** @return {@code file} with each setting a flag gives replaced by the flag's */
    LeaderElectionSettings applyTo(LeaderElectionSettings file) {
      return new LeaderElectionSettings(
          leaderElect.orElse(file.leaderElect()),
          leaseDuration.orElse(file.leaseDuration()),
          renewDeadline.orElse(file.renewDeadline()),
          retryPeriod.orElse(file.retryPeriod()),
          resourceLock.orElse(file.resourceLock()),
          resourceName.orElse(file.resourceName()),
          resourceNamespace.orElse(file.resourceNamespace()));
    }
  }

  /** @return whether {@code args} ask for the usage text ({@code --help} or {@code -h}) */
  static boolean wantsHelp(List<String> args) {
    return args.contains("--help") || args.contains("-h");
  }

  /** @return whether {@code args} ask for the version ({@code --version}) */
  static boolean wantsVersion(List<String> args) {
    return args.contains("--version");
  }

  /** @return the usage text: a synopsis, then every flag with its default and what it means */
  static String usage() {
    return new CommandLine(spec()).getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing();
  }

  /** @return every flag's names, as the message for an unknown flag lists them */
  static List<String> supported() {
    var names = new ArrayList<String>();
    for (var option : spec().options()) {
      names.addAll(List.of(option.names()));
    }
    return names;
  }

  /**
   * Parses the command line.
   *
   * @throws ConfigurationException naming the flag and the value: an unknown flag or argument, a missing value, a
   *     number, duration, address or choice out of range, a feature gate not honoured, or no {@code --config}
   */
  static Flags parse(List<String> args) {
    var spec = spec();
    var commandLine =
        new CommandLine(spec)
            .setOverwrittenOptionsAllowed(true) // pflag: the last value wins
            .setExpandAtFiles(false)
            .setCaseInsensitiveEnumValuesAllowed(false);
    ParseResult parsed;
    try {
      parsed = commandLine.parseArgs(pflagBooleans(args).toArray(String[]::new));
    } catch (CommandLine.UnmatchedArgumentException e) {
      throw unmatched(e.getUnmatched().isEmpty() ? "?" : e.getUnmatched().get(0));
    } catch (CommandLine.MissingParameterException e) {
      var name = e.getMissing().isEmpty() ? "a flag" : ((OptionSpec) e.getMissing().get(0)).longestName();
      throw error(name + " needs a value");
    } catch (CommandLine.ParameterException e) {
      throw error(String.valueOf(e.getMessage()));
    }
    var values = new Values(parsed);
    var config = values.text("--config").filter(v -> !v.isEmpty());
    if (config.isEmpty()) {
      throw error("--config FILE is required (a KubeSchedulerConfiguration)");
    }
    var certFile = values.text("--tls-cert-file").filter(v -> !v.isEmpty()).map(Path::of);
    var keyFile = values.text("--tls-private-key-file").filter(v -> !v.isEmpty()).map(Path::of);
    if (certFile.isPresent() != keyFile.isPresent()) {
      throw error("--tls-cert-file and --tls-private-key-file go together; only "
          + (certFile.isPresent() ? "--tls-cert-file" : "--tls-private-key-file") + " was given");
    }
    var serving =
        new ServingOptions(
            values.get("--secure-port", v -> number("--secure-port", v, 0, 65535))
                .orElse(ServingOptions.DEFAULT_SECURE_PORT),
            values.get("--bind-address", Flags::address).orElseGet(() -> ServingOptions.defaults().bindAddress()),
            certFile,
            keyFile,
            values.text("--authentication-kubeconfig").filter(v -> !v.isEmpty()).map(Path::of),
            values.text("--authorization-kubeconfig").filter(v -> !v.isEmpty()).map(Path::of),
            values.list("--authorization-always-allow-paths").orElse(ServingOptions.DEFAULT_ALWAYS_ALLOW_PATHS));
    var leaderElection =
        new LeaderElectionFlags(
            values.get("--leader-elect", v -> bool("--leader-elect", v)),
            values.get("--leader-elect-lease-duration", v -> duration("--leader-elect-lease-duration", v)),
            values.get("--leader-elect-renew-deadline", v -> duration("--leader-elect-renew-deadline", v)),
            values.get("--leader-elect-retry-period", v -> duration("--leader-elect-retry-period", v)),
            values.get("--leader-elect-resource-lock", Flags::resourceLock),
            values.text("--leader-elect-resource-name"),
            values.text("--leader-elect-resource-namespace"));
    boolean policyCrd = values.get("--policy-crd", v -> bool("--policy-crd", v)).orElse(true);
    if (parsed.hasMatchedOption("--no-policy-crd")) {
      policyCrd = false;
    }
    return new Flags(
        Path.of(config.get()),
        values.text("--kubeconfig").filter(v -> !v.isEmpty()).map(Path::of),
        policyCrd,
        values.get("--v", v -> number("-v", v, 0, Integer.MAX_VALUE)).orElse(0),
        values.get("--logging-format", Flags::loggingFormat).orElse("text"),
        leaderElection,
        serving,
        values.text("--write-config-to").filter(v -> !v.isEmpty()).map(Path::of),
        featureGates(values.list("--feature-gates").orElse(List.of())));
  }

  /** The values picocli matched, by an option's longest name; absent when the option was not given. */
  private record Values(ParseResult parsed) {

    Optional<String> text(String name) {
      return parsed.hasMatchedOption(name) ? Optional.of(parsed.matchedOption(name).<String>getValue())
          : Optional.empty();
    }

    <T> Optional<T> get(String name, Function<String, T> convert) {
      return text(name).map(convert);
    }

    /** pflag's string slice: comma-separated, repeatable, appended; given as empty, an empty list. */
    Optional<List<String>> list(String name) {
      if (!parsed.hasMatchedOption(name)) {
        return Optional.empty();
      }
      List<String> given = parsed.matchedOption(name).getValue();
      return Optional.of(given.stream().flatMap(v -> List.of(v.split(",", -1)).stream())
          .map(String::strip).filter(v -> !v.isEmpty()).toList());
    }
  }

  /**
   * pflag lets a boolean flag stand alone for true, and takes its value only after {@code =}: {@code
   * --leader-elect false} is the flag and an argument. So a bare boolean flag becomes {@code --flag=true} before
   * picocli, which then requires every boolean's value to be attached.
   */
  private static List<String> pflagBooleans(List<String> args) {
    var out = new ArrayList<String>(args.size());
    for (var arg : args) {
      if (arg.startsWith("--no-policy-crd=")) {
        throw error("--no-policy-crd takes no value, was '" + arg + "'");
      }
      out.add(BOOLEANS.contains(arg) ? arg + "=true" : arg);
    }
    return out;
  }

  private static ConfigurationException unmatched(String arg) {
    if (!arg.startsWith("-")) {
      throw error("unexpected argument '" + arg + "': kubesched-server takes flags only");
    }
    var eq = arg.indexOf('=');
    var name = eq < 0 ? arg : arg.substring(0, eq);
    if (name.equals("--port")) {
      return error("--port is gone: the endpoints are served on --secure-port (kube-scheduler's, HTTPS, default "
          + ServingOptions.DEFAULT_SECURE_PORT + "; 0 turns them off), was '" + arg + "'");
    }
    return error("unknown flag '" + arg + "'; supported: " + String.join(", ", supported()));
  }

  /** pflag's {@code strconv.ParseBool}. */
  private static boolean bool(String flag, String value) {
    return switch (value) {
      case "1", "t", "T", "TRUE", "true", "True" -> true;
      case "0", "f", "F", "FALSE", "false", "False" -> false;
      default -> throw error(flag + " must be true or false, was '" + value + "'");
    };
  }

  private static int number(String flag, String value, int min, int max) {
    try {
      long number = Long.parseLong(value);
      if (number >= min && number <= max) {
        return (int) number;
      }
    } catch (NumberFormatException e) {
      // reported below, with the value
    }
    throw error(flag + " must be a number from " + min + " to " + max + ", was '" + value + "'");
  }

  private static Duration duration(String flag, String value) {
    return GoDuration.parse(value)
        .orElseThrow(() -> error(flag + " must be a duration such as 15s, 1m30s or 300ms, was '" + value + "'"));
  }

  private static String resourceLock(String value) {
    if (!value.equals("leases")) {
      throw error("--leader-elect-resource-lock must be leases (the only lock kube-scheduler 1.37 takes), was '"
          + value + "'");
    }
    return value;
  }

  private static String loggingFormat(String value) {
    if (!LOGGING_FORMATS.contains(value)) {
      throw error("--logging-format must be text or json, was '" + value + "'");
    }
    return value;
  }

  /** An IP address as Go's {@code net.ParseIP} reads it; never a host name (nothing is looked up). */
  private static InetAddress address(String value) {
    boolean v4 = IPV4.matcher(value).matches()
        && List.of(value.split("\\.")).stream().allMatch(part -> Integer.parseInt(part) <= 255);
    if (v4 || IPV6.matcher(value).matches()) {
      try {
        return InetAddress.getByName(value); // a literal: parsed, not looked up
      } catch (UnknownHostException e) {
        // reported below, with the value
      }
    }
    throw error("--bind-address must be an IP address such as 0.0.0.0, 127.0.0.1 or ::, was '" + value + "'");
  }

  /** pflag's map of string to bool: {@code Name=true,Other=false}, repeatable. */
  private static Map<String, Boolean> featureGates(List<String> entries) {
    var gates = new LinkedHashMap<String, Boolean>();
    for (var entry : entries) {
      var eq = entry.indexOf('=');
      if (eq < 0) {
        throw error("--feature-gates needs Name=true or Name=false, was '" + entry + "'");
      }
      var name = entry.substring(0, eq).strip();
      var text = entry.substring(eq + 1).strip();
      var value = bool("--feature-gates " + name, text);
      var honoured = FEATURE_GATES.get(name);
      if (honoured == null) {
        throw error("--feature-gates " + name + " is not a gate this scheduler honours; accepted: " + accepted());
      }
      if (honoured != value) {
        throw error("--feature-gates " + name + "=" + value + " is not supported: this scheduler behaves as "
            + name + "=" + honoured + "; accepted: " + accepted());
      }
      gates.put(name, value);
    }
    return gates;
  }

  private static String accepted() {
    return FEATURE_GATES.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
  }

  private static ConfigurationException error(String message) {
    return new ConfigurationException("command line: " + message);
  }

  /** The flags, as picocli splits them: every value a string (or strings), checked by {@link #parse}. */
  private static CommandSpec spec() {
    var spec = CommandSpec.create().name("kubesched-server");
    spec.usageMessage()
        .customSynopsis("usage: kubesched-server --config FILE [flags]")
        .synopsisHeading("")
        .optionListHeading("%nflags (kube-scheduler's, with kube's defaults; --[no-]policy-crd is kubesched's):%n")
        .sortOptions(false)
        .width(110)
        .longOptionsMaxWidth(40);
    spec.addOption(text("FILE", "The path to the configuration file (a KubeSchedulerConfiguration, "
        + "kubescheduler.config.k8s.io/v1, YAML or JSON). Required.", "--config"));
    spec.addOption(text("FILE", "Path to kubeconfig file with authorization and master location information; "
        + "default: the file's clientConnection.kubeconfig, else the pod's service account, else KUBECONFIG or "
        + "~/.kube/config.", "--kubeconfig"));
    spec.addOption(text("FILE", "If set, write the configuration values to this file and exit.",
        "--write-config-to"));
    spec.addOption(text("N", "number for the log level verbosity (default 0)", "-v", "--v"));
    spec.addOption(text("FORMAT", "Sets the log format. Permitted formats: \"json\", \"text\". (default \"text\")",
        "--logging-format"));
    spec.addOption(text("BOOL", "Start a leader election client and gain leadership before executing the main "
        + "loop. Enable this when running replicated components for high availability. (default true)",
        "--leader-elect"));
    spec.addOption(text("DURATION", "The duration that non-leader candidates will wait after observing a "
        + "leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. "
        + "(default 15s)", "--leader-elect-lease-duration"));
    spec.addOption(text("DURATION", "The interval between attempts by the acting master to renew a leadership "
        + "slot before it stops leading. (default 10s)", "--leader-elect-renew-deadline"));
    spec.addOption(text("DURATION", "The duration the clients should wait between attempting acquisition and "
        + "renewal of a leadership. (default 2s)", "--leader-elect-retry-period"));
    spec.addOption(text("LOCK", "The type of resource object that is used for locking during leader election. "
        + "Supported: 'leases'. (default \"leases\")", "--leader-elect-resource-lock"));
    spec.addOption(text("NAME", "The name of resource object that is used for locking during leader election. "
        + "(default \"kube-scheduler\")", "--leader-elect-resource-name"));
    spec.addOption(text("NAMESPACE", "The namespace of resource object that is used for locking during leader "
        + "election. (default \"kube-system\")", "--leader-elect-resource-namespace"));
    spec.addOption(text("PORT", "The port on which to serve HTTPS with authentication and authorization. If 0, "
        + "don't serve HTTPS at all. (default " + ServingOptions.DEFAULT_SECURE_PORT + ")", "--secure-port"));
    spec.addOption(text("IP", "The IP address on which to listen for the --secure-port port. (default 0.0.0.0)",
        "--bind-address"));
    spec.addOption(text("FILE", "File containing the default x509 Certificate for HTTPS. If neither it nor "
        + "--tls-private-key-file is given, a self-signed certificate is made at start.", "--tls-cert-file"));
    spec.addOption(text("FILE", "File containing the default x509 private key matching --tls-cert-file.",
        "--tls-private-key-file"));
    spec.addOption(text("FILE", "kubeconfig file pointing at the 'core' kubernetes server with enough rights to "
        + "create tokenreviews.authentication.k8s.io; default: in-cluster.", "--authentication-kubeconfig"));
    spec.addOption(text("FILE", "kubeconfig file pointing at the 'core' kubernetes server with enough rights to "
        + "create subjectaccessreviews.authorization.k8s.io; default: in-cluster.", "--authorization-kubeconfig"));
    spec.addOption(list("PATHS", "A list of HTTP paths to skip during authorization, i.e. these are authorized "
        + "without contacting the 'core' kubernetes server. Comma-separated, repeatable. (default "
        + "[/healthz,/readyz,/livez])", "--authorization-always-allow-paths"));
    spec.addOption(list("GATES", "A set of key=value pairs that describe feature gates; only the gates this "
        + "scheduler honours, with the value it behaves as: " + accepted(), "--feature-gates"));
    spec.addOption(text("BOOL", "Watch SchedulingPolicy custom resources (kubesched.io/v1alpha1). (default true)",
        "--policy-crd"));
    spec.addOption(OptionSpec.builder("--no-policy-crd").arity("0").type(boolean.class)
        .description("Do not watch SchedulingPolicy custom resources.").build());
    spec.addOption(OptionSpec.builder("--version").arity("0").type(boolean.class)
        .description("Print the version, the git revision it was built from and Java's, then exit.").build());
    spec.addOption(OptionSpec.builder("-h", "--help").arity("0").type(boolean.class)
        .description("Print this help, then exit.").build());
    return spec;
  }

  /** @return an option of one value, a string picocli does not check (the caller does, naming the flag) */
  static OptionSpec text(String label, String description, String... names) {
    return OptionSpec.builder(names).arity("1").type(String.class).paramLabel(label).description(description)
        .build();
  }

  private static OptionSpec list(String label, String description, String... names) {
    return OptionSpec.builder(names).arity("1").type(List.class).auxiliaryTypes(String.class).paramLabel(label)
        .description(description).build();
  }

  @Override
  public String toString() {
    return "Flags[config=" + config + ", kubeconfig=" + kubeconfig + ", policyCrd=" + policyCrd + ", v="
        + verbosity + ", loggingFormat=" + loggingFormat + ", leaderElection=" + leaderElection + ", serving="
        + serving + ", writeConfigTo=" + writeConfigTo + ", featureGates=" + featureGates + "]";
  }
}
