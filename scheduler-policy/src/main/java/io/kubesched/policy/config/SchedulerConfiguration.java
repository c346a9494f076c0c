package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.config.PluginSets.PluginRef;
import io.kubesched.policy.config.PluginSets.PluginSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A kube-scheduler configuration file ({@code apiVersion: kubescheduler.config.k8s.io/v1}, {@code kind:
 * KubeSchedulerConfiguration}), JSON or YAML, read as kube-scheduler 1.37 reads it: strictly (an unknown or
 * repeated field is an error), defaulted and validated as kube's {@code defaults.go}, {@code default_plugins.go}
 * and {@code validation} packages do, each profile's plugins resolved as its framework resolves them.
 *
 * <pre>{@code
 * apiVersion: kubescheduler.config.k8s.io/v1
 * kind: KubeSchedulerConfiguration
 * leaderElection:
 *   resourceName: my-scheduler          # not kube-scheduler's lease
 * profiles:
 *   - schedulerName: bin-packing
 *     plugins:
 *       score:
 *         disabled: [{name: ImageLocality}]
 *         enabled: [{name: NodeResourcesFit, weight: 5}]
 *     pluginConfig:
 *       - name: NodeResourcesFit
 *         args:
 *           scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 2}, {name: memory}]}
 * }</pre>
 *
 * <p>Read: {@code profiles[]} ({@code schedulerName}, {@code percentageOfNodesToScore}, {@code plugins} at every
 * extension point and {@code multiPoint} with {@code enabled}/{@code disabled}, {@code "*"} and weights, {@code
 * pluginConfig[].args} of {@code NodeResourcesFit}, {@code NodeResourcesBalancedAllocation}, {@code
 * InterPodAffinity}, {@code PodTopologySpread}, {@code NodeAffinity}, {@code VolumeBinding}, {@code
 * DynamicResources} (its timeouts at kube's defaults) and {@code DefaultPreemption}), {@code percentageOfNodesToScore}, {@code podInitialBackoffSeconds}, {@code
 * podMaxBackoffSeconds}, {@code parallelism}, {@code clientConnection}, {@code leaderElection}. Accepted with no
 * effect here: {@code enableProfiling}, {@code enableContentionProfiling}; {@code clientConnection.contentType}
 * and {@code acceptContentTypes} only as kube's protobuf or JSON (this library speaks JSON; see {@link
 * ClientConnection}). Refused: {@code extenders}, {@code delayCacheUntilActive: true}.
 *
 * <p>Written back by {@link #toYaml()} and {@link #toJson()} as kube-scheduler's {@code --write-config-to} writes
 * it: every top-level setting with kube's defaults filled in, each profile with its scheduler name.
 *
 * <p>Plugins: those of kube-scheduler 1.37, and those of a {@link PluginRegistry} the file is read with ({@link
 * #read(Path, PluginRegistry)}). Its filters and scorers make each profile's {@link
 * SchedulerProfile#policy()}; {@code PrioritySort}, {@code DefaultBinder}, {@code SchedulingGates} and {@code
 * GangScheduling} are the scheduling loop's own and are accepted; {@code DefaultPreemption} turns the policy's
 * preemption on. Plugins kube has and this library does not ({@code
 * DeferredPodScheduling}, {@code TopologyPlacementGenerator}, {@code PodGroupPodsCount}) are accepted where only
 * kube's default set brings them in, so that kube's own files work unchanged, and are an
 * error where a file enables them or configures their arguments: a file asking for them expects them to act. A
 * name kube does not have is an error, also in a {@code disabled} list (kube ignores it there; here it is most
 * likely a typo that would leave the plugin on).
 *
 * <p>Errors are {@link ConfigurationException}s naming the file, the field's YAML path (such as {@code
 * profiles[1].pluginConfig[0].args.scoringStrategy.type}) and the value, and listing what is valid; kube's
 * validation errors keep kube's words ({@code Invalid value}, {@code Unsupported value}, ...).
 *
 * <p>Immutable and thread-safe (each profile's {@link io.kubesched.policy.Policy} is as thread-safe as policies
 * are: it is meant for one controller).
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class SchedulerConfiguration {

  /** The only {@code apiVersion} kube-scheduler 1.37 reads. */
  public static final String API_VERSION = KubePlugins.API_VERSION;

  /** The {@code kind}. */
  public static final String KIND = "KubeSchedulerConfiguration";

  /** The scheduler name of a file's only profile when it names none. */
  public static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";

  /** kube's default {@code parallelism}: the goroutines that filter and score nodes for one pod. */
  public static final int DEFAULT_PARALLELISM = 16;

  private static final Set<String> FIELDS =
      Set.of(
          "apiVersion", "kind", "parallelism", "leaderElection", "clientConnection", "enableProfiling",
          "enableContentionProfiling", "percentageOfNodesToScore", "podInitialBackoffSeconds",
          "podMaxBackoffSeconds", "profiles", "extenders", "delayCacheUntilActive");
  private static final Set<String> LEADER_ELECTION_FIELDS =
      Set.of(
          "leaderElect", "leaseDuration", "renewDeadline", "retryPeriod", "resourceLock", "resourceName",
          "resourceNamespace");
  private static final Set<String> CONTENT_TYPES = Set.of(ClientConnection.PROTOBUF, ClientConnection.JSON);
  private static final Set<String> CLIENT_CONNECTION_FIELDS =
      Set.of("kubeconfig", "acceptContentTypes", "contentType", "qps", "burst");

  private final List<SchedulerProfile> profiles;
  private final int percentageOfNodesToScore;
  private final int parallelism;
  private final Duration podInitialBackoff;
  private final Duration podMaxBackoff;
  private final ClientConnection clientConnection;
  private final @Nullable Path kubeconfig;
  private final LeaderElectionSettings leaderElection;
  private final boolean profiling;
  private final boolean contentionProfiling;
  private final List<ConfigWriter.ProfileSource> profileSources;
  private final boolean schedulerNameDefaulted;

  private SchedulerConfiguration(
      List<SchedulerProfile> profiles,
      int percentageOfNodesToScore,
      int parallelism,
      Duration podInitialBackoff,
      Duration podMaxBackoff,
      ClientConnection clientConnection,
      @Nullable Path kubeconfig,
      LeaderElectionSettings leaderElection,
      boolean profiling,
      boolean contentionProfiling,
      List<ConfigWriter.ProfileSource> profileSources,
      boolean schedulerNameDefaulted) {
    this.profiles = List.copyOf(profiles);
    this.profiling = profiling;
    this.contentionProfiling = contentionProfiling;
    this.profileSources = List.copyOf(profileSources);
    this.schedulerNameDefaulted = schedulerNameDefaulted;
    this.percentageOfNodesToScore = percentageOfNodesToScore;
    this.parallelism = parallelism;
    this.podInitialBackoff = podInitialBackoff;
    this.podMaxBackoff = podMaxBackoff;
    this.clientConnection = clientConnection;
    this.kubeconfig = kubeconfig;
    this.leaderElection = leaderElection;
  }

  /**
   * Reads the KubeSchedulerConfiguration file at {@code file}, JSON or YAML.
   *
   * @throws ConfigurationException if the file cannot be read or is not a configuration kube-scheduler 1.37
   *     accepts with plugins this library has; the message names the file, the YAML path and the value
   */
  public static SchedulerConfiguration read(Path file) {
    return read(file, PluginRegistry.empty());
  }

  /**
   * Reads the KubeSchedulerConfiguration file at {@code file}, JSON or YAML, whose profiles may enable the
   * plugins of {@code plugins} besides kube's.
   *
   * @throws ConfigurationException as {@link #read(Path)} does; also if a registered plugin's arguments are not
   *     its record's, or its record or factory refuses them
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public static SchedulerConfiguration read(Path file, PluginRegistry plugins) {
    return parse(TreeReader.readFile(file, KIND + " " + file), file.toString(), plugins);
  }

  /**
   * Reads a KubeSchedulerConfiguration from {@code text}.
   *
   * @param text the configuration, JSON or YAML
   * @param source how messages name it, for example the file's path
   * @throws ConfigurationException as {@link #read} does
   */
  public static SchedulerConfiguration parse(String text, String source) {
    return parse(text, source, PluginRegistry.empty());
  }

  /**
   * Reads a KubeSchedulerConfiguration from {@code text}, whose profiles may enable the plugins of {@code plugins}
   * besides kube's.
   *
   * @throws ConfigurationException as {@link #read(Path, PluginRegistry)} does
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public static SchedulerConfiguration parse(String text, String source, PluginRegistry plugins) {
    Objects.requireNonNull(plugins, "plugins");
    var what = KIND + " " + source;
    return configuration(new ConfigReader(what + ": "), TreeReader.tree(text, what, true), plugins);
  }

  /**
   * Reads one profile, in the shape of a KubeSchedulerConfiguration's {@code profiles[]} element ({@code
   * schedulerName}, {@code plugins}, {@code pluginConfig}, {@code percentageOfNodesToScore}), with the same
   * defaulting, validation and messages as a file's profile: what a {@code SchedulingPolicy} custom resource's
   * spec holds. Unlike a file's only profile, it must name its scheduler; without its own {@code
   * percentageOfNodesToScore} it has kube's adaptive default. The same as {@code parseProfile(text, source,
   * path, 0)}.
   *
   * @param text the profile, JSON or YAML
   * @param source how messages name it, such as {@code SchedulingPolicy bin-packing}
   * @param path the profile's YAML path in messages, such as {@code spec}
   * @throws ConfigurationException as {@link #read} does, naming {@code source} and paths under {@code path}
   */
  public static SchedulerProfile parseProfile(String text, String source, String path) {
    return parseProfile(text, source, path, 0);
  }

  /**
   * Reads one profile as {@link #parseProfile(String, String, String)} does, with {@code percentageOfNodesToScore}
   * for a profile that sets none, as a file's profile takes the file's.
   *
   * @param percentageOfNodesToScore 0 (adaptive) to 100
   * @throws ConfigurationException as {@link #parseProfile(String, String, String)} does
   * @throws IllegalArgumentException if {@code percentageOfNodesToScore} is not from 0 to 100
   */
  public static SchedulerProfile parseProfile(
      String text, String source, String path, int percentageOfNodesToScore) {
    return parseProfile(text, source, path, percentageOfNodesToScore, PluginRegistry.empty());
  }

  /**
   * Reads one profile as {@link #parseProfile(String, String, String, int)} does, which may enable the plugins of
   * {@code plugins} besides kube's.
   *
   * @throws ConfigurationException as {@link #parseProfile(String, String, String)} does, and as {@link
   *     #read(Path, PluginRegistry)} does about registered plugins
   * @throws IllegalArgumentException if {@code percentageOfNodesToScore} is not from 0 to 100
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public static SchedulerProfile parseProfile(
      String text, String source, String path, int percentageOfNodesToScore, PluginRegistry plugins) {
    Objects.requireNonNull(plugins, "plugins");
    if (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100) {
      throw new IllegalArgumentException(
          "percentageOfNodesToScore must be from 0 to 100, was " + percentageOfNodesToScore);
    }
    var reader = new ConfigReader(source + ": ");
    return new ProfileReader(reader, plugins)
        .read(TreeReader.tree(text, source, true), path, null, percentageOfNodesToScore)
        .profile();
  }

  /** @return the profiles, in the file's order; at least one (kube's {@value #DEFAULT_SCHEDULER_NAME} if none) */
  public List<SchedulerProfile> profiles() {
    return profiles;
  }

  /**
   * @return the configuration's {@code percentageOfNodesToScore}: 0 (kube's default) for adaptive; each profile's
   *     policy has its own or this
   */
  public int percentageOfNodesToScore() {
    return percentageOfNodesToScore;
  }

  /**
   * @return {@code parallelism}: how many threads may filter and score the nodes for one pod, at least 1;
   *     {@value #DEFAULT_PARALLELISM} (kube's default) when the file leaves it out
   */
  public int parallelism() {
    return parallelism;
  }

  /** @return {@code podInitialBackoffSeconds}: 1 s by default */
  public Duration podInitialBackoff() {
    return podInitialBackoff;
  }

  /** @return {@code podMaxBackoffSeconds}: 10 s by default */
  public Duration podMaxBackoff() {
    return podMaxBackoff;
  }

  /** @return {@code clientConnection}'s {@code qps} and {@code burst}: 50 and 100 by default */
  public ClientConnection clientConnection() {
    return clientConnection;
  }

  /**
   * @return {@code clientConnection.kubeconfig}, the kubeconfig kube-scheduler uses when no {@code --kubeconfig}
   *     flag is given; empty when the file names none
   */
  public Optional<Path> kubeconfig() {
    return Optional.ofNullable(kubeconfig);
  }

  /** @return {@code leaderElection}, with kube's defaults for what the file leaves out */
  public LeaderElectionSettings leaderElection() {
    return leaderElection;
  }

  /**
   * @return whether the only profile is named {@value #DEFAULT_SCHEDULER_NAME} because the file names none (no
   *     profiles, or one without {@code schedulerName}), rather than because the file wrote that name
   */
  public boolean schedulerNameDefaulted() {
    return schedulerNameDefaulted;
  }

  /**
   * This configuration with {@code leaderElection} replaced, validated as a file's is: kube-scheduler's {@code
   * --leader-elect*} flags override the file's settings so, before validation.
   *
   * @param settings the leader election to use
   * @param source how messages name where the settings come from, such as {@code command line and config FILE}
   * @return a configuration that differs from this one only by {@code settings}
   * @throws ConfigurationException naming {@code source} and the {@code leaderElection} field, if {@code settings}
   *     elect with a duration that is not positive, a lease duration not longer than the renew deadline, a lock
   *     other than {@code leases}, or an empty lease name or namespace
   */
  public SchedulerConfiguration withLeaderElection(LeaderElectionSettings settings, String source) {
    var reader = new ConfigReader(KIND + " " + source + ": ");
    validate(reader, settings);
    return new SchedulerConfiguration(
        profiles, percentageOfNodesToScore, parallelism, podInitialBackoff, podMaxBackoff, clientConnection,
        kubeconfig, settings, profiling, contentionProfiling, profileSources, schedulerNameDefaulted);
  }

  /**
   * @return this configuration as YAML, as kube-scheduler's {@code --write-config-to} writes it: {@code
   *     apiVersion}, {@code kind} and every top-level setting with kube's defaults filled in, fields in
   *     alphabetical order, durations as Go writes them ({@code 15s}, {@code 1m30s}); each profile with its {@code
   *     schedulerName}, its own {@code percentageOfNodesToScore} if it has one, and its {@code plugins} and {@code
   *     pluginConfig} as the file wrote them (kube's default plugins and arguments apply when it is read again,
   *     here or by kube-scheduler). Reading it back gives a configuration equal to this one in everything it
   *     exposes, except that a defaulted scheduler name is then written out.
   */
  public String toYaml() {
    return ConfigWriter.yaml(this);
  }

  /** @return what {@link #toYaml()} writes, as one line of JSON: the shape of kube-scheduler's {@code /configz} */
  public String toJson() {
    return ConfigWriter.json(this);
  }

  JsonNode toTree() {
    return ConfigWriter.tree(this);
  }

  boolean profiling() {
    return profiling;
  }

  boolean contentionProfiling() {
    return contentionProfiling;
  }

  List<ConfigWriter.ProfileSource> profileSources() {
    return profileSources;
  }

  @Override
  public String toString() {
    return "SchedulerConfiguration{profiles=" + profiles.stream().map(SchedulerProfile::schedulerName).toList()
        + ", percentageOfNodesToScore=" + percentageOfNodesToScore + ", parallelism=" + parallelism
        + ", podInitialBackoff=" + podInitialBackoff
        + ", podMaxBackoff=" + podMaxBackoff + ", clientConnection=" + clientConnection + ", leaderElection="
        + leaderElection + "}";
  }

  private static SchedulerConfiguration configuration(ConfigReader reader, JsonNode root, PluginRegistry plugins) {
    if (root.isMissingNode() || root.isNull()) {
      throw reader.error("(document)", "is empty; expected apiVersion: " + API_VERSION + " and kind: " + KIND);
    }
    reader.object(root, "", FIELDS);
    expect(reader, root, "apiVersion", API_VERSION);
    expect(reader, root, "kind", KIND);
    int parallelism = DEFAULT_PARALLELISM;
    var parallelismNode = ConfigReader.field(root, "parallelism");
    if (parallelismNode != null) {
      parallelism = reader.int32(parallelismNode, "parallelism");
      if (parallelism <= 0) {
        throw reader.invalid("parallelism", parallelism, "should be an integer value greater than zero");
      }
    }
    boolean[] profilingFlags = {true, true}; // kube's defaults
    var profilingFields = List.of("enableProfiling", "enableContentionProfiling");
    for (int i = 0; i < profilingFields.size(); i++) {
      var value = ConfigReader.field(root, profilingFields.get(i));
      if (value != null) {
        profilingFlags[i] = reader.bool(value, profilingFields.get(i));
      }
    }
    var delay = ConfigReader.field(root, "delayCacheUntilActive");
    if (delay != null && reader.bool(delay, "delayCacheUntilActive")) {
      throw reader.error("delayCacheUntilActive", "is true, which is not supported: this scheduler fills its caches"
          + " before it is elected, so that followers are ready to take over; leave it out or false");
    }
    var extenders = ConfigReader.field(root, "extenders");
    if (extenders != null && !reader.list(extenders, "extenders").isEmpty()) {
      throw reader.error("extenders", "are not supported: write the extender's rules as a filter or scorer of"
          + " the policy; leave extenders out");
    }
    var clientConnection = ClientConnection.DEFAULT;
    @Nullable Path kubeconfig = null;
    var connection = ConfigReader.field(root, "clientConnection");
    if (connection != null) {
      reader.object(connection, "clientConnection", CLIENT_CONNECTION_FIELDS);
      kubeconfig = kubeconfig(reader, connection);
      clientConnection = clientConnection(reader, connection);
    }
    var leaderElection = leaderElection(reader, ConfigReader.field(root, "leaderElection"));
    int percentage = 0;
    var percentageNode = ConfigReader.field(root, "percentageOfNodesToScore");
    if (percentageNode != null) {
      percentage = ProfileReader.percentage(reader, percentageNode, "percentageOfNodesToScore");
    }
    long initial = seconds(reader, root, "podInitialBackoffSeconds", 1);
    if (initial <= 0) {
      throw reader.invalid("podInitialBackoffSeconds", initial, "must be greater than 0");
    }
    long max = seconds(reader, root, "podMaxBackoffSeconds", 10);
    if (max < initial) {
      throw reader.invalid("podMaxBackoffSeconds", max, "must be greater than or equal to PodInitialBackoffSeconds");
    }
    var profilesNode = ConfigReader.field(root, "profiles");
    var profiles = profiles(reader, profilesNode, percentage, plugins);
    var sources = new ArrayList<ConfigWriter.ProfileSource>();
    var entries = profilesNode == null ? List.<TreeReader.Entry>of() : reader.list(profilesNode, "profiles");
    boolean defaulted = entries.isEmpty() || ConfigReader.field(entries.get(0).node(), "schedulerName") == null;
    for (int i = 0; i < profiles.size(); i++) {
      sources.add(ConfigWriter.ProfileSource.of(
          profiles.get(i).schedulerName(), entries.isEmpty() ? null : entries.get(i).node()));
    }
    return new SchedulerConfiguration(
        profiles, percentage, parallelism, Duration.ofSeconds(initial), Duration.ofSeconds(max), clientConnection, kubeconfig,
        leaderElection, profilingFlags[0], profilingFlags[1], sources, defaulted);
  }

  private static void expect(ConfigReader reader, JsonNode root, String field, String expected) {
    var value = ConfigReader.field(root, field);
    if (value == null) {
      throw reader.error(field, "is required; kube-scheduler 1.37 reads " + field + ": " + expected);
    }
    if (!value.isString() || !value.stringValue().equals(expected)) {
      throw reader.error(field, "is " + TreeReader.describe(value) + "; kube-scheduler 1.37 reads " + field + ": "
          + expected + " only");
    }
  }

  private static long seconds(ConfigReader reader, JsonNode root, String field, long unset) {
    var value = ConfigReader.field(root, field);
    return value == null ? unset : reader.int64(value, field);
  }

  private static List<SchedulerProfile> profiles(
      ConfigReader reader, @Nullable JsonNode listed, int percentage, PluginRegistry plugins) {
    var entries = listed == null ? List.<TreeReader.Entry>of() : reader.list(listed, "profiles");
    if (entries.isEmpty()) {
      // kube's defaulting: one profile with kube's default plugins.
      var none = JsonNodeFactory.instance.objectNode();
      return List.of(new ProfileReader(reader, plugins).read(none, "profiles[0]", DEFAULT_SCHEDULER_NAME, percentage).profile());
    }
    var profileReader = new ProfileReader(reader, plugins);
    var profiles = new ArrayList<SchedulerProfile>();
    var queueSorts = new ArrayList<PluginSet>();
    Map<String, Integer> names = new HashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      var entry = entries.get(i);
      // kube names a file's only profile default-scheduler; with several, each must have a name.
      var read = profileReader.read(
          entry.node(), entry.path(), entries.size() == 1 ? DEFAULT_SCHEDULER_NAME : null, percentage);
      var name = read.profile().schedulerName();
      var earlier = names.putIfAbsent(name, i);
      if (earlier != null) {
        throw reader.fieldError(entry.path() + ".schedulerName",
            "Duplicate value: \"" + name + "\" (as profiles[" + earlier + "].schedulerName)");
      }
      profiles.add(read.profile());
      queueSorts.add(read.queueSort());
    }
    commonQueueSort(reader, queueSorts);
    return profiles;
  }

  /** kube's {@code validateCommonQueueSort}: every profile's {@code queueSort} set as the first's. */
  private static void commonQueueSort(ConfigReader reader, List<PluginSet> queueSorts) {
    var first = queueSorts.get(0);
    if (first.enabled().size() > 1) {
      throw reader.invalid("profiles[0].plugins.queueSort.enabled", first.enabled().size(),
          "only one queue sort plugin can be enabled");
    }
    for (int i = 1; i < queueSorts.size(); i++) {
      if (!sameSet(first, queueSorts.get(i))) {
        throw reader.invalid("profiles[" + i + "].plugins.queueSort", written(queueSorts.get(i)),
            "must be the same for all profiles (as profiles[0]: " + written(first) + ")");
      }
    }
  }

  private static boolean sameSet(PluginSet a, PluginSet b) {
    return written(a).equals(written(b));
  }

  private static String written(PluginSet set) {
    return "{enabled: " + set.enabled().stream().map(SchedulerConfiguration::written).toList() + ", disabled: "
        + set.disabled().stream().map(SchedulerConfiguration::written).toList() + "}";
  }

  private static String written(PluginRef plugin) {
    var weight = plugin.weight();
    return weight == null || weight == 0 ? plugin.name() : plugin.name() + ":" + weight;
  }

  private static @Nullable Path kubeconfig(ConfigReader reader, JsonNode connection) {
    var value = ConfigReader.field(connection, "kubeconfig");
    if (value == null) {
      return null;
    }
    var path = reader.string(value, "clientConnection.kubeconfig");
    return path.isEmpty() ? null : Path.of(path);
  }

  private static ClientConnection clientConnection(ConfigReader reader, JsonNode connection) {
    var contentType = ClientConnection.DEFAULT.contentType();
    var contentTypeNode = ConfigReader.field(connection, "contentType");
    if (contentTypeNode != null) {
      var value = reader.string(contentTypeNode, "clientConnection.contentType");
      if (!value.isEmpty()) {
        if (!CONTENT_TYPES.contains(value)) {
          throw reader.error("clientConnection.contentType", "is \"" + value + "\"; supported: "
              + ClientConnection.PROTOBUF + " (kube's default; this scheduler sends JSON all the same) or "
              + ClientConnection.JSON);
        }
        contentType = value;
      }
    }
    var accept = ClientConnection.DEFAULT.acceptContentTypes();
    var acceptNode = ConfigReader.field(connection, "acceptContentTypes");
    if (acceptNode != null) {
      accept = reader.string(acceptNode, "clientConnection.acceptContentTypes");
      for (var type : accept.split(",", -1)) {
        if (!accept.isEmpty() && !CONTENT_TYPES.contains(type.strip())) {
          throw reader.error("clientConnection.acceptContentTypes", "is \"" + accept + "\"; supported: empty"
              + " (kube's default), " + ClientConnection.PROTOBUF + ", " + ClientConnection.JSON + " or both,"
              + " comma-separated (this scheduler accepts JSON all the same)");
        }
      }
    }
    float qps = ClientConnection.DEFAULT.qps();
    var qpsNode = ConfigReader.field(connection, "qps");
    if (qpsNode != null) {
      float value = reader.float32(qpsNode, "clientConnection.qps");
      if (value < 0) {
        throw reader.error("clientConnection.qps", "is " + value + ": a negative qps (no client-side limit) is not"
            + " supported; give a positive rate, or 0 for kube's 50");
      }
      if (value > 0) {
        qps = value;
      }
    }
    int burst = ClientConnection.DEFAULT.burst();
    var burstNode = ConfigReader.field(connection, "burst");
    if (burstNode != null) {
      int value = reader.int32(burstNode, "clientConnection.burst");
      if (value < 0) {
        throw reader.invalid("clientConnection.burst", value, "must be non-negative");
      }
      if (value > 0) {
        burst = value;
      }
    }
    return new ClientConnection(qps, burst, contentType, accept);
  }

  /** kube's defaulting ({@code RecommendedDefaultLeaderElectionConfiguration}, leases) and validation. */
  private static LeaderElectionSettings leaderElection(ConfigReader reader, @Nullable JsonNode node) {
    var defaults = LeaderElectionSettings.DEFAULT;
    if (node == null) {
      return defaults;
    }
    var path = "leaderElection";
    reader.object(node, path, LEADER_ELECTION_FIELDS);
    var elect = ConfigReader.field(node, "leaderElect");
    boolean leaderElect = elect == null ? defaults.leaderElect() : reader.bool(elect, path + ".leaderElect");
    var lease = duration(reader, node, "leaseDuration", defaults.leaseDuration());
    var renew = duration(reader, node, "renewDeadline", defaults.renewDeadline());
    var retry = duration(reader, node, "retryPeriod", defaults.retryPeriod());
    var lock = text(reader, node, "resourceLock", defaults.resourceLock());
    var name = text(reader, node, "resourceName", defaults.resourceName());
    var namespace = text(reader, node, "resourceNamespace", defaults.resourceNamespace());
    var settings = new LeaderElectionSettings(leaderElect, lease, renew, retry, lock, name, namespace);
    validate(reader, settings);
    return settings;
  }

  /** kube's {@code ValidateLeaderElectionConfiguration}, for the file's settings and those flags override. */
  private static void validate(ConfigReader reader, LeaderElectionSettings settings) {
    var path = "leaderElection";
    var lease = settings.leaseDuration();
    var renew = settings.renewDeadline();
    var retry = settings.retryPeriod();
    var lock = settings.resourceLock();
    if (settings.leaderElect()) {
      positive(reader, path + ".leaseDuration", lease);
      positive(reader, path + ".renewDeadline", renew);
      positive(reader, path + ".retryPeriod", retry);
      if (lease.compareTo(renew) <= 0) {
        throw reader.invalid(
            path + ".leaseDuration", ConfigReader.goString(renew), "must be greater than `RenewDeadline`");
      }
      if (!lock.equals("leases")) {
        throw reader.invalid(path + ".resourceLock", "\"" + lock + "\"", "resourceLock value must be \"leases\"");
      }
      if (settings.resourceName().isEmpty()) {
        throw reader.requiredValue(path + ".resourceName", "");
      }
      if (settings.resourceNamespace().isEmpty()) {
        throw reader.requiredValue(path + ".resourceNamespace", "");
      }
    }
  }

  private static Duration duration(ConfigReader reader, JsonNode node, String field, Duration unset) {
    var value = ConfigReader.field(node, field);
    if (value == null) {
      return unset;
    }
    var duration = reader.duration(value, "leaderElection." + field);
    return duration.isZero() ? unset : duration;
  }

  private static String text(ConfigReader reader, JsonNode node, String field, String unset) {
    var value = ConfigReader.field(node, field);
    if (value == null) {
      return unset;
    }
    var text = reader.string(value, "leaderElection." + field);
    return text.isEmpty() ? unset : text;
  }

  private static void positive(ConfigReader reader, String path, Duration duration) {
    if (duration.isNegative() || duration.isZero()) {
      throw reader.invalid(path, ConfigReader.goString(duration), "must be greater than zero");
    }
  }
}
