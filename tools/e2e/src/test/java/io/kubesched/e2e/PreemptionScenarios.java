package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.testcluster.TestCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Priority and preemption on a real API server (issue 14): the scenarios of kube's {@code
 * test/integration/scheduler/preemption} that matter to a user, with kube-scheduler 1.37.2's exact messages as
 * the expectations. The scheduler under test is the one switch: a subclass names it ({@link #schedulerName()})
 * and starts it for each test ({@link #startScheduler()}); {@link PreemptionKubeSchedulerIT} runs kube-scheduler
 * itself (the reference the expectations were recorded from), {@link PreemptionIT} this library's scheduler.
 *
 * <p>The test cluster has no kubelet. Two consequences shape every scenario. Pods that are "running" are
 * created already bound ({@code spec.nodeName}) with a status the test writes (phase Running, a start time
 * that fixes their order of importance, and {@code Ready} where a disruption budget must count them
 * healthy). And a bound pod deleted with a grace period, as the scheduler deletes its victims, stays
 * terminating ({@code metadata.deletionTimestamp} set, still on its node, its resources still counted) until
 * something deletes it with grace period 0: the test plays the kubelet ({@link #kubeletFinishes}), which is
 * exactly what lets a scenario look at the cluster while the victims terminate, the room held for the
 * preemptor.
 *
 * <p>PriorityClasses {@value #LOW} (100), {@value #MID} (200), {@value #BETWEEN} (500), {@value #HIGH} (1000)
 * and {@value #HIGH_NEVER} (1000, {@code preemptionPolicy: Never}) are created for the class and deleted after
 * it. Nodes have 8 GiB and room for 110 pods; CPU is what is short.
 *
 * <p>What every scenario asserts beyond its own point: victims get the {@code DisruptionTarget} condition
 * (status True, reason {@code PreemptionByScheduler}, message {@code "<scheduler name>: preempting to
 * accommodate a higher priority pod"}) and are deleted gracefully; a {@code Preempted} event regarding each
 * victim names the preemptor; every other pod keeps its node, has no deletion timestamp and no such condition;
 * the preemptor's {@code status.nominatedNodeName} names the chosen node before it is bound there (the API
 * server clears it on binding); its {@code PodScheduled=False} message and first {@code FailedScheduling} note
 * are kube's exact text (later notes are not certain to be written: see {@link #assertNotes}).
 *
 * <p>Messages kube-scheduler 1.37.2 writes here: {@code "0/N nodes are available: N Insufficient cpu.
 * preemption: found a potential placement for pod on node <node>, preempting <k> victims"} when it preempts
 * ({@code k} counts victims already terminating); {@code "... preemption: not eligible due to
 * preemptionPolicy=Never."}; {@code "... preemption: not eligible due to a terminating pod on the nominated
 * node."} on a retry while its victims terminate; {@code "... preemption: 0/1 nodes are available: 1
 * Insufficient cpu."} when removing every lower-priority pod is not enough (nominated room counted); {@code
 * "... preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."} when there is no
 * lower-priority pod.
 */
abstract class PreemptionScenarios extends RealClusterTest {

  static final String LOW = "e2e-preemption-low";
  static final String MID = "e2e-preemption-mid";
  static final String BETWEEN = "e2e-preemption-between";
  static final String HIGH = "e2e-preemption-high";
  static final String HIGH_NEVER = "e2e-preemption-high-never";
  private static final Map<String, Integer> PRIORITIES =
      Map.of(LOW, 100, MID, 200, BETWEEN, 500, HIGH, 1000, HIGH_NEVER, 1000);

  /** The message of an attempt while the victims of the pod's own earlier preemption terminate (1.6). */
  private static final String TERMINATING_ON_NOMINATED = "0/1 nodes are available: 1 Insufficient cpu. preemption:"
      + " not eligible due to a terminating pod on the nominated node.";

  /** {@link #TERMINATING_ON_NOMINATED} in a cluster of two nodes. */
  private static final String TERMINATING_ON_NOMINATED_OF_2 = "0/2 nodes are available: 2 Insufficient cpu."
      + " preemption: not eligible due to a terminating pod on the nominated node.";

  /** Long enough for any attempt, backoff and write of either scheduler; never waited for in full on success. */
  private static final Duration SOON = Duration.ofSeconds(30);
  /** The start times of the "running" pods: earlier is more important among equal priorities. */
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static final Logger LOG = LoggerFactory.getLogger(PreemptionScenarios.class);

  private @Nullable AutoCloseable scheduler;

  /** @return the {@code spec.schedulerName} the scheduler under test serves */
  abstract String schedulerName();

  /**
   * Starts the scheduler under test for one test, after the namespace and {@link #client} exist and before
   * any node or pod; closed after the test, before its pods are deleted.
   */
  abstract AutoCloseable startScheduler() throws Exception;

  /**
   * Whether the {@code Preempted} event's {@code related} object is the preemptor. kube-scheduler means it to
   * be, but 1.37.2 hands the event recorder its internal preemptor wrapper instead of the pod, the reference
   * cannot be built, and the event goes out without {@code related}.
   */
  abstract boolean preemptedEventNamesPreemptor();

  @BeforeAll
  static void priorityClasses(TestCluster cluster) {
    PRIORITIES.forEach((name, value) -> cluster.admin().scheduling().v1().priorityClasses()
        .resource(new PriorityClassBuilder()
            .withNewMetadata().withName(name).endMetadata()
            .withValue(value)
            .withPreemptionPolicy(name.equals(HIGH_NEVER) ? "Never" : "PreemptLowerPriority")
            .build())
        .createOr(existing -> existing.update()));
  }

  @AfterAll
  static void removePriorityClasses(TestCluster cluster) {
    PRIORITIES.keySet().forEach(name -> cluster.admin().scheduling().v1().priorityClasses().withName(name).delete());
  }

  @BeforeEach
  void start() throws Exception {
    scheduler = startScheduler();
  }

  @AfterEach
  void stop() throws Exception {
    if (scheduler != null) {
      scheduler.close();
      scheduler = null;
    }
  }

  // ---------------------------------------------------------------- (a) minimal victims, node choice

  /**
   * kube's TestPreemption: the cluster is full of lower-priority pods; the high-priority pod evicts the
   * fewest, least important ones. On node-0 one of two equal pods must go (the later started), on node-1 two
   * (a more important pod there is reprieved); node-0 wins on the sum of the victims' priorities (1.20 (3)).
   */
  @Test
  void a_high_priority_pod_evicts_the_fewest_least_important_pods_and_is_bound_where_they_were() {
    node("node-0", "1");
    node("node-1", "1");
    running("early-0", LOW, "500m", "node-0", 0);
    running("late-0", LOW, "500m", "node-0", 1);
    running("mid-1", MID, "500m", "node-1", 0);
    running("low-1a", LOW, "250m", "node-1", 1);
    running("low-1b", LOW, "250m", "node-1", 2);
    pending("preemptor", HIGH, "500m");

    var victims = preemptsThenIsBound("preemptor", "node-0", Set.of("late-0"),
        "0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod"
            + " on node node-0, preempting 1 victims",
        TERMINATING_ON_NOMINATED_OF_2);
    assertEquals("", nominated("preemptor"), "the API server clears the nomination on binding");
    assertOnlyVictimsTouched(victims, List.of("early-0", "mid-1", "low-1a", "low-1b"));
    logMessages("preemptor");
  }

  // ---------------------------------------------------------------- (b) two preemptors race for one node

  /**
   * kube's TestPreemptionRaces, reduced to its point: two high-priority pods arrive together for one node
   * full of low-priority pods. The second one's dry run counts the first one's nominated room (1.23), so
   * together they evict exactly the four pods they need, never the more important fifth, and both are bound.
   */
  @Test
  void two_preemptors_racing_for_one_node_evict_exactly_what_both_need_and_both_are_bound() {
    node("node-0", "1250m");
    running("keeper", MID, "250m", "node-0", 0);
    for (int i = 1; i <= 4; i++) {
      running("low-" + i, LOW, "250m", "node-0", i);
    }
    pending("racer-a", HIGH, "500m");
    pending("racer-b", HIGH, "500m");

    var victims = Set.of("low-1", "low-2", "low-3", "low-4");
    eventually(SOON, "both racers nominated to node-0 and the four low pods terminating",
        () -> nominated("racer-a").equals("node-0") && nominated("racer-b").equals("node-0")
            && victims.stream().allMatch(this::terminating));
    victims.forEach(this::assertPreemptedByScheduler);
    assertUntouched("keeper", "node-0");
    // The first one evicts the two least important; the second one, with the first one's room held, the
    // other two, and counts the two terminating ones among its victims (they are still on the node).
    var placement = "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod"
        + " on node node-0, preempting ";
    eventually(SOON, "both racers reported with their preemption",
        () -> !failedSchedulingNotes("racer-a").isEmpty() && !failedSchedulingNotes("racer-b").isEmpty());
    var first = new TreeSet<String>();
    for (var racer : List.of("racer-a", "racer-b")) {
      var notes = failedSchedulingNotes(racer);
      first.add(notes.get(0));
      // If tried again while its victims terminate (another victim's update moved it): not eligible (1.6).
      assertNotes(racer, notes.get(0), TERMINATING_ON_NOMINATED);
    }
    assertEquals(Set.of(placement + "2 victims", placement + "4 victims"), first);
    assertTrue(preemptedPods().containsAll(victims));

    kubeletFinishes(victims);
    eventually(SOON, "both racers bound to node-0",
        () -> "node-0".equals(nodeOf("racer-a")) && "node-0".equals(nodeOf("racer-b")));
    assertOnlyVictimsTouched(victims, List.of("keeper"));
    logMessages("racer-a", "racer-b");
  }

  // ---------------------------------------------------------------- (c) PodDisruptionBudgets

  /**
   * kube's TestPDBInPreemption: the pod on node-0 is the cheaper victim, but a budget that allows no
   * disruption covers it; node-1's more important pod is evicted instead (1.20 (1) before (2)).
   */
  @Test
  void a_victim_a_disruption_budget_protects_is_spared_when_another_node_can_make_room() {
    node("node-0", "1");
    node("node-1", "1");
    guarded("guarded", "node-0");
    budget("guard", 1, 0);
    running("plain", MID, "1", "node-1", 0);
    pending("preemptor", HIGH, "1");

    var victims = preemptsThenIsBound("preemptor", "node-1", Set.of("plain"),
        "0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod"
            + " on node node-1, preempting 1 victims",
        TERMINATING_ON_NOMINATED_OF_2);
    assertOnlyVictimsTouched(victims, List.of("guarded"));
  }

  /**
   * The same cluster with a budget that allows one disruption (the disruption controller counts the Ready
   * pod healthy above {@code minAvailable: 0}): the budget is not violated, and the cheaper victim goes.
   */
  @Test
  void a_budget_that_allows_a_disruption_does_not_protect_its_pod() {
    node("node-0", "1");
    node("node-1", "1");
    guarded("guarded", "node-0");
    budget("guard", 0, 1);
    running("plain", MID, "1", "node-1", 0);
    pending("preemptor", HIGH, "1");

    var victims = preemptsThenIsBound("preemptor", "node-0", Set.of("guarded"),
        "0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod"
            + " on node node-0, preempting 1 victims",
        TERMINATING_ON_NOMINATED_OF_2);
    assertOnlyVictimsTouched(victims, List.of("plain"));
  }

  /** A budget is best effort: with no other choice, the protected pod is evicted all the same. */
  @Test
  void a_budget_does_not_stop_preemption_when_it_is_the_only_way() {
    node("node-0", "1");
    guarded("guarded", "node-0");
    budget("guard", 1, 0);
    pending("preemptor", HIGH, "1");

    preemptsThenIsBound("preemptor", "node-0", Set.of("guarded"),
        "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod"
            + " on node node-0, preempting 1 victims",
        TERMINATING_ON_NOMINATED);
  }

  // ---------------------------------------------------------------- (d) preemptionPolicy: Never

  /** kube's TestNonPreemption: a pod whose class says {@code preemptionPolicy: Never} waits; nothing is evicted. */
  @Test
  void a_pod_that_may_not_preempt_stays_pending_and_nothing_is_evicted() {
    node("node-0", "1");
    running("filler", LOW, "1", "node-0", 0);
    pending("patient", HIGH_NEVER, "1");

    assertEquals("Never", pod("patient").getSpec().getPreemptionPolicy(), "set from the class by admission");
    var expected = "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to"
        + " preemptionPolicy=Never.";
    staysPendingWithoutPreempting("patient", expected, "node-0", "filler");
  }

  // ---------------------------------------------------------------- (e) the room is held

  /**
   * kube's TestNominatedNode / 1.29: while the victim terminates, a pod of lower priority than the
   * preemptor (but higher than the victim) arrives; it cannot take the room, not even by preempting the
   * terminating victim itself (its dry run counts the preemptor's nominated room). Another pod's deletion
   * then makes both try again while the victim still terminates: the preemptor is not eligible to preempt
   * again (1.6) and the other pod still finds no room. Once the victim is gone, the preemptor is bound
   * there, and the other pod stays pending.
   */
  @Test
  void the_room_a_preemptor_was_nominated_to_is_not_taken_by_a_lower_priority_pod_while_victims_terminate() {
    node("node-0", "1");
    running("bystander", HIGH, "100m", "node-0", 0);
    running("victim", LOW, "900m", "node-0", 1);
    pending("preemptor", HIGH, "600m");
    var victims = awaitPreemption("preemptor", "node-0", Set.of("victim"));
    var placement = "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod"
        + " on node node-0, preempting 1 victims";
    assertNotes("preemptor", placement, TERMINATING_ON_NOMINATED);

    pending("intruder", BETWEEN, "500m");
    var noRoom = "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1"
        + " Insufficient cpu.";
    assertPendingWith("intruder", noRoom);
    assertNotes("intruder", noRoom);
    assertEquals("", nominated("intruder"));

    admin.pods().inNamespace(namespace).withName("bystander").withGracePeriod(0).delete();
    assertPendingWith("preemptor", TERMINATING_ON_NOMINATED);
    assertEquals("node-0", nominated("preemptor"), "the nomination is kept");
    assertNotes("preemptor", placement, TERMINATING_ON_NOMINATED);
    assertNotes("intruder", noRoom);
    assertEquals("", nodeOf("intruder"));
    assertTrue(terminating("victim"), "the victim is still terminating");
    assertEquals(Set.of("victim"), preemptedPods(), "nothing else evicted");

    kubeletFinishes(victims);
    eventually(SOON, "preemptor bound to node-0", () -> "node-0".equals(nodeOf("preemptor")));
    var noVictims = "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No"
        + " preemption victims found for incoming pod.";
    assertPendingWith("intruder", noVictims);
    assertNotes("intruder", noRoom, noVictims);
    assertEquals("", nodeOf("intruder"));
    assertEquals(Set.of("victim"), preemptedPods());
    logMessages("preemptor", "intruder");
  }

  // ---------------------------------------------------------------- (f) no node can make room

  /**
   * 1.8 and 1.21: only nodes whose rejection preemption could resolve are tried. node-0's victim is not
   * enough (a more important pod stays); node-1 is cordoned; node-2 is smaller than the pod (a request above
   * allocatable is unresolvable). Nothing is evicted, nothing nominated, and the message counts the other two
   * as not helpful.
   */
  @Test
  void when_no_node_can_make_room_nothing_is_evicted_and_the_message_says_why() {
    node("node-0", "1");
    node("node-1", "1");
    admin.nodes().withName("node-1").edit(n -> new NodeBuilder(n).editSpec().withUnschedulable(true).endSpec().build());
    node("node-2", "500m");
    running("keeper", HIGH, "500m", "node-0", 0);
    running("low", LOW, "500m", "node-0", 1);
    pending("preemptor", HIGH, "1");

    var expected = "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes"
        + " are available: 1 Insufficient cpu, 2 Preemption is not helpful for scheduling.";
    staysPendingWithoutPreempting("preemptor", expected, "node-0", "keeper", "low");
  }

  // ---------------------------------------------------------------- (g) a higher preemptor takes over

  /**
   * 1.26 (kube's TestPreemption "lower priority nominated pod"): a pod nominated to node-0 whose victim still
   * terminates loses its nomination when a more important pod preempts on the same node (the nominated
   * pod's room is not held against a higher priority, 1.23). The second preemptor counts the terminating
   * victim among its own and deletes only the other one; once both are gone it is bound, and the first stays
   * pending without evicting anything more.
   */
  @Test
  void a_higher_priority_preemptor_clears_the_nomination_of_a_lower_one_on_the_same_node() {
    node("node-0", "1");
    running("victim-a", LOW, "500m", "node-0", 0);
    running("victim-b", LOW, "500m", "node-0", 1);
    pending("first", BETWEEN, "500m");
    awaitPreemption("first", "node-0", Set.of("victim-b"));

    pending("second", HIGH, "1");
    eventually(SOON, "second nominated to node-0 and victim-a terminating",
        () -> "node-0".equals(nominated("second")) && terminating("victim-a"));
    eventually(SOON, "first's nomination cleared", () -> nominated("first").isEmpty());
    assertPreemptedByScheduler("victim-a");
    assertPreemptedEvents(Set.of("victim-a"), "second", "node-0");
    assertEquals(Set.of("victim-a", "victim-b"), preemptedPods());
    var placement = "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod"
        + " on node node-0, preempting 2 victims";
    assertPendingWith("second", placement, TERMINATING_ON_NOMINATED);
    assertNotes("second", placement, TERMINATING_ON_NOMINATED);

    kubeletFinishes(Set.of("victim-a", "victim-b"));
    eventually(SOON, "second bound to node-0", () -> "node-0".equals(nodeOf("second")));
    assertPendingWith("first", "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1"
        + " No preemption victims found for incoming pod.");
    assertEquals("", nodeOf("first"));
    assertEquals(Set.of("victim-a", "victim-b"), preemptedPods());
    logMessages("first", "second");
  }

  // ---------------------------------------------------------------- waiting and asserting

  /**
   * Waits until the preemptor is nominated to {@code node} and each of {@code victims} is terminating, then
   * asserts that they, and only they, were preempted by the scheduler, with the Preempted event.
   *
   * @return the victims
   */
  private Set<String> awaitPreemption(String preemptor, String node, Set<String> victims) {
    eventually(SOON, preemptor + " nominated to " + node + " and " + victims + " terminating",
        () -> node.equals(nominated(preemptor)) && victims.stream().allMatch(this::terminating));
    assertEquals("", nodeOf(preemptor), "not bound while the victims terminate");
    victims.forEach(this::assertPreemptedByScheduler);
    assertPreemptedEvents(victims, preemptor, node);
    assertEquals(victims, preemptedPods());
    return victims;
  }

  /**
   * The preemptor preempts exactly {@code victims} on {@code node} ({@link #awaitPreemption}), is pending with
   * {@code placement} as its condition message and first FailedScheduling note ({@code terminating} allowed
   * after it, see {@link #assertPendingWith} and {@link #assertNotes}), and is bound to {@code node} once the
   * kubelet has finished the victims.
   *
   * @return the victims, deleted
   */
  private Set<String> preemptsThenIsBound(
      String preemptor, String node, Set<String> victims, String placement, String terminating) {
    awaitPreemption(preemptor, node, victims);
    assertPendingWith(preemptor, placement, terminating);
    assertNotes(preemptor, placement, terminating);
    kubeletFinishes(victims);
    eventually(SOON, preemptor + " bound to " + node, () -> node.equals(nodeOf(preemptor)));
    return victims;
  }

  /**
   * The pod is pending with {@code message} as its condition message and only FailedScheduling note, and
   * nominated nowhere; each of {@code others} is still on {@code node}, untouched, and no pod was preempted.
   */
  private void staysPendingWithoutPreempting(String pod, String message, String node, String... others) {
    assertPendingWith(pod, message);
    assertNotes(pod, message);
    assertEquals("", nominated(pod));
    for (var other : others) {
      assertUntouched(other, node);
    }
    assertTrue(preemptedEvents().isEmpty(), "Preempted events: " + preemptedEvents());
  }

  /** Waits for a Preempted event about each victim and asserts it names the preemptor and the node. */
  private void assertPreemptedEvents(Set<String> victims, String preemptor, String node) {
    var uid = pod(preemptor).getMetadata().getUid();
    eventually(SOON, "a Preempted event about each of " + victims, () -> preemptedPods().containsAll(victims));
    for (var event : preemptedEvents()) {
      if (!victims.contains(event.getRegarding().getName())) {
        continue;
      }
      assertEquals("Normal", event.getType());
      assertEquals("Preempting", event.getAction());
      assertEquals("Preempted by pod " + uid + " on node " + node, event.getNote());
      if (preemptedEventNamesPreemptor()) {
        assertNotNull(event.getRelated(), "related object of " + event);
        assertEquals("Pod", event.getRelated().getKind());
        assertEquals(preemptor, event.getRelated().getName());
        assertEquals(uid, event.getRelated().getUid());
      } else {
        assertNull(event.getRelated(), "related object of " + event);
      }
    }
  }

  private void assertPreemptedByScheduler(String victim) {
    var condition = condition(pod(victim), "DisruptionTarget").orElse(null);
    assertNotNull(condition, victim + " has no DisruptionTarget condition");
    assertEquals("True", condition.getStatus());
    assertEquals("PreemptionByScheduler", condition.getReason());
    assertEquals(1L, condition.getObservedGeneration(),
        victim + "'s generation when it was marked (its graceful deletion made it 2)");
    assertEquals(schedulerName() + ": preempting to accommodate a higher priority pod", condition.getMessage());
    assertEquals(30L, pod(victim).getMetadata().getDeletionGracePeriodSeconds(),
        victim + " deleted with its default grace period");
    // The condition joins the status the victim had (running() wrote it, as a kubelet would), which stays.
    var status = pod(victim).getStatus();
    assertEquals("Running", status.getPhase(), victim + "'s phase; its status: " + status);
    assertNotNull(status.getStartTime(), victim + "'s start time; its status: " + status);
  }

  private void assertUntouched(String name, String node) {
    var pod = pod(name);
    assertNull(pod.getMetadata().getDeletionTimestamp(), name + " is being deleted");
    assertEquals(node, pod.getSpec().getNodeName());
    assertTrue(condition(pod, "DisruptionTarget").isEmpty(), name + " has a DisruptionTarget condition");
  }

  /** The victims are gone (the test deleted them), every other pod is as it was, no one else was preempted. */
  private void assertOnlyVictimsTouched(Set<String> victims, List<String> others) {
    victims.forEach(v -> assertNull(admin.pods().inNamespace(namespace).withName(v).get(), v + " still exists"));
    others.forEach(o -> assertUntouched(o, nodeOf(o)));
    others.forEach(o -> assertFalse(nodeOf(o).isEmpty(), o + " lost its node"));
    assertEquals(victims, preemptedPods());
  }

  /**
   * Waits until the pod is pending with {@code PodScheduled=False}, reason Unschedulable, and this message,
   * or one of {@code orLater} (the condition always has the latest attempt's message, and a preemptor may be
   * tried again while its victims terminate, whatever moved it).
   */
  private void assertPendingWith(String pod, String message, String... orLater) {
    var accepted = new TreeSet<>(List.of(orLater));
    accepted.add(message);
    if (!waitUpTo(SOON, () -> podScheduled(pod).map(c -> accepted.contains(c.getMessage())).orElse(false))) {
      fail("the PodScheduled condition of " + pod + " never said: " + accepted + "; it is " + podScheduled(pod)
          + "; its FailedScheduling notes: " + failedSchedulingNotes(pod) + "; the pods: " + summary());
    }
    var condition = podScheduled(pod).orElseThrow();
    assertEquals("False", condition.getStatus());
    assertEquals("Unschedulable", condition.getReason());
  }

  /**
   * Waits for the pod's first FailedScheduling event and asserts its note is {@code first} and every later
   * note one of {@code later}. Only the first is certain: kube-scheduler's event recorder folds an event into
   * the series of an earlier one about the same pod version (the pod's resourceVersion is part of the key,
   * the note is not), so a later attempt's note may never be written; the condition has it.
   */
  private void assertNotes(String pod, String first, String... later) {
    eventually(SOON, "a FailedScheduling event about " + pod, () -> !failedSchedulingNotes(pod).isEmpty());
    var notes = failedSchedulingNotes(pod);
    assertEquals(first, notes.get(0), pod + "'s first FailedScheduling note; all: " + notes);
    var allowed = new TreeSet<>(List.of(later));
    allowed.add(first);
    notes.forEach(n -> assertTrue(allowed.contains(n), pod + "'s FailedScheduling note " + n + "; allowed: "
        + allowed));
  }

  /** @return each pod of the test: name, node, nomination, terminating or not, for failure messages */
  private List<String> summary() {
    return admin.pods().inNamespace(namespace).list().getItems().stream()
        .map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName() + "/nominated="
            + (p.getStatus() == null ? null : p.getStatus().getNominatedNodeName())
            + (p.getMetadata().getDeletionTimestamp() == null ? "" : "/terminating"))
        .toList();
  }

  /** Plays the kubelet: the terminating victims' containers have stopped; their pods go away. */
  private void kubeletFinishes(Set<String> victims) {
    for (var victim : victims) {
      assertTrue(terminating(victim), victim + " is terminating");
      admin.pods().inNamespace(namespace).withName(victim).withGracePeriod(0).delete();
    }
  }

  private void logMessages(String... pods) {
    for (var pod : pods) {
      LOG.info("{} {}: FailedScheduling notes {}; PodScheduled {}; node \"{}\"; nominatedNodeName \"{}\"",
          schedulerName(), pod, failedSchedulingNotes(pod),
          podScheduled(pod).map(c -> c.getStatus() + " " + c.getReason() + " " + c.getMessage()), nodeOf(pod),
          nominated(pod));
    }
  }

  // ---------------------------------------------------------------- reading the cluster

  private Pod pod(String name) {
    var pod = admin.pods().inNamespace(namespace).withName(name).get();
    assertNotNull(pod, name + " does not exist");
    return pod;
  }

  private boolean terminating(String name) {
    var pod = admin.pods().inNamespace(namespace).withName(name).get();
    return pod != null && pod.getMetadata().getDeletionTimestamp() != null;
  }

  /** @return the pod's {@code status.nominatedNodeName}, "" if none */
  private String nominated(String name) {
    var pod = admin.pods().inNamespace(namespace).withName(name).get();
    var node = pod == null || pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
    return node == null ? "" : node;
  }

  private static Optional<PodCondition> condition(Pod pod, String type) {
    return pod.getStatus() == null || pod.getStatus().getConditions() == null
        ? Optional.empty()
        : pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** @return the notes of the pod's FailedScheduling events, oldest first, each once */
  private List<String> failedSchedulingNotes(String pod) {
    var notes = new ArrayList<String>();
    eventsAbout(pod).stream()
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .sorted(Comparator.comparing((Event e) -> e.getMetadata().getCreationTimestamp()))
        .map(Event::getNote)
        .filter(n -> !notes.contains(n))
        .forEach(notes::add);
    return notes;
  }

  private List<Event> preemptedEvents() {
    return admin.events().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> "Preempted".equals(e.getReason()))
        .toList();
  }

  /** @return the names of the pods a Preempted event is about */
  private Set<String> preemptedPods() {
    var pods = new TreeSet<String>();
    preemptedEvents().forEach(e -> pods.add(e.getRegarding().getName()));
    return pods;
  }

  // ---------------------------------------------------------------- building the cluster

  private void node(String name, String cpu) {
    createReady(FakeClusterFixture.node(name, cpu, "8Gi", "110"));
  }

  /** A pending pod for the scheduler under test. */
  private void pending(String name, String priorityClass, String cpu) {
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, name, schedulerName(), cpu, "64Mi"))
        .editSpec().withPriorityClassName(priorityClass).endSpec()
        .build());
  }

  /**
   * A pod already on {@code node}, running since {@code T0 + order} seconds (so it is more important than the
   * pods of its priority with a higher {@code order}).
   */
  private void running(String name, String priorityClass, String cpu, String node, int order) {
    running(name, priorityClass, cpu, node, order, Map.of(), false);
  }

  /** A pod of {@value #LOW} priority with the label {@code app: guarded}, Ready, filling a 1-CPU node. */
  private void guarded(String name, String node) {
    running(name, LOW, "1", node, 0, Map.of("app", "guarded"), true);
  }

  private void running(String name, String priorityClass, String cpu, String node, int order,
      Map<String, String> labels, boolean ready) {
    create(admin, new PodBuilder(FakeClusterFixture.pod(namespace, name, "nobody", cpu, "64Mi"))
        .editMetadata().withLabels(labels).endMetadata()
        .editSpec().withNodeName(node).withPriorityClassName(priorityClass).endSpec()
        .build());
    var current = pod(name);
    var status = new PodBuilder(current).editOrNewStatus()
        .withPhase("Running")
        .withStartTime(T0.plusSeconds(order).toString());
    if (ready) {
      status.addNewCondition().withType("Ready").withStatus("True").endCondition();
    }
    admin.pods().inNamespace(namespace).resource(status.endStatus().build()).updateStatus();
  }

  /**
   * A budget over {@code app: guarded} with {@code minAvailable}; returns once the disruption controller has
   * written the expected {@code disruptionsAllowed}.
   */
  private void budget(String name, int minAvailable, int expectAllowed) {
    admin.policy().v1().podDisruptionBudget().inNamespace(namespace).resource(new PodDisruptionBudgetBuilder()
            .withNewMetadata().withName(name).endMetadata()
            .withNewSpec()
            .withMinAvailable(new IntOrString(minAvailable))
            .withNewSelector().withMatchLabels(Map.of("app", "guarded")).endSelector()
            .endSpec()
            .build())
        .create();
    eventually(SOON, "the disruption controller computed " + name + "'s status", () -> {
      PodDisruptionBudget current =
          admin.policy().v1().podDisruptionBudget().inNamespace(namespace).withName(name).get();
      return current.getStatus() != null
          && current.getStatus().getCurrentHealthy() != null
          && current.getStatus().getCurrentHealthy() == 1
          && current.getStatus().getDisruptionsAllowed() != null
          && current.getStatus().getDisruptionsAllowed() == expectAllowed;
    });
  }
}
