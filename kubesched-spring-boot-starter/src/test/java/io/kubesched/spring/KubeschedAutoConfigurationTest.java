package io.kubesched.spring;

import static io.kubesched.spring.FakeClusterObjects.create;
import static io.kubesched.spring.FakeClusterObjects.eventually;
import static io.kubesched.spring.FakeClusterObjects.node;
import static io.kubesched.spring.FakeClusterObjects.nodeOf;
import static io.kubesched.spring.FakeClusterObjects.pod;
import static io.kubesched.spring.FakeClusterObjects.rootMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.kubesched.micrometer.MicrometerMetrics;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration in an application context, on the fake cluster (a customizer bean says {@code fake()}). */
class KubeschedAutoConfigurationTest {

  private static final FinderFunc FIRST_NODE = (pod, nodes) -> Decision.bind(nodes.iterator().next().name());

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(KubeschedAutoConfiguration.class))
          .withBean("fakeCluster", KubeschedOptionsCustomizer.class,
              () -> options -> options.fake().backoff(Duration.ofMillis(100), Duration.ofMillis(400)));

  @Test
  void the_applications_policy_places_its_pods_once_the_context_has_started() {
    runner.withPropertyValues("kubesched.scheduler-name=team-scheduler", "kubesched.parallelism=2")
        .withBean(FinderFunc.class, () -> FIRST_NODE)
        .run(context -> {
          var client = context.getBean(Client.class);
          assertEquals("team-scheduler", client.options().schedulerName());
          assertEquals(2, client.options().parallelism());
          assertTrue(context.getBean(Controller.class).isRunning(), "started with the context");
          var kube = client.kubernetesClient();
          node(kube, "node-0", "4", "4Gi");
          create(kube, pod("web", "team-scheduler", "100m", "64Mi"));
          eventually(Duration.ofSeconds(30), "the pod is bound", () -> !nodeOf(kube, "web").isEmpty());
          var health = context.getBean("kubeschedHealthIndicator", HealthIndicator.class).health();
          assertEquals(Status.UP, health.getStatus());
          assertEquals(true, health.getDetails().get("leader"));
        });
  }

  @Test
  void without_a_policy_bean_it_runs_kube_schedulers_default_profile_and_the_context_closes_it() {
    var controller = new Controller[1];
    runner.run(context -> {
      controller[0] = context.getBean(Controller.class);
      var kube = context.getBean(Client.class).kubernetesClient();
      node(kube, "small", "1", "1Gi");
      node(kube, "large", "8", "8Gi");
      create(kube, pod("big", "kubesched", "2", "2Gi")); // fits only the large node: DefaultPolicy's filters ran
      eventually(Duration.ofSeconds(30), "the pod is bound", () -> !nodeOf(kube, "big").isEmpty());
      assertEquals("large", nodeOf(kube, "big"));
    });
    assertFalse(controller[0].isRunning(), "closed with the context");
  }

  @Test
  void under_external_leadership_it_follows_until_the_application_leads_and_the_health_says_so() {
    runner.withPropertyValues("kubesched.external-leadership=true").run(context -> {
      var controller = context.getBean(Controller.class);
      var health = context.getBean("kubeschedHealthIndicator", HealthIndicator.class);
      assertEquals(false, health.health().getDetails().get("leader"));
      controller.setLeading(true);
      assertEquals(true, health.health().getDetails().get("leader"));
      controller.close();
      assertEquals(Status.DOWN, health.health().getStatus());
      assertEquals(KubeschedHealth.NOT_RUNNING, health.health().getDetails().get("reason"));
    });
  }

  @Test
  void leader_election_and_external_leadership_together_fail_the_start_with_the_librarys_message() {
    runner.withPropertyValues("kubesched.external-leadership=true", "kubesched.leader-election.enabled=true")
        .run(context -> {
          assertTrue(context.getStartupFailure() != null);
          assertTrue(rootMessage(context.getStartupFailure()).contains("exclude each other"),
              rootMessage(context.getStartupFailure()));
        });
  }

  @Test
  void its_metrics_go_to_the_applications_registry() {
    runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).withBean(FinderFunc.class, () -> FIRST_NODE)
        .run(context -> {
          var kube = context.getBean(Client.class).kubernetesClient();
          node(kube, "node-0", "4", "4Gi");
          create(kube, pod("web", "kubesched", "100m", "64Mi"));
          eventually(Duration.ofSeconds(30), "the pod is bound", () -> !nodeOf(kube, "web").isEmpty());
          var registry = context.getBean(MeterRegistry.class);
          eventually(Duration.ofSeconds(10), "an attempt is counted",
              () -> registry.find(MicrometerMetrics.ATTEMPTS).counters().stream().mapToDouble(c -> c.count()).sum() >= 1);
        });
  }

  @Test
  void with_both_spring_boot_health_apis_on_the_class_path_only_boot_4s_indicator_is_made() {
    // This module compiles against Boot 3.5's spring-boot-actuator too (optional): both are on its test class path.
    runner.run(context -> {
      assertEquals(1, context.getBeansOfType(HealthIndicator.class).size());
      assertTrue(context.getBeansOfType(org.springframework.boot.actuate.health.HealthIndicator.class).isEmpty());
    });
  }

  @Test
  void kubesched_enabled_false_configures_nothing() {
    runner.withPropertyValues("kubesched.enabled=false")
        .run(context -> assertTrue(context.getBeansOfType(Client.class).isEmpty()));
  }
}
