package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.testkit.KubeArbitraries;
import io.kubesched.testkit.SnapshotScenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The queueing hints never lose a pod: when the filters that turned a pod away register none of what a change of
 * one node (labels, taints, {@code spec.unschedulable}, allocatable, declared features), a node's addition or the
 * deletion of one bound pod changed ({@link Decision.Unschedulable#retriedOn()}), or their hints say the change
 * cannot help ({@link Decision.Unschedulable#retryHint()}), the queue does not retry the pod, and the default policy
 * indeed still finds no node for it after the change.
 */
class RetriedOnProperties {

  private static final Policy POLICY = DefaultPolicy.builder().seed(7).build();

  /** One change of one node of the cluster, picked by index, with what it changes. */
  enum Edit {
    LABEL_ADDED(ClusterChange.NODE_LABELS),
    LABEL_REMOVED(ClusterChange.NODE_LABELS),
    TAINT_ADDED(ClusterChange.NODE_TAINTS),
    TAINTS_REMOVED(ClusterChange.NODE_TAINTS),
    CORDON_FLIPPED(ClusterChange.NODE_TAINTS),
    ALLOCATABLE_DOUBLED(ClusterChange.NODE_ALLOCATABLE),
    ALLOCATABLE_HALVED(ClusterChange.NODE_ALLOCATABLE),
    FEATURE_DECLARED(ClusterChange.NODE_DECLARED_FEATURES),
    POD_DELETED(ClusterChange.ASSIGNED_POD_DELETED),
    /** A node like this one added, with no pod and one label more or less. */
    NODE_ADDED(ClusterChange.NODE_ADDED);

    final ClusterChange change;

    Edit(ClusterChange change) {
      this.change = change;
    }

    /** @return the node changed, or {@code node} itself when this edit changes nothing of it */
    NodeInfo apply(NodeInfo node, int pick) {
      return switch (this) {
        case LABEL_ADDED -> {
          var labels = new HashMap<>(node.labels());
          String[] keys = {KubeArbitraries.LABEL_ZONE, KubeArbitraries.LABEL_DISK, KubeArbitraries.LABEL_GPU,
              KubeArbitraries.TOPOLOGY_ZONE, KubeArbitraries.TOPOLOGY_RACK};
          labels.put(keys[pick % keys.length], pick % 2 == 0 ? "a" : "b");
          yield with(node, labels, node.taints(), node.unschedulable(), node.allocatable(), node.declaredFeatures());
        }
        case LABEL_REMOVED -> {
          if (node.labels().isEmpty()) {
            yield node;
          }
          var keys = new ArrayList<>(node.labels().keySet());
          keys.sort(null);
          var labels = new HashMap<>(node.labels());
          labels.remove(keys.get(pick % keys.size()));
          yield with(node, labels, node.taints(), node.unschedulable(), node.allocatable(), node.declaredFeatures());
        }
        case TAINT_ADDED -> {
          var taints = new ArrayList<>(node.taints());
          String[] keys = {KubeArbitraries.TAINT_DEDICATED, KubeArbitraries.TAINT_SPOT, KubeArbitraries.TAINT_GPU};
          taints.add(new Taint(keys[pick % keys.length], "", TaintEffect.values()[pick % TaintEffect.values().length]));
          yield with(node, node.labels(), taints, node.unschedulable(), node.allocatable(), node.declaredFeatures());
        }
        case TAINTS_REMOVED ->
            with(node, node.labels(), List.of(), node.unschedulable(), node.allocatable(), node.declaredFeatures());
        case CORDON_FLIPPED ->
            with(node, node.labels(), node.taints(), !node.unschedulable(), node.allocatable(), node.declaredFeatures());
        case ALLOCATABLE_DOUBLED -> with(node, node.labels(), node.taints(), node.unschedulable(),
            scaled(node.allocatable(), 2, 1), node.declaredFeatures());
        case ALLOCATABLE_HALVED -> with(node, node.labels(), node.taints(), node.unschedulable(),
            scaled(node.allocatable(), 1, 2), node.declaredFeatures());
        case FEATURE_DECLARED -> {
          var features = new ArrayList<>(node.declaredFeatures());
          features.add(pick % 2 == 0 ? "RestartAllContainersOnContainerExits" : "UserNamespacesHostNetworkSupport");
          yield with(node, node.labels(), node.taints(), node.unschedulable(), node.allocatable(), features);
        }
        case POD_DELETED -> node.pods().isEmpty() ? node
            : node.withoutPod(node.pods().get(pick % node.pods().size()).uid());
        case NODE_ADDED -> {
          var relabelled = (pick % 2 == 0 ? LABEL_ADDED : LABEL_REMOVED).apply(node, pick / 2);
          yield bare(with(relabelled, relabelled.labels(), node.taints(), node.unschedulable(), node.allocatable(),
              node.declaredFeatures()), "added-" + node.name());
        }
      };
    }

    /** @return the change as the queue hands it to the hints */
    ClusterUpdate update(NodeInfo before, NodeInfo after) {
      return switch (this) {
        case NODE_ADDED -> new ClusterUpdate.NodeAdded(after);
        case POD_DELETED -> new ClusterUpdate.AssignedPodDeleted(deletedPod(before, after));
        default -> new ClusterUpdate.NodeUpdated(
            bare(before, before.name()), bare(after, after.name()), ClusterChange.of(change));
      };
    }
  }

  @Property(tries = 1500)
  void a_change_the_rejecting_filters_skip_never_lets_the_pod_fit(
      @ForAll("scenarios") SnapshotScenario scenario, @ForAll Edit edit, @ForAll("picks") int pick) {
    Statistics.label("retried").coverage(cov -> {
      cov.check("retried").count(n -> n > 20);
      cov.check("skipped").count(n -> n > 100);
      cov.check("skipped by a hint").count(n -> n > 50);
    });
    var nodes = scenario.nodes();
    var decision = POLICY.find(scenario.pod(), scenario.snapshot());
    Statistics.label("decision").collect(decision instanceof Decision.Unschedulable ? "unschedulable" : "placed");
    if (!(decision instanceof Decision.Unschedulable refused) || nodes.isEmpty()) {
      return;
    }
    int index = pick % nodes.size();
    var edited = edit.apply(nodes.get(index), pick);
    if (edited.equals(nodes.get(index))) {
      Statistics.label("retried").collect("nothing changed");
      return;
    }
    boolean registered = refused.retriedOn().contains(edit.change);
    boolean retried = registered && refused.retryHint().mayHelp(edit.update(nodes.get(index), edited));
    Statistics.label("retried").collect(retried ? "retried" : registered ? "skipped by a hint" : "skipped");
    Statistics.label("skipped by").collect(retried ? "-" : edit.name() + (registered ? " (hint)" : ""));
    if (retried) {
      return;
    }
    var changed = new ArrayList<>(nodes);
    if (edit == Edit.NODE_ADDED) {
      changed.add(edited);
    } else {
      changed.set(index, edited);
    }
    var after = POLICY.find(scenario.pod(), scenario.snapshot().withNodes(changed));
    assertInstanceOf(Decision.Unschedulable.class, after,
        () -> edit + " on " + edited.name() + " let the pod fit, but its rejectors " + refused.rejectors()
            + (registered ? " said it could not help: " + refused.retryHint()
                : " register only " + refused.retriedOn()));
  }

  @Provide
  Arbitrary<SnapshotScenario> scenarios() {
    return KubeArbitraries.snapshotScenarios(
        KubeArbitraries.pods().withPlacementConstraints(), KubeArbitraries.snapshots().ofSize(1, 4));
  }

  @Provide
  Arbitrary<Integer> picks() {
    return Arbitraries.integers().between(0, 1_000);
  }

  private static NodeInfo with(
      NodeInfo node,
      java.util.Map<String, String> labels,
      List<Taint> taints,
      boolean unschedulable,
      Resources allocatable,
      List<String> declaredFeatures) {
    return new NodeInfo(node.name(), labels, taints, unschedulable, allocatable, node.requested(),
        node.nonZeroRequested(), node.images(), node.pods(), declaredFeatures);
  }

  /** @return the node without its pods, named {@code name}, as the informers hand nodes to the hints */
  private static NodeInfo bare(NodeInfo node, String name) {
    var none = Resources.of(0, 0);
    return new NodeInfo(name, node.labels(), node.taints(), node.unschedulable(), node.allocatable(), none, none,
        node.images(), List.of(), node.declaredFeatures());
  }

  /** @return the pod {@code before} has and {@code after} has not */
  private static PodInfo deletedPod(NodeInfo before, NodeInfo after) {
    for (var pod : before.pods()) {
      if (!after.pods().contains(pod)) {
        return pod;
      }
    }
    throw new IllegalArgumentException("no pod deleted from " + before.name());
  }

  private static Resources scaled(Resources resources, long times, long divided) {
    var extended = new HashMap<String, Long>();
    resources.extended().forEach((name, amount) -> extended.put(name, scaled(amount, times, divided)));
    return new Resources(scaled(resources.milliCpu(), times, divided), scaled(resources.memory(), times, divided),
        scaled(resources.ephemeralStorage(), times, divided), scaled(resources.pods(), times, divided), extended);
  }

  /** {@code amount * times / divided}, saturating at {@link Long#MAX_VALUE}. */
  private static long scaled(long amount, long times, long divided) {
    return amount > Long.MAX_VALUE / times ? Long.MAX_VALUE : amount * times / divided;
  }
}
