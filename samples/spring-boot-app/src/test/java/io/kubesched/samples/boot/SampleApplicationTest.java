package io.kubesched.samples.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.facade.Client;
import io.kubesched.spring.KubeschedAutoConfiguration;
import io.kubesched.spring.KubeschedOptionsCustomizer;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The sample's context on the library's fake cluster: spot nodes first, where the pod fits. */
class SampleApplicationTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(KubeschedAutoConfiguration.class))
          .withUserConfiguration(SampleApplication.class)
          .withPropertyValues("kubesched.scheduler-name=spot-first")
          .withBean("fakeCluster", KubeschedOptionsCustomizer.class, () -> options -> options.fake());

  @Test
  void a_pod_goes_to_the_spot_node_where_it_fits_and_an_on_demand_pod_does_not() {
    runner.run(context -> {
      var kube = context.getBean(Client.class).kubernetesClient();
      node(kube, "on-demand-0", "on-demand", "8");
      node(kube, "spot-0", "spot", "2"); // smaller: least allocated alone would prefer on-demand-0
      assertEquals("spot-0", place(kube, "web", "500m", null));
      assertEquals("on-demand-0", place(kube, "big", "4", null), "too big for the spot node");
      assertEquals("on-demand-0", place(kube, "db", "100m", "on-demand"), "a pod that asks for on-demand capacity");
    });
  }

  private static void node(KubernetesClient kube, String name, String tier, String cpu) {
    kube.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).addToLabels(SpotNodes.TIER, tier)
        .endMetadata().withNewStatus()
        .withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("16Gi"), "pods", new Quantity("110")))
        .endStatus().build()).create();
  }

  private static String place(KubernetesClient kube, String name, String cpu, String tier) throws InterruptedException {
    var pod = new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withSchedulerName("spot-first").addNewContainer().withName("app").withImage("app:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("64Mi")))
        .endResources().endContainer().endSpec();
    if (tier != null) {
      pod.editMetadata().addToLabels(SpotNodes.TIER, tier).endMetadata();
    }
    kube.pods().inNamespace("default").resource(pod.build()).create();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    BooleanSupplier bound = () -> !nodeOf(kube, name).isEmpty();
    while (!bound.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail(name + " was not bound within 30 s");
      }
      Thread.sleep(20);
    }
    return nodeOf(kube, name);
  }

  private static String nodeOf(KubernetesClient kube, String pod) {
    var found = kube.pods().inNamespace("default").withName(pod).get();
    return found == null || found.getSpec().getNodeName() == null ? "" : found.getSpec().getNodeName();
  }
}
