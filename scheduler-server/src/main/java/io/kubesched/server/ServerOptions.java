package io.kubesched.server;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;

/**
 * A KubeSchedulerConfiguration as the server's {@link Options} and profiles: the facade's {@link SchedulerSetup}
 * (which the Spring Boot starter maps files with too), plus what only the server does: every kind of cluster data
 * is watched, whatever the profiles read, so that a SchedulingPolicy applied later may use any plugin. Pure but for
 * {@link SchedulerSetup}'s log line.
 */
final class ServerOptions {

  private ServerOptions() {}

  /**
   * @param setup the configuration, mapped
   * @param connection where the cluster is
   * @param metrics where the loop's metrics go
   * @return the options of the one controller that serves every profile
   * @throws ConfigurationException naming the setup's source, the setting and the value, if a setting breaks a
   *     rule of {@link Options} that kube-scheduler does not have
   */
  static Options options(SchedulerSetup setup, Options.Connection connection, SchedulerMetrics metrics) {
    var builder =
        setup.applyTo(Options.builder().connection(connection))
            .watch(EnumSet.allOf(ClusterData.class))
            .metrics(metrics);
    setup.leaderElection().ifPresent(builder::leaderElection);
    try {
      return builder.build();
    } catch (ConfigurationException e) {
      throw new ConfigurationException(setup.source() + ": " + e.getMessage(), e);
    }
  }

  /**
   * @param flag {@code --kubeconfig}, if given
   * @param file the configuration file's {@code clientConnection.kubeconfig}, if it names one
   * @param env the process's environment
   * @return as kube-scheduler: the flag's kubeconfig if given, else the file's; else in-cluster where {@code
   *     KUBERNETES_SERVICE_HOST} is set (as in every pod); else the usual kubeconfig lookup ({@code KUBECONFIG},
   *     then {@code ~/.kube/config})
   */
  static Options.Connection connection(Optional<Path> flag, Optional<Path> file, Map<String, String> env) {
    var kubeconfig = flag.or(() -> file);
    if (kubeconfig.isPresent()) {
      return new Options.Connection.Kubeconfig(kubeconfig);
    }
    if (env.containsKey("KUBERNETES_SERVICE_HOST")) {
      return new Options.Connection.InCluster();
    }
    return new Options.Connection.Kubeconfig(Optional.empty());
  }
}
