package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.simulation.PodOutcome;
import io.kubesched.simulation.Simulation;
import io.kubesched.simulation.SimulationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What-if against reality (issue 47): a simulation over a running controller's own view ({@code
 * Controller.snapshot()}, {@code Controller.pendingPods()}) says where each pending pod will go; then the pods are
 * let go and the controller places them on the real API server, node for node as simulated. kube-scheduler 1.37.2
 * then places exactly as many copies of a pod as {@code Simulation.capacity} says fit.
 */
class WhatIfIT extends RealClusterTest {

  private static final String GATE = "example.com/hold";
  private static final long SEED = 42;

  /**
   * Nodes of 4, 3 and 2 CPU (one already holds a pod of 1 CPU of another scheduler); ten pods of 700m, created
   * with a scheduling gate so that the controller lists them with their uids (which break ties) before any is
   * placed.
   */
  @Test
  void the_controller_places_the_pending_pods_as_the_simulation_of_its_own_view_said() throws Exception {
    createReady(FakeClusterFixture.node("node-a", "4", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "3", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-c", "2", "8Gi", "110"));
    create(admin, new PodBuilder(pod(namespace, "filler", "other-scheduler", "1", "1Gi"))
        .editSpec().withNodeName("node-b").endSpec().build());
    var names = new ArrayList<String>();
    for (int i = 1; i <= 10; i++) {
      var name = "web-" + i;
      names.add(name);
      create(admin, new PodBuilder(pod(namespace, name, SCHEDULER, "700m", "256Mi"))
          .editSpec().addNewSchedulingGate(GATE).endSpec().build());
    }
    var policy = DefaultPolicy.builder().seed(SEED).build();
    try (var controller = client.newPodController(DefaultPolicy.builder().seed(SEED).build(), recorder)) {
      controller.start();
      eventually(WAIT, "the controller sees the three nodes and the filler", () -> controller.snapshot().nodes().size() == 3
          && controller.snapshot().node("node-b").orElseThrow().pods().size() == 1);
      eventually(WAIT, "the ten gated pods are pending", () -> controller.pendingPods().size() == 10);
      var pending = controller.pendingPods().stream()
          .map(p -> p.toBuilder().schedulingGates(List.of()).build())
          .toList();
      // In the queue's order: as the pods were listed (by name), not as they were created.
      var order = pending.stream().map(PodInfo::name).toList();
      assertEquals(new TreeSet<>(names), new TreeSet<>(order));

      var simulated = Simulation.of(controller.snapshot(), policy).pods(pending).run();

      assertEquals(9, simulated.placed().size(), simulated.toString()); // 700m: 5 on node-a, 2 on node-b, 2 on node-c
      releaseAndCompare(order, simulated);
    }
  }

  /**
   * Lifts the scheduling gate of the pods {@code order} names, in that order (the queue's), waits until each is
   * bound or found no node, and checks that each is where {@code simulated} said, or pending with its message.
   */
  private void releaseAndCompare(List<String> order, SimulationResult simulated) {
    var expected = new TreeMap<String, String>();
    simulated.pods().forEach(o -> expected.put(o.pod().name(), o instanceof PodOutcome.Placed p ? p.nodeName() : ""));
    for (var name : order) {
      admin.pods().inNamespace(namespace).withName(name)
          .edit(p -> new PodBuilder(p).editSpec().withSchedulingGates(List.of()).endSpec().build());
    }
    // Unschedulable, not SchedulingGated: the condition the gate left must have been replaced by the scheduler's.
    eventually(WAIT, "every pod is bound or found no node",
        () -> order.stream().allMatch(n -> !nodeOf(n).isEmpty()
            || podScheduled(n).map(c -> "Unschedulable".equals(c.getReason())).orElse(false)));
    var actual = new TreeMap<String, String>();
    order.forEach(n -> actual.put(n, nodeOf(n)));
    assertEquals(expected, actual);
    for (var outcome : simulated.pending()) {
      assertEquals(outcome.message(), podScheduled(outcome.pod().name()).orElseThrow().getMessage());
    }
  }

  /**
   * Pod groups (coscheduling's PodGroup objects, as the controller watches them): train (minimum 3 of three 1-CPU
   * members) fits, big (minimum 2 of two 3-CPU members) does not once train is placed. The simulation over the
   * controller's view, with its groups, says so member by member; the controller then places train's members where
   * the simulation did, and leaves big's pending with the simulated messages. The members are held by a scheduling
   * gate until the simulation has run, then let go in the queue's order; a group is tried once all its members are
   * there.
   */
  @Test
  void the_controller_places_pod_groups_as_the_simulation_of_its_own_view_said() throws Exception {
    createReady(FakeClusterFixture.node("node-a", "4", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "2", "8Gi", "110"));
    var groups = admin.genericKubernetesResources(new ResourceDefinitionContext.Builder()
        .withGroup("scheduling.x-k8s.io").withVersion("v1alpha1").withKind("PodGroup").withPlural("podgroups")
        .withNamespaced(true).build()).inNamespace(namespace);
    var names = new ArrayList<String>();
    for (var group : List.of(new Object[] {"train", 3, "1"}, new Object[] {"big", 2, "3"})) {
      var name = (String) group[0];
      int size = (int) group[1];
      groups.resource(new GenericKubernetesResourceBuilder().withApiVersion("scheduling.x-k8s.io/v1alpha1")
          .withKind("PodGroup").withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
          .addToAdditionalProperties("spec", Map.of("minMember", size)).build()).create();
      for (int i = 0; i < size; i++) {
        names.add(name + "-" + i);
        create(admin, new PodBuilder(pod(namespace, name + "-" + i, SCHEDULER, (String) group[2], "256Mi"))
            .editMetadata().addToLabels(SchedulingConstants.POD_GROUP_LABEL, name).endMetadata()
            .editSpec().addNewSchedulingGate(GATE).endSpec().build());
      }
    }
    var policy = DefaultPolicy.builder().seed(SEED).build();
    try (var controller = client.newPodController(DefaultPolicy.builder().seed(SEED).build(), recorder)) {
      controller.start();
      eventually(WAIT, "the controller sees both nodes, both groups and the five gated members",
          () -> controller.snapshot().nodes().size() == 2 && controller.podGroups().size() == 2
              && controller.pendingPods().size() == 5);
      assertTrue(controller.podGroupSources().contains(PodGroupRef.Source.COSCHEDULING));
      var pending = controller.pendingPods().stream()
          .map(p -> p.toBuilder().schedulingGates(List.of()).build())
          .toList();

      var simulated = Simulation.of(controller.snapshot(), policy).podGroups(controller.podGroups())
          .podGroupSources(controller.podGroupSources()).pods(pending).run();

      assertEquals(List.of("train-0", "train-1", "train-2"),
          simulated.placed().stream().map(p -> p.pod().name()).sorted().toList(), simulated.pods().toString());
      var order = pending.stream().map(PodInfo::name).toList();
      assertEquals(new TreeSet<>(names), new TreeSet<>(order));
      releaseAndCompare(order, simulated);
    }
  }

  @Test
  void kube_scheduler_places_as_many_copies_as_the_capacity_answer_says() throws Exception {
    createReady(FakeClusterFixture.node("node-a", "2", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "1500m", "8Gi", "110"));
    create(admin, new PodBuilder(pod(namespace, "filler", "other-scheduler", "300m", "1Gi"))
        .editSpec().withNodeName("node-a").endSpec().build());
    int capacity;
    String stopReason;
    try (var controller = client.newPodController(DefaultPolicy.create(), recorder)) {
      controller.start();
      eventually(WAIT, "the controller sees both nodes and the filler", () -> controller.snapshot().nodes().size() == 2
          && controller.snapshot().node("node-a").orElseThrow().pods().size() == 1);
      var template = PodInfo.builder(namespace, "copy").requests(400, 128L << 20).build();
      var answer = Simulation.capacity(controller.snapshot(), DefaultPolicy.create(), template, 50);
      capacity = answer.count();
      stopReason = answer.stopReason();
      assertEquals(Map.of("node-a", 4, "node-b", 3), answer.perNode());
    }
    assertEquals(7, capacity);
    try (var kubeScheduler = KubeSchedulerProcess.startFor(cluster, "kube-scheduler-what-if")) {
      for (int i = 1; i <= capacity + 2; i++) {
        create(admin, pod(namespace, "copy-" + i, KubeSchedulerProcess.NAME, "400m", "128Mi"));
      }
      eventually(WAIT, "every copy is bound or found no node", () -> pods("copy-").stream()
          .allMatch(n -> !nodeOf(n).isEmpty() || podScheduled(n).map(c -> "False".equals(c.getStatus())).orElse(false)));
      var bound = pods("copy-").stream().filter(n -> !nodeOf(n).isEmpty()).count();
      assertEquals(capacity, bound);
      var unplaced = pods("copy-").stream().filter(n -> nodeOf(n).isEmpty()).toList();
      assertEquals(2, unplaced.size());
      var message = podScheduled(unplaced.get(0)).orElseThrow().getMessage();
      assertTrue(message.startsWith(stopReason.split(" preemption:")[0]), message + " vs " + stopReason);
      assertFalse(stopReason.isEmpty());
    }
  }
}
