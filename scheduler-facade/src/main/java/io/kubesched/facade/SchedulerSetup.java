package io.kubesched.facade;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.policy.config.ClientConnection;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KubeSchedulerConfiguration ({@link SchedulerConfiguration}, what the file says) as one controller's setup:
 * the profiles it serves and the {@link Options} settings the file sets. kubesched-server's {@code --config} and
 * the Spring Boot starter's {@code kubesched.config-file} both go through it, so that one file means the same
 * in each.
 *
 * <p>What maps where:
 *
 * <ul>
 *   <li>{@code profiles}: {@link #profiles()}, each scheduler name with its policy (whose {@code
 *       percentageOfNodesToScore} is in the policy already), in the file's order; {@code default-scheduler},
 *       kube-scheduler's own name, only where the file writes it as a profile's {@code schedulerName} (a
 *       scheduler that replaces kube-scheduler, which must then not run; {@link #applyTo(Options.Builder)} opts
 *       in with {@link Options.Builder#replacesKubeScheduler()}), refused where it is kube's default (no
 *       profiles, or one without {@code schedulerName});
 *   <li>{@code podInitialBackoffSeconds}, {@code podMaxBackoffSeconds}, {@code clientConnection.qps} and {@code
 *       burst}, {@code parallelism}: {@link #applyTo(Options.Builder)};
 *   <li>{@code clientConnection.contentType} and {@code acceptContentTypes}: this library speaks JSON; where
 *       they ask for protobuf (kube's default) {@link #of} logs so at INFO, once;
 *   <li>{@code leaderElection}: {@link #leaderElection()}, empty when {@code leaderElect} is false; kube-scheduler's
 *       own Lease ({@value #KUBE_SCHEDULER_LEASE}, the file's default) is replaced by the first scheduler name
 *       (sorted), so that a second scheduler never stops kube-scheduler by holding its lease;
 *   <li>{@code clientConnection.kubeconfig}: {@link #kubeconfig()}, for the caller to connect with where nothing
 *       it was given says otherwise (kube-scheduler's {@code --kubeconfig} wins over the file's).
 * </ul>
 *
 * The connection, the metrics and what the controller watches are the caller's. Errors are {@link
 * ConfigurationException}s that start with the {@code source} the setup was made with, then name the setting
 * and the value.
 *
 * <p>Immutable and thread-safe; each profile's policy is meant for one controller.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class SchedulerSetup {

  private static final Logger LOG = LoggerFactory.getLogger(SchedulerSetup.class);

  /** The Lease kube-scheduler's configuration names by default: kube-scheduler's own. */
  public static final String KUBE_SCHEDULER_LEASE = "kube-scheduler";

  private final SchedulerConfiguration configuration;
  private final String source;
  private final Map<String, FinderFunc> profiles;
  private final Options.@Nullable LeaderElection leaderElection;

  private SchedulerSetup(
      SchedulerConfiguration configuration,
      String source,
      Map<String, FinderFunc> profiles,
      Options.@Nullable LeaderElection leaderElection) {
    this.configuration = configuration;
    this.source = source;
    this.profiles = profiles;
    this.leaderElection = leaderElection;
  }

  /**
   * Maps {@code configuration}; logs at INFO when it replaces kube-scheduler's Lease, and when the file asks for
   * protobuf.
   *
   * @param configuration the configuration read
   * @param source how messages name it, such as {@code config /etc/kubesched/config.yaml}
   * @throws ConfigurationException starting with {@code source}, if the only profile is {@code default-scheduler}
   *     because the file names none, or the leader election's timings break a rule of {@link Options.LeaderElection} that kube-scheduler does
   *     not have
   */
  public static SchedulerSetup of(SchedulerConfiguration configuration, String source) {
    Objects.requireNonNull(configuration, "configuration");
    Objects.requireNonNull(source, "source");
    if (configuration.clientConnection().asksForProtobuf()) {
      LOG.info(
          "{}: clientConnection asks for {} (contentType '{}', acceptContentTypes '{}'): this scheduler talks {}"
              + " to the API server",
          source,
          ClientConnection.PROTOBUF,
          configuration.clientConnection().contentType(),
          configuration.clientConnection().acceptContentTypes(),
          ClientConnection.JSON);
    }
    return new SchedulerSetup(
        configuration, source, profiles(configuration, source), leaderElection(configuration, source));
  }

  /** @return the configuration this setup was made from */
  public SchedulerConfiguration configuration() {
    return configuration;
  }

  /** @return how messages name the configuration */
  public String source() {
    return source;
  }

  /** @return each profile's scheduler name with its policy, in the file's order; at least one */
  public Map<String, FinderFunc> profiles() {
    return profiles;
  }

  /** @return the election the file asks for; empty if its {@code leaderElect} is false */
  public Optional<Options.LeaderElection> leaderElection() {
    return Optional.ofNullable(leaderElection);
  }

  /** @return the file's {@code clientConnection.kubeconfig}; empty if it names none */
  public Optional<Path> kubeconfig() {
    return configuration.kubeconfig();
  }

  /**
   * Sets on {@code builder} the backoff ({@code podInitialBackoffSeconds}, {@code podMaxBackoffSeconds}), the
   * write limit ({@code clientConnection.qps} and {@code burst}) and {@code parallelism}, and {@link
   * Options.Builder#replacesKubeScheduler()} where a profile is named {@code default-scheduler}; a later setter
   * call wins. Leader election is {@link #leaderElection()}'s, for the caller to apply.
   *
   * @return {@code builder}
   */
  public Options.Builder applyTo(Options.Builder builder) {
    if (profiles.containsKey(SchedulingConstants.KUBE_SCHEDULER_NAME)) {
      builder.replacesKubeScheduler();
    }
    return builder
        .backoff(configuration.podInitialBackoff(), configuration.podMaxBackoff())
        .rateLimit(configuration.clientConnection().qps(), configuration.clientConnection().burst())
        .parallelism(configuration.parallelism());
  }

  @Override
  public String toString() {
    return "SchedulerSetup[" + source + ", profiles=" + profiles.keySet() + ", leaderElection="
        + (leaderElection != null ? leaderElection : "off") + "]";
  }

  private static Map<String, FinderFunc> profiles(SchedulerConfiguration config, String source) {
    var profiles = new LinkedHashMap<String, FinderFunc>();
    var list = config.profiles();
    for (int i = 0; i < list.size(); i++) {
      var profile = list.get(i);
      if (profile.schedulerName().equals(SchedulingConstants.KUBE_SCHEDULER_NAME) && config.schedulerNameDefaulted()) {
        throw new ConfigurationException(
            source
                + ": profiles["
                + i
                + "].schedulerName is '"
                + SchedulingConstants.KUBE_SCHEDULER_NAME
                + "' only because the file names no scheduler (kube's default): two schedulers binding the same"
                + " pods fight over them; give each profile a schedulerName of its own, or write schedulerName: "
                + SchedulingConstants.KUBE_SCHEDULER_NAME
                + " where this scheduler replaces kube-scheduler");
      }
      profiles.put(profile.schedulerName(), profile.policy());
    }
    return Collections.unmodifiableMap(profiles);
  }

  private static Options.@Nullable LeaderElection leaderElection(SchedulerConfiguration config, String source) {
    var election = config.leaderElection();
    if (!election.leaderElect()) { // its resourceLock is a Lease: SchedulerConfiguration refuses any other
      return null;
    }
    var name = election.resourceName();
    if (name.equals(KUBE_SCHEDULER_LEASE)) {
      // A second scheduler holding kube-scheduler's own lease would stop kube-scheduler while it leads.
      name = config.profiles().stream().map(p -> p.schedulerName()).sorted().findFirst().orElseThrow();
      LOG.info(
          "{}: leaderElection.resourceName '{}' is kube-scheduler's own Lease: campaigning for {}/{} instead",
          source,
          KUBE_SCHEDULER_LEASE,
          election.resourceNamespace(),
          name);
    }
    try {
      return Options.LeaderElection.builder()
          .lease(election.resourceNamespace(), name)
          .leaseDuration(election.leaseDuration())
          .renewDeadline(election.renewDeadline())
          .retryPeriod(election.retryPeriod())
          .build();
    } catch (ConfigurationException e) {
      throw new ConfigurationException(source + ": leaderElection: " + e.getMessage(), e);
    }
  }
}
