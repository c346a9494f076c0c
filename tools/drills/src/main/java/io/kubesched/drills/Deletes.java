package io.kubesched.drills;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kubesched.drills.Snapshot.PodView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods and a node deleted while the scheduler's decisions or bindings for them are in flight.
 *
 * <p>{@link #inject}: first {@value #SHORT_LIVED} pods each created and deleted again after a delay of {@link
 * #DELAYS_MS} (from none, before the scheduler can have seen it, to 500 ms, when it is likely bound or being
 * bound), half of them plain and half members of one topology spread group; then a burst of {@value #BURST}
 * plain pods created at once (one thread each), and as soon as they are created the last node deleted while
 * the scheduler is placing the burst over the nodes, that one included: so that some of its bindings are in
 * flight then, the proxy between the scheduler and the API server holds the scheduler's bytes from just
 * before the delete to {@value #HOLD_MS} ms after it (its bindings sent meanwhile reach the API server after
 * the node is gone; its watches tell it of the delete only then); then {@value #ABSENT_MS} ms with the node
 * gone. {@link #heal}: the node created again, Ready, with the same name and labels.
 *
 * <p>What kube does, and what the drill therefore expects. kube-apiserver accepts a binding to a node that does
 * not exist (the binding's storage checks the pod, not the node), so the pods whose bindings were in flight,
 * or were bound just before, stay bound to the deleted node's name. kube-controller-manager's pod garbage
 * collector deletes pods bound to a node that is missing, but only after 40 s of quarantine (and its check
 * runs every 20 s): the node here is back after {@value #ABSENT_MS} ms, so kube would delete none of them,
 * and neither does the runner (the test cluster runs no pod GC anyway: its controller-manager, when started,
 * runs the volume and disruption controllers only). Those pods are then on the recreated node, and the
 * invariants hold with them: counted against its allocatable, in the scheduler's view of it, bound once.
 * They are counted per trial ({@link #boundToDeletedNode}). The spread groups with a pod on the deleted node are
 * not checked (see {@link Invariants}); the node deleted is the last, which shares its zone with the first
 * for 4 nodes, so the zones (the spread's domains) stay the same while it is gone.
 *
 * <p>Runner's thread only (its burst's creates on threads of their own, joined before {@link #inject}
 * returns).
 */
final class Deletes implements Fault {

  static final int SHORT_LIVED = 10;
  static final List<Integer> DELAYS_MS = List.of(0, 0, 2, 5, 10, 20, 50, 100, 200, 500);
  static final int BURST = 12;
  static final long ABSENT_MS = 3000;
  static final long HOLD_MS = 300;
  private static final Logger LOG = LoggerFactory.getLogger(Deletes.class);

  private final String node;
  private int trial;
  private final List<PodView> deletedPods = new ArrayList<>();
  private final Set<String> burst = new HashSet<>();
  private Set<String> onNodeWhenDeleted = Set.of();
  private int onDeletedNode;
  private final AtomicInteger created = new AtomicInteger();

  /** @param node the node to delete and create again, such as the last of the drill's */
  Deletes(String node) {
    this.node = node;
  }

  @Override
  public String name() {
    return "deletes";
  }

  @Override
  public void inject(Target target) throws Exception {
    var admin = target.cluster().admin();
    var prefix = "del" + trial++;
    deletedPods.clear();
    burst.clear();
    created.set(0);
    for (int i = 0; i < SHORT_LIVED; i++) {
      var kind = i % 2 == 0 ? Snapshot.Kind.PLACEABLE : Snapshot.Kind.SPREAD;
      var pod = create(admin, PodStream.pod(DrillRun.NAMESPACE, DrillRun.SCHEDULER, prefix + "-" + i, kind,
          kind == Snapshot.Kind.SPREAD ? prefix + "-s" : null, "100m", "64Mi"));
      if (pod == null) {
        continue;
      }
      Thread.sleep(DELAYS_MS.get(i));
      try {
        admin.pods().inNamespace(DrillRun.NAMESPACE).withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
        var last = admin.pods().inNamespace(DrillRun.NAMESPACE).withName(pod.getMetadata().getName()).get();
        deletedPods.add(DrillRun.podView(last == null ? pod : last));
      } catch (KubernetesClientException e) {
        LOG.warn("deleting {} failed, left: {}", pod.getMetadata().getName(), e.getMessage());
      }
    }
    var pool = Executors.newFixedThreadPool(BURST);
    try {
      var creates = new ArrayList<Future<@Nullable Pod>>();
      for (int i = 0; i < BURST; i++) {
        var pod = PodStream.pod(DrillRun.NAMESPACE, DrillRun.SCHEDULER, prefix + "-b" + i, Snapshot.Kind.PLACEABLE,
            null, "100m", "64Mi");
        creates.add(pool.submit(() -> create(admin, pod)));
      }
      for (var future : creates) {
        var pod = future.get();
        if (pod != null) {
          burst.add(pod.getMetadata().getName());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    target.proxy().stall();
    try {
      long held = System.nanoTime();
      admin.nodes().withName(node).withGracePeriod(0).delete();
      onNodeWhenDeleted = boundTo(admin);
      Thread.sleep(Math.max(0, HOLD_MS - (System.nanoTime() - held) / 1_000_000));
    } finally {
      target.proxy().resume();
    }
    Thread.sleep(ABSENT_MS);
  }

  @Override
  public void heal(Target target) {
    var admin = target.cluster().admin();
    var boundWhileGone = new HashSet<>(boundTo(admin));
    boundWhileGone.removeAll(onNodeWhenDeleted);
    DrillRun.createReadyNode(admin, node);
    onDeletedNode = onNodeWhenDeleted.size() + boundWhileGone.size();
    LOG.info("{} deleted with {} pods bound to it, {} more bound to it while it was gone: {} then {}", node,
        onNodeWhenDeleted.size(), boundWhileGone.size(), new TreeSet<>(onNodeWhenDeleted),
        new TreeSet<>(boundWhileGone));
  }

  @Override
  public List<PodView> deletedPods() {
    return List.copyOf(deletedPods);
  }

  @Override
  public Set<String> deletedNodes() {
    return Set.of(node);
  }

  @Override
  public Set<String> mustBind() {
    return Set.copyOf(burst);
  }

  @Override
  public int podsCreated() {
    return created.get();
  }

  @Override
  public OptionalInt boundToDeletedNode() {
    return OptionalInt.of(onDeletedNode);
  }

  private Set<String> boundTo(KubernetesClient admin) {
    return admin.pods().inNamespace(DrillRun.NAMESPACE).list().getItems().stream()
        .filter(p -> node.equals(p.getSpec().getNodeName()))
        .map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
  }

  private @Nullable Pod create(KubernetesClient admin, Pod pod) {
    try {
      var result = admin.pods().inNamespace(DrillRun.NAMESPACE).resource(pod).create();
      created.incrementAndGet();
      return result;
    } catch (KubernetesClientException e) {
      LOG.warn("creating {} failed: {}", pod.getMetadata().getName(), e.getMessage());
      return null;
    }
  }
}
