package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindOutcome;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.report.GroupReportPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Replacing a profile's policy in the loop's parts, without an API server: the next attempt uses the new
 * policy, an attempt in flight (a pod's or a pod group's) finishes with the one it began with, the pods the old
 * policy found no node for are tried again, and a replacement the loop cannot honour is refused with the old
 * policy kept.
 */
class PolicyReplacementLoopTest {

  private static final String NAME = "my-scheduler";

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  /** Each binding written, as "pod to node", in order. */
  private final List<String> binds = new ArrayList<>();
  /** Each attempt's metric, as "profile result". */
  private final List<String> attempts = new ArrayList<>();
  private final Map<PodGroupRef, PodGroup> groups = new ConcurrentHashMap<>();

  private LoopParts parts(FinderFunc first) {
    BindPort port =
        (pod, nodeName) -> {
          binds.add(pod.getMetadata().getName() + " to " + nodeName);
          return new BindOutcome.Bound(nodeName, false);
        };
    var metrics =
        new SchedulerMetrics() {
          @Override
          public void attempt(String profile, Result result, Duration took) {
            attempts.add(profile + " " + result);
          }
        };
    var parts =
        FakeLoop.of(TestSettings.forFakeCluster(NAME), first, clock::get, port)
            .metrics(metrics)
            .groups(GroupFixtures.lookup(groups, () -> true), GroupReportPort.NONE)
            .create();
    parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n1"));
    parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n2"));
    return parts;
  }

  /** @return a policy that places every pod on {@code node} and finds no node where there is none of that name */
  static FinderFunc only(String node) {
    return new FinderFunc() {
      @Override
      public Decision find(PodInfo pod, List<NodeInfo> nodes) {
        var reasons = new TreeMap<String, List<String>>();
        for (var n : nodes) {
          if (n.name().equals(node)) {
            return Decision.bind(node);
          }
          reasons.put(n.name(), List.of("not " + node));
        }
        return Decision.unschedulable(reasons);
      }

      @Override
      public String toString() {
        return "only " + node;
      }
    };
  }

  /** @return {@code policy}, which first replaces itself by {@code next} in {@code parts}, in its first decision */
  private static FinderFunc replacedDuringItsFirstDecision(FinderFunc policy, LoopParts[] parts, FinderFunc next) {
    var replaced = new boolean[1];
    return (pod, nodes) -> {
      if (!replaced[0]) {
        replaced[0] = true;
        parts[0].replacePolicy(NAME, next);
      }
      return policy.find(pod, nodes);
    };
  }

  private static void add(LoopParts parts, Pod... pods) {
    for (var pod : pods) {
      parts.handlers().pods().onAdd(pod);
    }
  }

  private static void scheduleAll(LoopParts parts) throws InterruptedException {
    for (var item = parts.queue().poll(); item != null; item = parts.queue().poll()) {
      parts.scheduling().scheduleOne(item);
    }
  }

  @Test
  void the_pods_after_a_replacement_are_placed_by_the_new_policy_and_the_bound_ones_stay() throws Exception {
    var parts = parts(only("n1"));
    add(parts, SchedulingLoopPartsTest.pod("p1"));
    scheduleAll(parts);

    parts.replacePolicy(NAME, only("n2"));
    add(parts, SchedulingLoopPartsTest.pod("p2"));
    scheduleAll(parts);

    assertEquals(List.of("p1 to n1", "p2 to n2"), binds);
    assertEquals(List.of(NAME + " SCHEDULED", NAME + " SCHEDULED"), attempts, "metrics per profile go on");
  }

  @Test
  void an_attempt_in_flight_finishes_with_the_policy_it_began_with() throws Exception {
    var holder = new LoopParts[1];
    var parts = parts(replacedDuringItsFirstDecision(only("n1"), holder, only("n2")));
    holder[0] = parts;
    add(parts, SchedulingLoopPartsTest.pod("p1"), SchedulingLoopPartsTest.pod("p2"));

    scheduleAll(parts);

    assertEquals(List.of("p1 to n1", "p2 to n2"), binds);
  }

  @Test
  void a_pod_the_old_policy_found_no_node_for_is_tried_with_the_new_one_without_any_cluster_event()
      throws Exception {
    var parts = parts(only("n3"));
    add(parts, SchedulingLoopPartsTest.pod("p"));
    scheduleAll(parts);
    assertEquals(1, parts.queue().depths().unschedulable());

    parts.replacePolicy(NAME, only("n1"));

    assertEquals(0, parts.queue().depths().unschedulable(), "moved as a cluster event would move it");
    clock.addAndGet(Duration.ofSeconds(2).toNanos()); // past its backoff
    scheduleAll(parts);
    assertEquals(List.of("p to n1"), binds);
  }

  @Test
  void a_pod_the_old_policy_found_no_node_for_while_it_was_replaced_goes_to_backoff_not_to_unschedulable()
      throws Exception {
    var holder = new LoopParts[1];
    var parts = parts(replacedDuringItsFirstDecision(only("n3"), holder, only("n2")));
    holder[0] = parts;
    add(parts, SchedulingLoopPartsTest.pod("p"));

    parts.scheduling().scheduleOne(parts.queue().poll());

    assertEquals(List.of(), binds, "decided by the old policy");
    assertEquals(0, parts.queue().depths().unschedulable());
    assertEquals(1, parts.queue().depths().backoff());
    scheduleAll(parts); // with nothing active, taken from backoff at once (kube's SchedulerPopFromBackoffQ)
    assertEquals(List.of("p to n2"), binds);
  }

  @Test
  void a_pod_group_is_placed_by_the_one_policy_its_attempt_began_with() throws Exception {
    var ref = new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", "g");
    groups.put(ref, PodGroup.of(ref, 2));
    var holder = new LoopParts[1];
    var parts = parts(replacedDuringItsFirstDecision(only("n1"), holder, only("n2")));
    holder[0] = parts;
    add(parts, member("a"), member("b"));

    scheduleAll(parts);

    assertEquals(List.of("a to n1", "b to n1"), binds, "no member placed by the policy that replaced it meanwhile");
  }

  @Test
  void an_unknown_scheduler_name_is_refused_listing_the_profiles_and_nothing_changes() throws Exception {
    var parts = parts(only("n1"));

    var error = assertThrows(ConfigurationException.class, () -> parts.replacePolicy("other", only("n2")));

    assertEquals(
        "schedulerName 'other' is not a profile of this controller; its profiles are [my-scheduler]",
        error.getMessage());
    add(parts, SchedulingLoopPartsTest.pod("p"));
    scheduleAll(parts);
    assertEquals(List.of("p to n1"), binds);
  }

  @Test
  void a_policy_that_reads_what_is_not_watched_is_refused_naming_it_and_the_option_and_nothing_changes()
      throws Exception {
    var parts = parts(only("n1"));
    var readsServices =
        new FinderFunc() {
          @Override
          public Decision find(PodInfo pod, List<NodeInfo> nodes) {
            return Decision.bind("n2");
          }

          @Override
          public Set<ClusterData> reads() {
            return Set.of(ClusterData.SERVICES, ClusterData.NAMESPACES);
          }
        };

    var error = assertThrows(ConfigurationException.class, () -> parts.replacePolicy(NAME, readsServices));

    assertTrue(error.getMessage().contains("reads [NAMESPACES, SERVICES]"), error.getMessage());
    assertTrue(error.getMessage().contains("Options.Builder#watch"), error.getMessage());
    var profile = parts.profiles().get(NAME);
    assertEquals("only n1", profile.finder().toString());
    add(parts, SchedulingLoopPartsTest.pod("p"));
    scheduleAll(parts);
    assertEquals(List.of("p to n1"), binds);
    assertSame(profile, parts.profiles().get(NAME));
  }

  private static Pod member(String name) {
    return new PodBuilder(SchedulingLoopPartsTest.pod(name))
        .editMetadata().addToLabels(SchedulingConstants.POD_GROUP_LABEL, "g").endMetadata()
        .build();
  }
}
