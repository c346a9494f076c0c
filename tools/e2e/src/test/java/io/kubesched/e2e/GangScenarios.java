package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGroup;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.facade.Options;
import io.kubesched.policy.DefaultPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gang scheduling on a real API server (issue 15): pod groups placed all together or not at all, for one group
 * source ({@link #source()}). A subclass names the scheduler under test and starts it for each test: {@link
 * GangIT} and {@link GangCoschedulingIT} run this library's scheduler on the Workload API's and on the
 * coscheduling plugin's PodGroups, {@link GangKubeSchedulerIT} runs kube-scheduler 1.37.2 with the {@code
 * GenericWorkload} gate on the Workload API's, the reference that shows the expectations marked "both" are
 * Kubernetes' own behaviour.
 *
 * <p>Every member asks for 1 CPU; nodes have whole CPUs, 8 GiB and 110 pod slots, so a node of {@code n} CPUs
 * holds {@code n} members. All pods of a test are watched from before the first one is created, and every
 * change of a group's bound count is checked ({@link PartialBindings}): a group may be seen partly bound only
 * while its members' bindings are being written, never for longer than {@link #BINDING_WINDOW}, never at the end
 * of a test, and never going from partly bound back to none. Neither scheduler binds a group's members in one
 * write (there is no such API), so a watcher sees them bound one by one: that is not a partial placement.
 *
 * <p>What the scenarios assert about both schedulers ("both"): which pods are bound and which are not at every
 * step; a member of a complete group that does not fit is pending with {@code PodScheduled=False}, reason {@code
 * Unschedulable}, and has a {@code FailedScheduling} event; a member of a group waiting for members has neither
 * (kube's PreEnqueue gate and this library's waiting room never attempt it); the group object's {@code
 * PodGroupInitiallyScheduled} condition (False with reason {@code Unschedulable} after a failed attempt, True with
 * reason {@code Scheduled} once placed).
 *
 * <p>What only this library's scheduler is held to ("ours", run only where {@link #ours()}): the timeout (a
 * {@code Warning} event with reason {@code FailedScheduling} and a note saying {@code timed out} regarding the
 * group object, and the condition's reason {@code Timeout}: kube-scheduler has no group timeout besides its
 * 5-minute Permit wait, which a group placed in one cycle never reaches); a {@code FailedScheduling} event
 * regarding the group object after a failed attempt (kube-scheduler writes only the condition and the members'
 * events); and the coscheduling status ({@code status.phase} {@code Scheduled} and {@code status.scheduled} once
 * placed), which kube-scheduler does not know. Messages are logged, not compared: kube's group message depends
 * on where its member loop stopped and on its group preemption's note.
 */
abstract class GangScenarios extends RealClusterTest {

  /** Long enough for any attempt, backoff and write of either scheduler; never waited for in full on success. */
  static final Duration SOON = Duration.ofSeconds(30);
  /** How long a scenario watches a state that must not change (nothing bound, a group waiting). */
  static final Duration SETTLE = Duration.ofSeconds(4);
  /** How long a group may be seen partly bound while its members' bindings are written one by one. */
  static final Duration BINDING_WINDOW = Duration.ofSeconds(10);
  /** The group timeout of the timeout scenario: this library's {@code podGroupTimeout}, or the group's own. */
  static final Duration SHORT_TIMEOUT = Duration.ofSeconds(2);

  static final String INITIALLY_SCHEDULED = "PodGroupInitiallyScheduled";

  private static final Logger LOG = LoggerFactory.getLogger(GangScenarios.class);

  private @Nullable AutoCloseable scheduler;
  private @Nullable Watch podWatch;
  private PartialBindings partial = new PartialBindings();

  /** @return where the groups come from: the group objects' API and how pods name their group */
  abstract PodGroupRef.Source source();

  /** @return the {@code spec.schedulerName} the scheduler under test serves */
  abstract String schedulerName();

  /** @return whether the scheduler under test is this library's: the assertions marked "ours" run only then */
  abstract boolean ours();

  /**
   * Starts the scheduler under test for one test, after the namespace exists and before any node or pod;
   * closed after the test, before its pods are deleted.
   *
   * @param groupTimeout for this library's scheduler, its {@code podGroupTimeout} (how long a complete group may
   *     go unplaced before it is reported); kube-scheduler has no such setting
   */
  abstract AutoCloseable startScheduler(Duration groupTimeout) throws Exception;

  @BeforeEach
  void watchPods() {
    partial = new PartialBindings();
    podWatch = admin.pods().inNamespace(namespace).watch(partial);
  }

  @AfterEach
  void stop() throws Exception {
    try {
      if (podWatch != null) {
        podWatch.close();
        podWatch = null;
      }
    } finally {
      if (scheduler != null) {
        scheduler.close();
        scheduler = null;
      }
    }
  }

  // ---------------------------------------------------------------- the scenarios

  /**
   * Two groups of 6 whose members arrive interleaved on a cluster with room for 8: exactly one group is bound
   * whole and the other not at all (kube's and coscheduling's #114 deadlock was two groups each holding part of
   * the room); the other waits, each member unschedulable, until the first group's pods are gone, and is then
   * bound whole.
   */
  @Test
  void of_two_groups_that_fit_only_one_at_a_time_one_is_bound_whole_and_the_other_waits_until_room_is_freed()
      throws Exception {
    start(Options.DEFAULT_POD_GROUP_TIMEOUT);
    node("node-0", 4);
    node("node-1", 4);
    group("ga", 6, null);
    group("gb", 6, null);
    for (int i = 0; i < 6; i++) {
      member("ga", i);
      member("gb", i);
    }

    eventually(SOON, "one of the groups bound whole: " + summary(), () -> bound("ga") == 6 || bound("gb") == 6);
    var winner = bound("ga") == 6 ? "ga" : "gb";
    var loser = winner.equals("ga") ? "gb" : "ga";
    for (var pod : members(loser)) {
      assertUnschedulable(pod);
    }
    assertGroupCondition(loser, "False", "Unschedulable");
    assertGroupCondition(winner, "True", "Scheduled");
    assertStaysUnbound(loser);
    assertEquals(6, bound(winner));
    if (ours()) {
      assertGroupEvent(loser, "FailedScheduling", "");
      if (source() == PodGroupRef.Source.COSCHEDULING) {
        assertCoschedulingStatus(winner, 6);
      }
    }
    logMessages(winner, loser);

    partial.retire(winner); // its pods go away one by one
    admin.pods().inNamespace(namespace).withLabel(GROUP_LABEL, winner).withGracePeriod(0).delete();
    eventually(SOON, loser + " bound whole once " + winner + "'s pods are gone: " + summary(), () -> bound(loser) == 6);
    assertGroupCondition(loser, "True", "Scheduled");
    if (ours() && source() == PodGroupRef.Source.COSCHEDULING) {
      assertCoschedulingStatus(loser, 6);
    }
    partial.assertNeverPartial();
  }

  /**
   * A group of 4 on a node with room for 8 whose last member arrives late: while 3 exist nothing is bound and
   * nothing is attempted (no FailedScheduling, no PodScheduled condition); once the fourth arrives all four are
   * bound.
   */
  @Test
  void a_group_waits_unattempted_until_its_last_member_arrives_and_is_then_bound_whole() throws Exception {
    start(Options.DEFAULT_POD_GROUP_TIMEOUT);
    node("node-0", 8);
    group("late", 4, null);
    for (int i = 0; i < 3; i++) {
      member("late", i);
    }

    assertStaysUnbound("late");
    for (var pod : members("late")) {
      assertTrue(podScheduled(pod).isEmpty(), pod + " was attempted while its group waits for members: "
          + podScheduled(pod));
      assertTrue(failedScheduling(pod).isEmpty(), pod + "'s FailedScheduling notes: " + failedScheduling(pod));
    }

    member("late", 3);
    eventually(SOON, "the group bound whole once its last member exists: " + summary(), () -> bound("late") == 4);
    assertGroupCondition("late", "True", "Scheduled");
    if (ours() && source() == PodGroupRef.Source.COSCHEDULING) {
      assertCoschedulingStatus("late", 4);
    }
    logMessages("late");
    partial.assertNeverPartial();
  }

  /**
   * A complete group of 9 on a cluster with room for 8: nothing is bound, though 8 members would fit; every
   * member is unschedulable and the group object says so. Ours: after the group timeout, a {@code Warning
   * FailedScheduling} event regarding the group object says it timed out, and the condition's reason is {@code
   * Timeout}; the group keeps waiting.
   */
  @Test
  void a_group_larger_than_the_cluster_has_nothing_bound_and_reports_its_timeout() throws Exception {
    // The Workload API has no timeout of its own: the scheduler's applies. A coscheduling group has its own
    // scheduleTimeoutSeconds, which must win over the scheduler's default.
    start(source() == PodGroupRef.Source.WORKLOAD_API ? SHORT_TIMEOUT : Options.DEFAULT_POD_GROUP_TIMEOUT);
    node("node-0", 4);
    node("node-1", 4);
    group("big", 9, (int) SHORT_TIMEOUT.toSeconds());
    for (int i = 0; i < 9; i++) {
      member("big", i);
    }

    for (var pod : members("big")) {
      assertUnschedulable(pod);
    }
    if (ours()) {
      assertGroupEvent("big", "FailedScheduling", "timed out");
      assertGroupCondition("big", "False", "Timeout");
    } else {
      assertGroupCondition("big", "False", "Unschedulable");
    }
    assertStaysUnbound("big");
    logMessages("big");
    partial.assertNeverPartial();
  }

  /**
   * A group of 4 whose members exist but do not fit (room for 3; none is bound, though 3 would fit) loses a
   * member; then room for all appears. With 3 members the group is back to waiting for members: nothing is
   * bound, in particular not the 3 that fit now (a scheduler that still counted the deleted member would try to
   * place it too, fail to bind it and leave 3 bound). A replacement member arrives and the 4 are bound.
   */
  @Test
  void a_group_that_loses_a_member_while_it_waits_waits_for_a_replacement_and_is_then_bound_whole()
      throws Exception {
    start(Options.DEFAULT_POD_GROUP_TIMEOUT);
    node("node-0", 3);
    group("g", 4, null);
    for (int i = 0; i < 4; i++) {
      member("g", i);
    }
    for (var pod : members("g")) {
      assertUnschedulable(pod);
    }
    assertGroupCondition("g", "False", "Unschedulable");
    assertEquals(0, bound("g"), () -> "bound: " + summary());

    admin.pods().inNamespace(namespace).withName("g-3").withGracePeriod(0).delete();
    eventually(SOON, "g-3 gone", () -> admin.pods().inNamespace(namespace).withName("g-3").get() == null);
    node("node-1", 4);
    assertStaysUnbound("g");

    member("g", 4);
    eventually(SOON, "the group bound whole with its replacement member: " + summary(), () -> bound("g") == 4);
    assertEquals(List.of("g-0", "g-1", "g-2", "g-4"), members("g"));
    assertGroupCondition("g", "True", "Scheduled");
    if (ours() && source() == PodGroupRef.Source.COSCHEDULING) {
      assertCoschedulingStatus("g", 4);
    }
    logMessages("g");
    partial.assertNeverPartial();
  }

  // ---------------------------------------------------------------- asserting

  private void start(Duration groupTimeout) throws Exception {
    scheduler = startScheduler(groupTimeout);
  }

  /**
   * {@link #startScheduler} for this library's scheduler: a new {@link #client} whose options watch only
   * {@link #source()}'s groups with this group timeout, and a controller of {@link DefaultPolicy} on it.
   */
  AutoCloseable startThisLibrary(Duration groupTimeout) {
    client.close();
    client = Client.create(schedulerOptions()
        .podGroupSources(Set.of(source()))
        .podGroupTimeout(groupTimeout)
        .build());
    Controller controller = client.newPodController(DefaultPolicy.builder().seed(13).build(), recorder);
    controller.start();
    return controller;
  }

  /** The group has no member bound, now and for {@link #SETTLE}. */
  private void assertStaysUnbound(String group) {
    if (waitUpTo(SETTLE, () -> bound(group) > 0)) {
      fail(group + " has members bound: " + summary());
    }
  }

  /** Waits until the pod is pending with {@code PodScheduled=False}, reason Unschedulable, and a FailedScheduling event. */
  private void assertUnschedulable(String pod) {
    eventually(SOON, pod + " is PodScheduled=False/Unschedulable with a FailedScheduling event: "
            + podScheduled(pod) + ", " + failedScheduling(pod),
        () -> podScheduled(pod)
                .map(c -> "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()))
                .orElse(false)
            && !failedScheduling(pod).isEmpty());
    assertEquals("", nodeOf(pod), pod + " is bound");
  }

  /** Waits until the group object's {@value #INITIALLY_SCHEDULED} condition has this status and reason. */
  private void assertGroupCondition(String group, String status, String reason) {
    eventually(SOON, group + "'s " + INITIALLY_SCHEDULED + " condition is " + status + "/" + reason + "; it is "
            + groupCondition(group),
        () -> groupCondition(group)
            .map(c -> status.equals(c.get("status")) && reason.equals(c.get("reason")))
            .orElse(false));
    var condition = groupCondition(group).orElseThrow();
    assertNotNull(condition.get("lastTransitionTime"), "lastTransitionTime of " + condition);
    // 1.37.2's registry gives Workload API PodGroups no metadata.generation: 0, and kube-scheduler's
    // observedGeneration 0 is left out of the JSON. A CRD's objects start at generation 1.
    var generation = groupObject(group).getMetadata().getGeneration();
    assertEquals(generation == null ? 0L : generation,
        condition.get("observedGeneration") instanceof Number n ? n.longValue() : 0L,
        "observedGeneration of " + condition);
  }

  /** Ours: waits for a Warning event regarding the group object with this reason and a note containing {@code text}. */
  private void assertGroupEvent(String group, String reason, String text) {
    eventually(SOON, "a Warning " + reason + " event regarding " + group + " saying '" + text + "'; there are "
            + groupEvents(group).stream().map(e -> e.getType() + " " + e.getReason() + " " + e.getNote()).toList(),
        () -> groupEvents(group).stream().anyMatch(e -> "Warning".equals(e.getType())
            && reason.equals(e.getReason()) && e.getNote() != null && e.getNote().contains(text)));
  }

  /** Ours, coscheduling only: phase {@code Scheduled} and {@code scheduled} as given, once written. */
  private void assertCoschedulingStatus(String group, int scheduled) {
    eventually(SOON, group + "'s status is phase Scheduled with " + scheduled + " scheduled; it is "
            + groupObject(group).getAdditionalProperties().get("status"),
        () -> {
          var status = status(groupObject(group));
          return "Scheduled".equals(status.get("phase"))
              && status.get("scheduled") instanceof Number n && n.intValue() == scheduled;
        });
  }

  /** Logs what each scheduler wrote, for comparing the two by eye (messages are not asserted). */
  private void logMessages(String... groups) {
    for (var group : groups) {
      LOG.info("{} {} {}: condition {}; status {}; events {}", schedulerName(), source(), group,
          groupCondition(group), status(groupObject(group)),
          groupEvents(group).stream().map(e -> e.getType() + " " + e.getReason() + " " + e.getNote()).toList());
      for (var pod : members(group)) {
        LOG.info("{} {}: node \"{}\"; PodScheduled {}; FailedScheduling notes {}", schedulerName(), pod,
            nodeOf(pod), podScheduled(pod).map(c -> c.getStatus() + " " + c.getReason() + " " + c.getMessage()),
            failedScheduling(pod));
      }
    }
  }

  // ---------------------------------------------------------------- building and reading the cluster

  /** Every member also has this label, so a test can select a group's pods whatever the source. */
  private static final String GROUP_LABEL = "e2e-gang";

  private void node(String name, int cpus) {
    createReady(FakeClusterFixture.node(name, Integer.toString(cpus), "8Gi", "110"));
  }

  /**
   * Creates the group object: a Workload API PodGroup with {@code gang.minCount}, or a coscheduling PodGroup
   * with {@code minMember} and, if given, {@code scheduleTimeoutSeconds}.
   */
  private void group(String name, int minMember, @Nullable Integer timeoutSeconds) {
    partial.expect(name, minMember);
    Map<String, Object> spec = new LinkedHashMap<>();
    if (source() == PodGroupRef.Source.WORKLOAD_API) {
      spec.put("schedulingPolicy", Map.of("gang", Map.of("minCount", minMember)));
    } else {
      spec.put("minMember", minMember);
      if (timeoutSeconds != null) {
        spec.put("scheduleTimeoutSeconds", timeoutSeconds);
      }
    }
    groups().resource(new GenericKubernetesResourceBuilder()
            .withApiVersion(source().apiVersion())
            .withKind("PodGroup")
            .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
            .addToAdditionalProperties("spec", spec)
            .build())
        .create();
  }

  /** Creates the member {@code <group>-<index>}, asking for 1 CPU, naming its group as the source says. */
  private void member(String group, int index) {
    var pod = FakeClusterFixture.pod(namespace, group + "-" + index, schedulerName(), "1", "64Mi");
    var labels = new HashMap<String, String>();
    labels.put(GROUP_LABEL, group);
    if (source() == PodGroupRef.Source.WORKLOAD_API) {
      pod.getSpec().setSchedulingGroup(new PodSchedulingGroup(group));
    } else {
      labels.put(SchedulingConstants.POD_GROUP_LABEL, group);
    }
    pod.getMetadata().setLabels(labels);
    create(admin, pod);
  }

  private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> groups() {
    var apiVersion = source().apiVersion();
    var context = new ResourceDefinitionContext.Builder()
        .withGroup(apiVersion.substring(0, apiVersion.indexOf('/')))
        .withVersion(apiVersion.substring(apiVersion.indexOf('/') + 1))
        .withKind("PodGroup")
        .withPlural("podgroups")
        .withNamespaced(true)
        .build();
    return admin.genericKubernetesResources(context).inNamespace(namespace);
  }

  private GenericKubernetesResource groupObject(String group) {
    var object = groups().withName(group).get();
    assertNotNull(object, "PodGroup " + group + " does not exist");
    return object;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(GenericKubernetesResource object) {
    return object.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        ? (Map<String, Object>) status
        : Map.of();
  }

  /** @return the group object's {@value #INITIALLY_SCHEDULED} condition, if it has one */
  @SuppressWarnings("unchecked")
  private Optional<Map<String, Object>> groupCondition(String group) {
    var object = groups().withName(group).get();
    if (object == null || !(status(object).get("conditions") instanceof List<?> conditions)) {
      return Optional.empty();
    }
    return conditions.stream()
        .map(c -> (Map<String, Object>) c)
        .filter(c -> INITIALLY_SCHEDULED.equals(c.get("type")))
        .findFirst();
  }

  /** @return the events of this test's namespace regarding the group object (kind PodGroup of the source's API) */
  private List<Event> groupEvents(String group) {
    return admin.events().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> e.getRegarding() != null
            && "PodGroup".equals(e.getRegarding().getKind())
            && source().apiVersion().equals(e.getRegarding().getApiVersion())
            && group.equals(e.getRegarding().getName()))
        .toList();
  }

  /** @return the notes of the pod's FailedScheduling events, oldest first, each once */
  private List<String> failedScheduling(String pod) {
    var notes = new ArrayList<String>();
    eventsAbout(pod).stream()
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .sorted(Comparator.comparing((Event e) -> e.getMetadata().getCreationTimestamp()))
        .map(Event::getNote)
        .filter(n -> !notes.contains(n))
        .forEach(notes::add);
    return notes;
  }

  /** @return the names of the group's members that exist, sorted */
  private List<String> members(String group) {
    return admin.pods().inNamespace(namespace).withLabel(GROUP_LABEL, group).list().getItems().stream()
        .map(p -> p.getMetadata().getName())
        .sorted()
        .toList();
  }

  /** @return how many of the group's members are bound */
  private int bound(String group) {
    return (int) admin.pods().inNamespace(namespace).withLabel(GROUP_LABEL, group).list().getItems().stream()
        .filter(p -> p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty())
        .count();
  }

  /** @return each pod of the test with its node, for failure messages */
  private List<String> summary() {
    return admin.pods().inNamespace(namespace).list().getItems().stream()
        .map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName())
        .sorted()
        .toList();
  }

  /**
   * Watches the test's pods and checks, at every change, each expected group's bound count: a group seen with
   * some but fewer than its minimum members bound is "partly bound"; that must end within {@link
   * #BINDING_WINDOW} with at least the minimum bound, never with none (unless the test {@linkplain #retire retired}
   * the group before deleting its pods). Events arrive on fabric8's watch thread; the test thread asks.
   */
  static final class PartialBindings implements Watcher<Pod> {

    private final Map<String, Integer> minMembers = new HashMap<>(); // guarded by this
    private final Map<String, Set<String>> bound = new HashMap<>(); // guarded by this
    private final Map<String, Long> partlySince = new HashMap<>(); // guarded by this
    private final Set<String> retired = new TreeSet<>(); // guarded by this
    private final List<String> violations = new ArrayList<>(); // guarded by this
    private long longestPartlyBoundNanos; // guarded by this

    synchronized void expect(String group, int minMember) {
      minMembers.put(group, minMember);
    }

    /** Stops checking the group: the test is about to delete its pods. */
    synchronized void retire(String group) {
      retired.add(group);
      partlySince.remove(group);
    }

    @Override
    public synchronized void eventReceived(Action action, Pod pod) {
      var labels = pod.getMetadata().getLabels();
      var group = labels == null ? null : labels.get(GROUP_LABEL);
      if (group == null || retired.contains(group) || !minMembers.containsKey(group)) {
        return;
      }
      var name = pod.getMetadata().getName();
      var members = bound.computeIfAbsent(group, g -> new TreeSet<>());
      var node = pod.getSpec().getNodeName();
      if (action != Action.DELETED && node != null && !node.isEmpty()) {
        members.add(name);
      } else {
        members.remove(name);
      }
      int count = members.size();
      int min = minMembers.get(group);
      long now = System.nanoTime();
      if (count > 0 && count < min) {
        partlySince.putIfAbsent(group, now);
        return;
      }
      var since = partlySince.remove(group);
      if (since != null) {
        longestPartlyBoundNanos = Math.max(longestPartlyBoundNanos, now - since);
        if (count == 0) {
          violations.add(group + " went from partly bound back to none (" + name + " " + action + ")");
        }
        if (now - since > BINDING_WINDOW.toNanos()) {
          violations.add(group + " was partly bound for " + Duration.ofNanos(now - since) + " before " + count
              + " of " + min + " were bound");
        }
      }
    }

    @Override
    public synchronized void onClose(WatcherException cause) {
      violations.add("the pod watch closed: " + cause);
    }

    /** Fails if a group was partly bound for too long, lost its members, or is partly bound now. */
    synchronized void assertNeverPartial() {
      var now = System.nanoTime();
      var found = new ArrayList<>(violations);
      partlySince.forEach((group, since) -> found.add(group + " is partly bound (" + bound.get(group) + " of "
          + minMembers.get(group) + ") since " + Duration.ofNanos(now - since)));
      assertTrue(found.isEmpty(), String.join("; ", found));
      LOG.info("longest partly bound episode: {}", Duration.ofNanos(longestPartlyBoundNanos));
    }
  }
}
