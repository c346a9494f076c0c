package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.facade.Client;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.facade.Options;
import io.kubesched.testcluster.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every end-to-end test starts from: the shared real cluster with no nodes, a namespace of its own,
 * and a {@link Client} that schedules as the restricted service account the RBAC of docs/operations.md is for.
 */
@ExtendWith(RealClusterExtension.class)
abstract class RealClusterTest {

  static final String SCHEDULER = "kubesched-e2e";
  static final Duration WAIT = Duration.ofSeconds(60);
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  TestCluster cluster;
  KubernetesClient admin;
  String namespace;
  Client client;
  final FakeClusterFixture.Recorder recorder = new FakeClusterFixture.Recorder();

  @BeforeEach
  void connect(TestCluster cluster) {
    this.cluster = cluster;
    this.admin = cluster.admin();
    admin.nodes().delete(); // nodes are cluster-wide: start every test from none
    FakeClusterFixture.eventually(WAIT, "no node is left", () -> admin.nodes().list().getItems().isEmpty());
    namespace = "e2e-" + getClass().getSimpleName().toLowerCase() + "-" + NAMESPACES.incrementAndGet();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    client = Client.create(schedulerOptions().build());
  }

  /** Options for a scheduler running as the restricted identity. */
  Options.Builder schedulerOptions() {
    return Options.builder()
        .kubeconfig(cluster.schedulerKubeconfig())
        .schedulerName(SCHEDULER)
        .backoff(Duration.ofMillis(200), Duration.ofSeconds(2));
  }

  @AfterEach
  void disconnect() {
    client.close();
    // Without a kubelet, a bound pod is only removed by a deletion without grace period.
    admin.pods().inNamespace(namespace).withGracePeriod(0).delete();
  }

  /**
   * Creates the node and takes off the {@code node.kubernetes.io/not-ready} taint the API server's
   * TaintNodesByCondition admission puts on every new node (no node lifecycle controller runs here to do it),
   * so that {@link DefaultPolicy}'s TaintToleration lets pods in, as on a cluster whose nodes are Ready.
   */
  void createReady(Node node) {
    create(admin, node);
    admin.nodes().withName(node.getMetadata().getName()).edit(n -> new NodeBuilder(n).editSpec().withTaints().endSpec().build());
  }

  /**
   * Two Ready nodes of 4 CPU and 8Gi: {@code node-a} half full (a pod of another scheduler asking for 2 CPU and
   * 4Gi is bound to it), {@code node-b} empty. For small pods, least allocated scoring picks node-b and most
   * allocated node-a.
   */
  void createNodesOfDifferentFill() {
    createReady(FakeClusterFixture.node("node-a", "4", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "4", "8Gi", "110"));
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, "filler", "other-scheduler", "2", "4Gi"))
        .editSpec().withNodeName("node-a").endSpec().build());
  }

  /** @return the names of this test's pods that start with {@code prefix}, sorted */
  List<String> pods(String prefix) {
    return admin.pods().inNamespace(namespace).list().getItems().stream()
        .map(p -> p.getMetadata().getName())
        .filter(n -> n.startsWith(prefix))
        .sorted()
        .toList();
  }

  /**
   * Creates a pod of this test's namespace asking for 100m CPU and 200Mi, for {@code schedulerName}, and waits
   * until it is bound.
   *
   * @return its node
   */
  String place(String name, String schedulerName) {
    create(admin, FakeClusterFixture.pod(namespace, name, schedulerName, "100m", "200Mi"));
    FakeClusterFixture.eventually(WAIT, name + " is bound", () -> !nodeOf(name).isEmpty());
    return nodeOf(name);
  }

  String nodeOf(String pod) {
    return FakeClusterFixture.nodeOf(admin, namespace, pod);
  }

  /** @return the {@code events.k8s.io/v1} events of this test's namespace regarding the pod {@code pod} */
  List<Event> eventsAbout(String pod) {
    return admin.events().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> e.getRegarding() != null
            && "Pod".equals(e.getRegarding().getKind())
            && pod.equals(e.getRegarding().getName()))
        .toList();
  }

  /** @return the pod's {@code PodScheduled} condition as the API server has it, if the pod has one */
  Optional<PodCondition> podScheduled(String pod) {
    var current = admin.pods().inNamespace(namespace).withName(pod).get();
    if (current == null || current.getStatus() == null || current.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return current.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()))
        .findFirst();
  }

  /**
   * Polls {@code condition} every 20 ms for up to {@code timeout}. For waits whose end is no assertion
   * (else use {@code eventually}).
   *
   * @return whether the condition came true in time
   */
  static boolean waitUpTo(Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
