package io.kubesched.samples.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.spring.KubeschedAutoConfiguration;
import io.kubesched.spring.KubeschedOptionsCustomizer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.SpringVersion;

/**
 * kubesched-spring-boot-starter in a Spring Boot 3.5 application on kubesched's fabric8 7 line, on the fake cluster
 * (a customizer bean says {@code fake()}), as the starter's own tests run it on Spring Boot 4.
 */
class SpringBoot3StarterTest {

  private static final FinderFunc FIRST_NODE = (pod, nodes) -> Decision.bind(nodes.iterator().next().name());

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(KubeschedAutoConfiguration.class))
          .withBean("fakeCluster", KubeschedOptionsCustomizer.class,
              () -> options -> options.fake().backoff(Duration.ofMillis(100), Duration.ofMillis(400)));

  @Test
  void the_class_path_is_spring_boot_3_5_and_fabric8_7() throws Exception {
    assertTrue(SpringBootVersion.getVersion().startsWith("3.5."), SpringBootVersion.getVersion());
    assertTrue(SpringVersion.getVersion().startsWith("6.2."), SpringVersion.getVersion());
    var api = jarVersion(KubernetesClient.class, "kubernetes-client-api"); // the jar KubernetesClient comes from
    assertTrue(api.startsWith("7."), api);
    var implementation = jarVersion(
        Class.forName("io.fabric8.kubernetes.client.impl.KubernetesClientImpl"), "kubernetes-client"); // its implementation
    assertTrue(implementation.startsWith("7."), implementation);
    assertThrows(ClassNotFoundException.class,
        () -> Class.forName("org.springframework.boot.health.contributor.HealthIndicator"), "Boot 4's health API");
  }

  @Test
  void the_applications_policy_places_its_pods_and_boot_3_5s_health_indicator_says_up_and_leading() {
    runner.withPropertyValues("kubesched.scheduler-name=team-scheduler")
        .withBean(FinderFunc.class, () -> FIRST_NODE)
        .run(context -> {
          assertNull(context.getStartupFailure(), "the context started");
          var client = context.getBean(Client.class);
          assertEquals("team-scheduler", client.options().schedulerName());
          assertTrue(context.getBean(Controller.class).isRunning(), "started with the context");
          var kube = client.kubernetesClient();
          node(kube, "node-0", "4", "4Gi");
          pod(kube, "web", "team-scheduler", "100m", "64Mi");
          eventually(Duration.ofSeconds(30), "the pod is bound", () -> !nodeOf(kube, "web").isEmpty());
          assertEquals("node-0", nodeOf(kube, "web"));

          var health = context.getBean("kubeschedHealthIndicator", HealthIndicator.class).health();
          assertEquals(Status.UP, health.getStatus());
          assertEquals(true, health.getDetails().get("leader"));
          assertEquals("team-scheduler", health.getDetails().get("schedulerName"));
        });
  }

  @Test
  void under_external_leadership_the_health_follows_and_says_down_once_closed() {
    runner.withPropertyValues("kubesched.external-leadership=true").run(context -> {
      var controller = context.getBean(Controller.class);
      var health = context.getBean("kubeschedHealthIndicator", HealthIndicator.class);
      assertEquals(false, health.health().getDetails().get("leader"));
      controller.setLeading(true);
      assertEquals(true, health.health().getDetails().get("leader"));
      controller.close();
      assertEquals(Status.DOWN, health.health().getStatus());
      assertFalse(health.health().getDetails().containsKey("leader"));
    });
  }

  @Test
  void kubesched_enabled_false_configures_nothing() {
    runner.withPropertyValues("kubesched.enabled=false").run(context -> {
      assertTrue(context.getBeansOfType(Client.class).isEmpty());
      assertTrue(context.getBeansOfType(HealthIndicator.class).isEmpty());
    });
  }

  /** The version of fabric8's {@code artifact}, from the Maven metadata in the jar {@code type} comes from. */
  private static String jarVersion(Class<?> type, String artifact) throws IOException {
    var jar = type.getProtectionDomain().getCodeSource().getLocation();
    var properties = new Properties();
    try (InputStream in =
        new URL("jar:" + jar + "!/META-INF/maven/io.fabric8/" + artifact + "/pom.properties").openStream()) {
      properties.load(in);
    }
    return properties.getProperty("version");
  }

  private static void node(KubernetesClient kube, String name, String cpu, String memory) {
    kube.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus()
        .withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110")))
        .endStatus().build()).create();
  }

  private static void pod(KubernetesClient kube, String name, String schedulerName, String cpu, String memory) {
    kube.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withSchedulerName(schedulerName).addNewContainer().withName("app").withImage("app:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
        .endResources().endContainer().endSpec().build()).create();
  }

  private static String nodeOf(KubernetesClient kube, String pod) {
    var found = kube.pods().inNamespace("default").withName(pod).get();
    return found == null || found.getSpec().getNodeName() == null ? "" : found.getSpec().getNodeName();
  }

  private static void eventually(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting until " + what);
      }
      Thread.sleep(20);
    }
  }
}
