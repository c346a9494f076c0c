package io.kubesched.server;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.facade.Options;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KubeSchedulerConfiguration as the facade's {@link Options} and profiles. Pure but for a log line.
 *
 * <p>What maps where: {@code profiles} become one controller's scheduler names and policies (their {@code
 * percentageOfNodesToScore} is in each policy already); {@code podInitialBackoffSeconds} and {@code
 * podMaxBackoffSeconds} the backoff; {@code clientConnection.qps} and {@code burst} the write limit; {@code
 * parallelism} the threads that filter and score nodes; {@code leaderElection} the election. Every kind of cluster data is watched, whatever the profiles read, so that a
 * SchedulingPolicy applied later may use any plugin.
 */
final class ServerOptions {

  private static final Logger LOG = LoggerFactory.getLogger(ServerOptions.class);

  /** The Lease kube-scheduler's configuration names by default: kube-scheduler's own. */
  static final String KUBE_SCHEDULER_LEASE = "kube-scheduler";

  private ServerOptions() {}

  /**
   * @param config the configuration
   * @param source where it was read from, for messages
   * @param connection where the cluster is
   * @param metrics where the loop's metrics go
   * @return the options of the one controller that serves every profile
   * @throws ConfigurationException naming {@code source}, the setting and the value, if a setting breaks a
   *     rule of {@link Options} that kube-scheduler does not have (leader election's timings, for one)
   */
  static Options options(
      SchedulerConfiguration config, String source, Options.Connection connection, SchedulerMetrics metrics) {
    var builder =
        Options.builder()
            .connection(connection)
            .backoff(config.podInitialBackoff(), config.podMaxBackoff())
            .rateLimit(config.clientConnection().qps(), config.clientConnection().burst())
            .parallelism(config.parallelism())
            .watch(EnumSet.allOf(ClusterData.class))
            .metrics(metrics);
    var election = config.leaderElection();
    if (election.leaderElect()) { // its resourceLock is a Lease: SchedulerConfiguration refuses any other
      var name = election.resourceName();
      if (name.equals(KUBE_SCHEDULER_LEASE)) {
        // A second scheduler holding kube-scheduler's own lease would stop kube-scheduler while it leads.
        name = config.profiles().stream().map(p -> p.schedulerName()).sorted().findFirst().orElseThrow();
        LOG.info(
            "leaderElection.resourceName '{}' is kube-scheduler's own Lease: campaigning for {}/{} instead",
            KUBE_SCHEDULER_LEASE,
            election.resourceNamespace(),
            name);
      }
      try {
        builder.leaderElection(
            Options.LeaderElection.builder()
                .lease(election.resourceNamespace(), name)
                .leaseDuration(election.leaseDuration())
                .renewDeadline(election.renewDeadline())
                .retryPeriod(election.retryPeriod())
                .build());
      } catch (ConfigurationException e) {
        throw new ConfigurationException(source + ": leaderElection: " + e.getMessage(), e);
      }
    }
    try {
      return builder.build();
    } catch (ConfigurationException e) {
      throw new ConfigurationException(source + ": " + e.getMessage(), e);
    }
  }

  /**
   * @return each profile's scheduler name with its policy, in the file's order
   * @throws ConfigurationException naming {@code source} and the profile, if a profile is kube-scheduler's
   *     own {@code default-scheduler} (the name a file without profiles gets)
   */
  static Map<String, FinderFunc> profiles(SchedulerConfiguration config, String source) {
    var profiles = new LinkedHashMap<String, FinderFunc>();
    var list = config.profiles();
    for (int i = 0; i < list.size(); i++) {
      var profile = list.get(i);
      if (profile.schedulerName().equals(SchedulingConstants.KUBE_SCHEDULER_NAME)) {
        throw new ConfigurationException(
            source
                + ": profiles["
                + i
                + "].schedulerName must not be '"
                + SchedulingConstants.KUBE_SCHEDULER_NAME
                + "' (kube-scheduler's own, also what a file without profiles gets): two schedulers binding"
                + " the same pods fight over them; give each profile a schedulerName of its own");
      }
      profiles.put(profile.schedulerName(), profile.policy());
    }
    return Collections.unmodifiableMap(profiles);
  }

  /**
   * @param kubeconfig {@code --kubeconfig}, if given
   * @param env the process's environment
   * @return the kubeconfig if given; else in-cluster where {@code KUBERNETES_SERVICE_HOST} is set (as in
   *     every pod); else the usual kubeconfig lookup ({@code KUBECONFIG}, then {@code ~/.kube/config})
   */
  static Options.Connection connection(Optional<Path> kubeconfig, Map<String, String> env) {
    if (kubeconfig.isPresent()) {
      return new Options.Connection.Kubeconfig(kubeconfig);
    }
    if (env.containsKey("KUBERNETES_SERVICE_HOST")) {
      return new Options.Connection.InCluster();
    }
    return new Options.Connection.Kubeconfig(Optional.empty());
  }
}
