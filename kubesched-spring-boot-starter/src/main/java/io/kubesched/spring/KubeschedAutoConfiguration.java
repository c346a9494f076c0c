package io.kubesched.spring;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.SchedulingListener;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import io.kubesched.policy.DefaultPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import org.apiguardian.api.API;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One scheduling controller in a Spring Boot application, made from the {@code kubesched.*} properties
 * ({@link KubeschedProperties}) and the application's beans:
 *
 * <ul>
 *   <li>with {@code kubesched.config-file}, the {@link SchedulerSetup} of that KubeSchedulerConfiguration: its
 *       profiles and settings, read as kubesched-server's {@code --config} reads them (a file that cannot be read
 *       or is not valid fails the start, naming the file, the field and the value);
 *   <li>the {@code Client}: connected through the application's fabric8 {@code KubernetesClient} bean where
 *       there is one (the library never closes it), else with {@code kubesched.kubeconfig}, the file's {@code
 *       clientConnection.kubeconfig} or the default lookup; a property given wins over the file's setting, and
 *       every {@link KubeschedOptionsCustomizer} bean is applied last;
 *   <li>the {@code Controller}: without a file, placing the pods of {@code kubesched.scheduler-name} with the
 *       application's {@link FinderFunc} bean (a {@code Policy} is one), else with {@code DefaultPolicy},
 *       kube-scheduler's default profile; with a file, serving its profiles, the one {@code
 *       kubesched.scheduler-name} names (or the only one) placed by the {@code FinderFunc} bean if there is one;
 *   <li>its lifecycle: started (the cluster listed) when the context starts, so that a cluster that cannot be
 *       listed fails the start; closed when the context closes;
 *   <li>with Micrometer and {@code scheduler-micrometer} on the class path and a {@code MeterRegistry} bean,
 *       kube-scheduler's metrics in that registry; with Spring Boot 4's {@code spring-boot-health} or Spring
 *       Boot 3.5's {@code spring-boot-actuator}, a health indicator ({@code kubesched}): up while the controller
 *       runs, with whether it leads.
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

  /** The {@code kubesched.config-file}, read and mapped once for the client and the controller. */
  @Bean
  @ConditionalOnProperty(prefix = "kubesched", name = "config-file")
  @ConditionalOnMissingBean
  public SchedulerSetup kubeschedSchedulerSetup(KubeschedProperties properties) {
    return StarterSettings.read(Objects.requireNonNull(properties.configFile(), "kubesched.config-file"));
  }

  /** The client, from the properties, the configuration file, the application's fabric8 client and the customizers. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Client kubeschedClient(
      KubeschedProperties properties,
      ObjectProvider<SchedulerSetup> file,
      ObjectProvider<KubernetesClient> kubernetesClient,
      ObjectProvider<KubeschedOptionsCustomizer> customizers) {
    var applications = kubernetesClient.getIfUnique();
    var options = StarterSettings.options(properties, file.getIfAvailable(), applications != null);
    if (applications != null) {
      options.kubernetesClient(applications);
    }
    customizers.orderedStream().forEach(c -> c.customize(options));
    return Client.create(options.build());
  }

  /** The controller: the file's profiles, the application's policy, or kube-scheduler's default profile. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Controller kubeschedController(
      Client client,
      KubeschedProperties properties,
      ObjectProvider<SchedulerSetup> file,
      ObjectProvider<FinderFunc> policy) {
    var setup = file.getIfAvailable();
    if (setup == null) { // the client's scheduler name: a customizer may have changed the property's
      return client.newPodController(policy.getIfAvailable(DefaultPolicy::create));
    }
    return client.newPodController(
        StarterSettings.profiles(properties, setup, policy.getIfAvailable()), SchedulingListener.NONE);
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

  /**
   * The {@code kubesched} health indicator on Spring Boot 4 ({@code spring-boot-health}). Its types are named, never
   * loaded, until the condition holds: on Spring Boot 3.5 this class is skipped.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class HealthSupport {

    @Bean
    @ConditionalOnMissingBean(name = "kubeschedHealthIndicator")
    org.springframework.boot.health.contributor.HealthIndicator kubeschedHealthIndicator(
        Controller controller, Client client) {
      return () -> {
        var health = KubeschedHealth.of(controller, client);
        var builder = health.up()
            ? org.springframework.boot.health.contributor.Health.up()
            : org.springframework.boot.health.contributor.Health.down();
        return builder.withDetails(health.details()).build();
      };
    }
  }

  /**
   * The {@code kubesched} health indicator on Spring Boot 3.5 ({@code spring-boot-actuator}'s {@code
   * org.springframework.boot.actuate.health}); where Spring Boot 4's health support is there too, that one is used.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  @ConditionalOnMissingClass("org.springframework.boot.health.contributor.HealthIndicator")
  static class ActuatorHealthSupport {

    @Bean
    @ConditionalOnMissingBean(name = "kubeschedHealthIndicator")
    org.springframework.boot.actuate.health.HealthIndicator kubeschedHealthIndicator(
        Controller controller, Client client) {
      return () -> {
        var health = KubeschedHealth.of(controller, client);
        var builder = health.up()
            ? org.springframework.boot.actuate.health.Health.up()
            : org.springframework.boot.actuate.health.Health.down();
        return builder.withDetails(health.details()).build();
      };
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
