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
 * the library's default ({@link Options}); what the properties do not cover, a {@link
 * KubeschedOptionsCustomizer} sets.
 *
 * @param enabled false to configure nothing (the default is true)
 * @param schedulerName the {@code spec.schedulerName} of the pods the controller places ({@value
 *     Options#DEFAULT_SCHEDULER_NAME})
 * @param kubeconfig the kubeconfig to connect with, where the application has no fabric8 {@code
 *     KubernetesClient} bean (which is used when there is one); null for the library's default lookup
 * @param parallelism threads that filter and score nodes for one pod; null for the library's default
 * @param leaderElection campaign for a Lease of the scheduler's own
 * @param externalLeadership schedule only while the application says it leads ({@code
 *     Controller.setLeading}); excludes {@code leaderElection.enabled}
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
@ConfigurationProperties(prefix = "kubesched")
public record KubeschedProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue(Options.DEFAULT_SCHEDULER_NAME) String schedulerName,
    @Nullable Path kubeconfig,
    @Nullable Integer parallelism,
    @DefaultValue LeaderElection leaderElection,
    @DefaultValue("false") boolean externalLeadership) {

  /**
   * {@code kubesched.leader-election.*}.
   *
   * @param enabled campaign for the Lease (default false)
   * @param leaseNamespace the Lease's namespace; null for the library's default (the pod's namespace in a pod,
   *     else kube-system)
   * @param leaseName the Lease's name; null for the scheduler name
   */
  public record LeaderElection(
      @DefaultValue("false") boolean enabled, @Nullable String leaseNamespace, @Nullable String leaseName) {}
}
