package io.kubesched.spring;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.FinderFunc;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.Options;
import io.kubesched.micrometer.MicrometerMetrics;
import io.kubesched.policy.DefaultPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import org.apiguardian.api.API;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One scheduling controller in a Spring Boot application, made from the {@code kubesched.*} properties
 * ({@link KubeschedProperties}) and the application's beans:
 *
 * <ul>
 *   <li>the {@code Client}: connected through the application's fabric8 {@code KubernetesClient} bean where
 *       there is one (the library never closes it), else with {@code kubesched.kubeconfig} or the default
 *       lookup; every {@link KubeschedOptionsCustomizer} bean applied last;
 *   <li>the {@code Controller}: placing the pods of {@code kubesched.scheduler-name} with the application's
 *       {@link FinderFunc} bean (a {@code Policy} is one), else with {@code DefaultPolicy}, kube-scheduler's
 *       default profile;
 *   <li>its lifecycle: started (the cluster listed) when the context starts, so that a cluster that cannot be
 *       listed fails the start; closed when the context closes;
 *   <li>with Micrometer and {@code scheduler-micrometer} on the class path and a {@code MeterRegistry} bean,
 *       kube-scheduler's metrics in that registry; with {@code spring-boot-health}, a health indicator
 *       ({@code kubesched}): up while the controller runs, with whether it leads.
 * </ul>
 *
 * Each bean backs off where the application defines its own. {@code kubesched.enabled=false} turns it all off.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
@AutoConfiguration
@ConditionalOnClass(Client.class)
@ConditionalOnProperty(prefix = "kubesched", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeschedProperties.class)
public class KubeschedAutoConfiguration {

  /** The client, from the properties, the application's fabric8 client and the customizers. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Client kubeschedClient(
      KubeschedProperties properties,
      ObjectProvider<KubernetesClient> kubernetesClient,
      ObjectProvider<KubeschedOptionsCustomizer> customizers) {
    var options = Options.builder().schedulerName(properties.schedulerName());
    var applications = kubernetesClient.getIfUnique();
    if (applications != null) {
      options.kubernetesClient(applications);
    } else if (properties.kubeconfig() != null) {
      options.kubeconfig(properties.kubeconfig());
    }
    if (properties.parallelism() != null) {
      options.parallelism(properties.parallelism());
    }
    var election = properties.leaderElection();
    if (election.enabled()) {
      var lease = Options.LeaderElection.builder();
      if (election.leaseNamespace() != null || election.leaseName() != null) {
        lease.lease(
            election.leaseNamespace() != null
                ? election.leaseNamespace()
                : Options.LeaderElection.defaults().leaseNamespace(),
            election.leaseName() != null ? election.leaseName() : properties.schedulerName());
      }
      options.leaderElection(lease.build());
    }
    if (properties.externalLeadership()) {
      options.externalLeadership();
    }
    customizers.orderedStream().forEach(c -> c.customize(options));
    return Client.create(options.build());
  }

  /** The controller, with the application's policy or kube-scheduler's default profile. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Controller kubeschedController(Client client, ObjectProvider<FinderFunc> policy) {
    return client.newPodController(policy.getIfAvailable(DefaultPolicy::create));
  }

  /** Starts the controller with the context (the cluster listed before the application is ready), closes it with it. */
  @Bean
  @ConditionalOnMissingBean
  public KubeschedLifecycle kubeschedLifecycle(Controller controller) {
    return new KubeschedLifecycle(controller);
  }

  /** Kube-scheduler's metrics in the application's registry, where it has one. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({MeterRegistry.class, MicrometerMetrics.class})
  static class Metrics {

    @Bean
    KubeschedOptionsCustomizer kubeschedMetrics(ObjectProvider<MeterRegistry> registry) {
      return options -> registry.ifUnique(r -> options.metrics(MicrometerMetrics.of(r)));
    }
  }

  /** The {@code kubesched} health indicator, where the application has Spring Boot's health support. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class HealthSupport {

    @Bean
    @ConditionalOnMissingBean(name = "kubeschedHealthIndicator")
    HealthIndicator kubeschedHealthIndicator(Controller controller, Client client) {
      return () -> controller.isRunning()
          ? Health.up().withDetail("schedulerName", client.options().schedulerName())
              .withDetail("leader", controller.isLeader()).build()
          : Health.down().withDetail("schedulerName", client.options().schedulerName())
              .withDetail("reason", "the controller is not started or is closed").build();
    }
  }

  /**
   * The controller's lifecycle as the context's: {@link #start()} lists the cluster (blocking, up to {@code
   * Options.syncTimeout}) and fails the context's start if it cannot; {@link #stop()} closes the controller
   * (bindings in flight finish, the Lease is released). Spring calls both on the thread that refreshes or
   * closes the context.
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public static final class KubeschedLifecycle implements SmartLifecycle {

    private final Controller controller;

    KubeschedLifecycle(Controller controller) {
      this.controller = controller;
    }

    @Override
    public void start() {
      controller.start();
    }

    @Override
    public void stop() {
      controller.close();
    }

    @Override
    public boolean isRunning() {
      return controller.isRunning();
    }
  }
}
