package io.kubesched.server;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulingListener;
import io.kubesched.facade.Client;
import io.kubesched.facade.Options;
import io.kubesched.facade.PodInfos;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.policy.config.PluginRegistry;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code kubesched-server simulate QUESTION [flags]}: a what-if question asked of the cluster a kubeconfig reaches,
 * answered as a table (or JSON) on standard output, binding, evicting and writing nothing.
 *
 * <p>How it sees the cluster: it starts a controller for the configuration's profiles that never leads (external
 * leadership, never granted), so that it lists and watches exactly as the scheduler does and never schedules;
 * it takes the controller's {@link io.kubesched.facade.Controller#snapshot() snapshot} and pending pods, closes it,
 * and simulates ({@link WhatIf}). The identity needs only get, list and watch. A configuration's {@code
 * leaderElection} is not used (nothing campaigns), and SchedulingPolicy resources are not applied: the file's
 * profiles place the pods.
 *
 * <p>Exit status: 0 with the answer printed (a drain that is not possible included: the answer says so); 1 when the
 * configuration, a pod file or the connection fails, or a node or pod named is not in the cluster, with a one-line
 * message on standard error; 2 on a bad command line.
 */
final class SimulateCommand {

  private static final Logger LOG = LoggerFactory.getLogger(SimulateCommand.class);

  /** The first argument that makes the program this command. */
  static final String NAME = "simulate";

  static final List<String> QUESTIONS = List.of("capacity", "drain", "pods");
  static final int DEFAULT_LIMIT = 1000;

  /** kube's defaults, for a simulation without {@code --config}: the one profile {@code default-scheduler}. */
  private static final String DEFAULT_CONFIGURATION =
      "apiVersion: " + SchedulerConfiguration.API_VERSION + "\nkind: " + SchedulerConfiguration.KIND + "\n"
          + "profiles: [{schedulerName: " + SchedulerConfiguration.DEFAULT_SCHEDULER_NAME + "}]\n";

  /**
   * The command line, parsed. Immutable.
   *
   * @param question {@code capacity}, {@code drain} or {@code pods}
   * @param nodes drain: the nodes to empty
   * @param config the configuration whose profiles place the pods; empty: kube's defaults
   * @param profile the profile asked about; empty: the configuration's only one
   * @param kubeconfig where the cluster is; empty: as the server looks it up
   * @param pod capacity: the pod to copy
   * @param limit capacity: the most copies tried
   * @param files pods: the pods to add
   * @param candidate pods: a configuration whose profile of the same name is compared with the current one
   * @param pending pods: whether the profile's pending pods are placed first
   * @param preemption pods: whether preemption may evict pods (reported, nothing deleted)
   * @param json whether the answer is printed as JSON
   * @param verbosity {@code -v}: 0 logs warnings only
   */
  record Args(
      String question,
      List<String> nodes,
      Optional<Path> config,
      Optional<String> profile,
      Optional<Path> kubeconfig,
      Optional<Path> pod,
      int limit,
      List<Path> files,
      Optional<Path> candidate,
      boolean pending,
      boolean preemption,
      boolean json,
      int verbosity) {

    Args {
      nodes = List.copyOf(nodes);
      files = List.copyOf(files);
    }
  }

  private SimulateCommand() {}

  /**
   * Runs {@code kubesched-server simulate ARGS}.
   *
   * @param args the arguments after {@code simulate}
   * @return the exit status
   */
  static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err, PluginRegistry plugins) {
    if (Flags.wantsHelp(args)) {
      out.println(usage());
      return 0;
    }
    Args parsed;
    try {
      parsed = parse(args);
      Logging.configure("text", parsed.verbosity());
      if (parsed.verbosity() == 0) {
        Logging.warningsOnly();
      }
    } catch (ConfigurationException e) {
      err.println(oneLine(e) + "\n" + usage());
      return Main.BAD_USAGE;
    }
    try {
      var answer = answer(parsed, env, plugins);
      out.print(parsed.json() ? Json.write(answer.json()) + "\n" : answer.table());
      return 0;
    } catch (SchedulerException | IllegalArgumentException e) { // ConfigurationException is a SchedulerException
      LOG.debug("Simulation failed", e);
      err.println(oneLine(e));
      return Main.BAD_CONFIG;
    } catch (RuntimeException e) { // fabric8's: the connection, the list
      LOG.debug("Simulation failed", e);
      err.println("kubesched-server simulate: " + e.getClass().getSimpleName() + ": " + e.getMessage());
      return Main.BAD_CONFIG;
    }
  }

  /**
   * Reads the configuration and the pod files, takes the cluster's view, and answers.
   *
   * @throws ConfigurationException naming the file, the field and the value
   * @throws IllegalArgumentException naming the node or pod the simulation refuses
   */
  static WhatIf.Answer answer(Args args, Map<String, String> env, PluginRegistry plugins) {
    var source = args.config().map(f -> "config " + f).orElse("kube's default configuration");
    var configuration = args.config().map(f -> SchedulerConfiguration.read(f, plugins))
        .orElseGet(() -> SchedulerConfiguration.parse(DEFAULT_CONFIGURATION, source, plugins));
    var setup = SchedulerSetup.of(configuration, source);
    var profile = profile(args.profile(), setup.profiles(), source);
    Optional<FinderFunc> candidate = args.candidate().map(file -> {
      var candidates = SchedulerSetup.of(SchedulerConfiguration.read(file, plugins), "config " + file).profiles();
      var policy = candidates.get(profile);
      if (policy == null) {
        throw new ConfigurationException("--candidate-config " + file + " has no profile '" + profile
            + "' to compare with; its profiles are " + candidates.keySet());
      }
      return policy;
    });
    var options = setup.applyTo(Options.builder()
            .connection(ServerOptions.connection(args.kubeconfig(), setup.kubeconfig(), env)))
        .watch(EnumSet.allOf(ClusterData.class))
        .externalLeadership()
        .build();
    try (var client = Client.create(options)) {
      Function<Path, List<PodInfo>> read = file -> pods(client, file);
      var template = args.pod().map(file -> template(read.apply(file), file));
      var added = new ArrayList<PodInfo>();
      args.files().forEach(file -> added.addAll(read.apply(file)));
      var view = view(client, setup.profiles(), profile);
      LOG.info("Simulating on {} nodes and {} pending pods of profile {}", view.cluster().nodes().size(),
          view.pending().size(), profile);
      return switch (args.question()) {
        case "capacity" -> WhatIf.capacity(view, template.orElseThrow(), args.limit());
        case "drain" -> WhatIf.drain(view, args.nodes());
        default -> {
          var asked = args.pending() ? view : view.withoutPending();
          yield candidate.isPresent()
              ? WhatIf.compare(asked, added, candidate.get(), args.preemption())
              : WhatIf.pods(asked, added, args.preemption());
        }
      };
    }
  }

  /** Lists the cluster with a controller that never leads, and takes its view. */
  private static WhatIf.View view(Client client, Map<String, FinderFunc> profiles, String profile) {
    try (var controller = client.newPodController(profiles, SchedulingListener.NONE)) {
      controller.start();
      return WhatIf.View.of(controller, profile);
    }
  }

  private static String profile(Optional<String> asked, Map<String, FinderFunc> profiles, String source) {
    if (asked.isPresent()) {
      if (!profiles.containsKey(asked.get())) {
        throw new ConfigurationException("--profile " + asked.get() + " is not a profile of " + source
            + "; its profiles are " + new TreeSet<>(profiles.keySet()));
      }
      return asked.get();
    }
    if (profiles.size() != 1) {
      throw new ConfigurationException(source + " has " + profiles.size() + " profiles "
          + new TreeSet<>(profiles.keySet()) + ": name one with --profile");
    }
    return profiles.keySet().iterator().next();
  }

  /**
   * @return the Pods of {@code file} (YAML or JSON; several documents, or a List), each given the namespace {@code
   *     default} if it names none, and a uid of its own if it has none
   * @throws ConfigurationException naming the file: unreadable, not Kubernetes objects, an object that is not a
   *     Pod, or a pod the scheduler cannot read
   */
  static List<PodInfo> pods(Client client, Path file) {
    List<HasMetadata> objects;
    try (InputStream in = Files.newInputStream(file)) {
      objects = client.kubernetesClient().load(in).items();
    } catch (IOException e) {
      throw new ConfigurationException(file + ": cannot read: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new ConfigurationException(file + ": not Kubernetes objects: " + e.getMessage(), e);
    }
    var pods = new ArrayList<PodInfo>();
    for (var object : objects) {
      if (!(object instanceof Pod pod)) {
        throw new ConfigurationException(file + ": " + object.getKind() + " " + object.getMetadata().getName()
            + " is not a Pod; simulate takes Pods (for copies of a workload's pod, use capacity --pod)");
      }
      var meta = pod.getMetadata();
      if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
        meta.setNamespace("default");
      }
      if (meta.getUid() == null || meta.getUid().isEmpty()) {
        meta.setUid("simulated:" + meta.getNamespace() + "/" + meta.getName());
      }
      try {
        pods.add(PodInfos.of(pod));
      } catch (SchedulerException e) {
        throw new ConfigurationException(file + ": " + e.getMessage(), e);
      }
    }
    if (pods.isEmpty()) {
      throw new ConfigurationException(file + ": holds no Pod");
    }
    return pods;
  }

  /** @return the one pod of {@code file}, without the node it may be bound to (a running pod's YAML is a template) */
  private static PodInfo template(List<PodInfo> pods, Path file) {
    if (pods.size() != 1) {
      throw new ConfigurationException("--pod " + file + " holds " + pods.size() + " pods; capacity copies one");
    }
    return pods.get(0).toBuilder().nodeName("").build();
  }

  /**
   * @throws ConfigurationException naming the flag and the value
   */
  static Args parse(List<String> args) {
    ParseResult parsed;
    try {
      parsed = new CommandLine(spec()).setOverwrittenOptionsAllowed(true).setExpandAtFiles(false)
          .parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.UnmatchedArgumentException e) {
      var arg = e.getUnmatched().isEmpty() ? "?" : e.getUnmatched().get(0);
      throw error("unknown flag '" + arg + "'");
    } catch (CommandLine.MissingParameterException e) {
      throw error(e.getMissing().get(0) instanceof OptionSpec option ? option.longestName() + " needs a value"
          : "a question is required: " + String.join(", ", QUESTIONS));
    } catch (CommandLine.ParameterException e) {
      throw error(String.valueOf(e.getMessage()));
    }
    var positional = parsed.matchedPositional(0);
    if (positional == null) {
      throw error("a question is required: " + String.join(", ", QUESTIONS));
    }
    List<String> words = positional.getValue();
    var question = words.get(0);
    if (!QUESTIONS.contains(question)) {
      throw error("unknown question '" + question + "'; the questions are " + String.join(", ", QUESTIONS));
    }
    var nodes = words.subList(1, words.size());
    if (question.equals("drain") == nodes.isEmpty()) {
      throw error(question.equals("drain") ? "drain needs the nodes to empty: simulate drain NODE..."
          : question + " takes no arguments, was '" + String.join(" ", nodes) + "'");
    }
    var pod = path(parsed, "--pod");
    if (question.equals("capacity") != pod.isPresent()) {
      throw error(pod.isPresent() ? "--pod is for capacity only" : "capacity needs --pod FILE: the pod to copy");
    }
    List<String> files = parsed.matchedOptionValue("--filename", List.of());
    var candidate = path(parsed, "--candidate-config");
    boolean pending = !parsed.hasMatchedOption("--no-pending");
    boolean preemption = !parsed.hasMatchedOption("--no-preemption");
    if (!question.equals("pods")) {
      for (var flag : List.of("--filename", "--candidate-config", "--no-pending", "--no-preemption")) {
        if (parsed.hasMatchedOption(flag)) {
          throw error(flag + " is for pods only");
        }
      }
    }
    if (!question.equals("capacity") && parsed.hasMatchedOption("--limit")) {
      throw error("--limit is for capacity only");
    }
    var output = parsed.matchedOptionValue("--output", "table");
    if (!output.equals("table") && !output.equals("json")) {
      throw error("--output must be table or json, was '" + output + "'");
    }
    return new Args(
        question,
        nodes,
        path(parsed, "--config"),
        Optional.ofNullable(parsed.<String>matchedOptionValue("--profile", null)),
        path(parsed, "--kubeconfig"),
        pod,
        number(parsed, "--limit", 1, DEFAULT_LIMIT),
        files.stream().map(Path::of).toList(),
        candidate,
        pending,
        preemption,
        output.equals("json"),
        number(parsed, "--v", 0, 0));
  }

  private static Optional<Path> path(ParseResult parsed, String name) {
    String value = parsed.matchedOptionValue(name, "");
    return value.isEmpty() ? Optional.empty() : Optional.of(Path.of(value));
  }

  private static int number(ParseResult parsed, String name, int min, int otherwise) {
    String value = parsed.matchedOptionValue(name, null);
    if (value == null) {
      return otherwise;
    }
    try {
      int number = Integer.parseInt(value);
      if (number >= min) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below, with the value
    }
    throw error(name.replace("--v", "-v") + " must be a number from " + min + ", was '" + value + "'");
  }

  static String usage() {
    return new CommandLine(spec()).getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing();
  }

  private static CommandSpec spec() {
    var spec = CommandSpec.create().name("kubesched-server simulate");
    spec.usageMessage()
        .customSynopsis(
            "usage: kubesched-server simulate capacity --pod FILE [--limit N] [flags]",
            "       kubesched-server simulate drain NODE... [flags]",
            "       kubesched-server simulate pods [-f FILE]... [--candidate-config FILE] [flags]",
            "",
            "What the scheduler would do, asked of the cluster --kubeconfig reaches; binds, evicts and writes",
            "nothing (get, list and watch are all the identity needs).",
            "  capacity  how many copies of a pod fit, one after the other, and what stops the next one",
            "  drain     whether the nodes can be emptied, where each pod would go, which cannot move and why",
            "  pods      where the profile's pending pods, then the pods of the files, would go; with",
            "            --candidate-config, under the current and the candidate policy side by side")
        .synopsisHeading("")
        .optionListHeading("%nflags:%n")
        .sortOptions(false)
        .width(110)
        .longOptionsMaxWidth(30);
    spec.addPositional(PositionalParamSpec.builder().index("0..*").arity("1..*").type(List.class)
        .auxiliaryTypes(String.class).paramLabel("QUESTION").hidden(true).build());
    spec.addOption(Flags.text("FILE", "A KubeSchedulerConfiguration whose profile places the pods (its profiles only: "
        + "leaderElection is not used, SchedulingPolicy resources are not applied); default: kube's defaults.",
        "--config"));
    spec.addOption(Flags.text("NAME", "The profile (scheduler name) asked about; default: the configuration's only one.",
        "--profile"));
    spec.addOption(Flags.text("FILE", "The cluster's kubeconfig; default: the configuration's clientConnection.kubeconfig, "
        + "else in-cluster in a pod, else KUBECONFIG or ~/.kube/config.", "--kubeconfig"));
    spec.addOption(Flags.text("FILE", "capacity: the pod to copy (YAML or JSON; a running pod's own YAML will do).",
        "--pod"));
    spec.addOption(Flags.text("N", "capacity: try at most N copies. (default " + DEFAULT_LIMIT + ")", "--limit"));
    spec.addOption(OptionSpec.builder("-f", "--filename").arity("1").type(List.class).auxiliaryTypes(String.class)
        .paramLabel("FILE").description("pods: Pods to place after the pending ones (YAML or JSON, several "
            + "documents or a List); repeatable. A pod without a namespace goes to default.").build());
    spec.addOption(Flags.text("FILE", "pods: a KubeSchedulerConfiguration whose profile of the same name is compared "
        + "with the current one.", "--candidate-config"));
    spec.addOption(flag("pods: leave the profile's pending pods out; place only the files' pods.", "--no-pending"));
    spec.addOption(flag("pods: never preempt (by default preemption's victims are reported, nothing deleted).",
        "--no-preemption"));
    spec.addOption(Flags.text("FORMAT", "table or json. (default table)", "-o", "--output"));
    spec.addOption(Flags.text("N", "Log verbosity on standard error; 0 logs warnings only. (default 0)", "-v", "--v"));
    spec.addOption(flag("Print this help, then exit.", "-h", "--help"));
    return spec;
  }

  private static OptionSpec flag(String description, String... names) {
    return OptionSpec.builder(names).arity("0").type(boolean.class).description(description).build();
  }

  private static ConfigurationException error(String message) {
    return new ConfigurationException("command line: " + message);
  }

  private static String oneLine(Exception e) {
    return "kubesched-server simulate: " + String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", " ");
  }
}
