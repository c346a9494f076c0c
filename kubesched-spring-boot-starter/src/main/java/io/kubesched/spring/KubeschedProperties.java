package io.kubesched.spring;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.facade.Options;
import java.nio.file.Path;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code kubesched.*} properties. Immutable, bound once when the context starts. A setting left out keeps
 * the configuration file's ({@code config-file}) or, without one, the library's default ({@link Options}); a
 * setting given here wins over the file's; what the properties and the file do not cover, a {@link
 * KubeschedOptionsCustomizer} sets, last.
 *
 * @param enabled false to configure nothing (the default is true)
 * @param schedulerName the {@code spec.schedulerName} of the pods the controller places with the application's
 *     {@code FinderFunc} bean (or {@code DefaultPolicy}); null for {@value Options#DEFAULT_SCHEDULER_NAME}. With
 *     {@code configFile}: which of the file's profiles the {@code FinderFunc} bean places (null where the file has
 *     one profile), and it must name one of them
 * @param kubeconfig the kubeconfig to connect with, where the application has no fabric8 {@code
 *     KubernetesClient} bean (which is used when there is one); null for the file's {@code
 *     clientConnection.kubeconfig}, else the library's default lookup
 * @param configFile a KubeSchedulerConfiguration file, read as kubesched-server's {@code --config} reads it: its
 *     profiles, backoff, {@code clientConnection}, {@code parallelism} and {@code leaderElection}; null for
 *     none
 * @param parallelism threads that filter and score nodes for one pod; null for the file's, else the library's
 *     default
 * @param leaderElection campaign for a Lease of the scheduler's own
 * @param externalLeadership schedule only while the application says it leads ({@code
 *     Controller.setLeading}); excludes leader election, the properties' or the file's
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
@ConfigurationProperties(prefix = "kubesched")
public record KubeschedProperties(
    @DefaultValue("true") boolean enabled,
    @Nullable String schedulerName,
    @Nullable Path kubeconfig,
    @Nullable Path configFile,
    @Nullable Integer parallelism,
    @DefaultValue LeaderElection leaderElection,
    @DefaultValue("false") boolean externalLeadership) {

  /**
   * {@code kubesched.leader-election.*}.
   *
   * @param enabled whether to campaign for the Lease; null for the file's {@code leaderElection.leaderElect}, else
   *     false
   * @param leaseNamespace the Lease's namespace; null for the file's {@code resourceNamespace}, else the library's
   *     default (the pod's namespace in a pod, else kube-system)
   * @param leaseName the Lease's name; null for the file's {@code resourceName}, else the scheduler name
   */
  public record LeaderElection(
      @Nullable Boolean enabled, @Nullable String leaseNamespace, @Nullable String leaseName) {}
}
