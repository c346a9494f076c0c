package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link SchedulerCache#placedMembers}: the first tests port kube-scheduler v1.37's {@code
 * backend/cache/podgroupstate_test.go} counts ({@code ScheduledPodsCount}: assumed plus bound members) under
 * the Go test's name, the others walk each way a member enters or leaves the cache. kube also counts the
 * unscheduled members it knows ({@code AllPodsCount}); here those are the queue's.
 */
class SchedulerCachePodGroupTest {

  private static final PodGroupRef PG1 = new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "ns1", "pg1");
  private static final Duration TTL = Duration.ofSeconds(30);

  private final FakeTicker ticker = new FakeTicker();
  private final SchedulerCache cache = new SchedulerCache(ticker, TTL);

  private static PodInfo member(String name, @Nullable PodGroupRef group, String node) {
    return PodInfo.builder("ns1", name).uid(name).nodeName(node).podGroup(group).build();
  }

  @Test
  void TestPodGroupState_AssumeForget() {
    var pod = member("p1", PG1, "");
    assertEquals(0, cache.placedMembers(PG1), "not counted before it is assumed");

    cache.assume(pod, "node1");
    assertEquals(1, cache.placedMembers(PG1), "counted once assumed");

    assertTrue(cache.forget(pod.uid()));
    assertEquals(0, cache.placedMembers(PG1), "not counted once forgotten");
  }

  @Test
  void TestPodGroupState_PodCounts() {
    var p1 = member("p1", PG1, "");
    var p2 = member("p2", PG1, "");
    var p3 = member("p3", PG1, "node1");
    cache.putNode(NodeInfo.builder("node1").build());
    assertEquals(0, cache.placedMembers(PG1));

    cache.putPod(p3);
    assertEquals(1, cache.placedMembers(PG1), "a bound member counts");

    cache.assume(p1, "node1");
    assertEquals(2, cache.placedMembers(PG1), "assuming a member counts it");

    assertThrows(IllegalStateException.class, () -> cache.assume(p3, "node1"));
    assertEquals(2, cache.placedMembers(PG1), "assuming a member already bound changes nothing");

    assertFalse(cache.forget(p3.uid()));
    assertEquals(2, cache.placedMembers(PG1), "forgetting a bound member changes nothing");

    assertTrue(cache.forget(p1.uid()));
    assertEquals(1, cache.placedMembers(PG1), "forgetting an assumed member uncounts it");

    assertFalse(cache.forget(p1.uid()));
    assertEquals(1, cache.placedMembers(PG1), "forgetting a member not assumed changes nothing");

    cache.assume(p2, "node1");
    assertEquals(2, cache.placedMembers(PG1), "assuming another member counts it");

    assertFalse(cache.forget("p4"));
    assertEquals(2, cache.placedMembers(PG1), "forgetting an unknown pod changes nothing");
  }

  @Test
  void TestPodGroupState_ScheduledPods() {
    cache.putPod(member("p3", PG1, "node1"));
    cache.assume(member("p2", PG1, ""), "node2");

    assertEquals(2, cache.placedMembers(PG1), "the assigned and the assumed member, not the unscheduled one");
  }

  @Test
  void confirming_an_assumed_member_keeps_counting_it_once() {
    cache.assume(member("p1", PG1, ""), "node1");
    cache.putPod(member("p1", PG1, "node1"));

    assertEquals(1, cache.placedMembers(PG1));
    assertTrue(cache.removePod("p1"));
    assertEquals(0, cache.placedMembers(PG1), "a removed member is not placed");
  }

  @Test
  void an_expired_assumption_is_no_longer_placed() {
    cache.assume(member("p1", PG1, ""), "node1");
    cache.finishBinding("p1");
    ticker.advance(TTL.plusNanos(1));

    assertEquals(1, cache.expire().size());
    assertEquals(0, cache.placedMembers(PG1));
  }

  @Test
  void retain_only_drops_bound_members_not_listed_and_keeps_assumed_ones() {
    cache.putPod(member("gone", PG1, "node1"));
    cache.putPod(member("listed", PG1, "node1"));
    cache.assume(member("assumed", PG1, ""), "node1");

    cache.retainOnly(Set.of("node1"), Set.of("listed"));

    assertEquals(2, cache.placedMembers(PG1));
  }

  @Test
  void a_member_put_again_in_another_group_moves_its_count() {
    var other = new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "ns1", "pg1");
    cache.putPod(member("p1", PG1, "node1"));
    cache.putPod(member("p1", other, "node1"));

    assertEquals(0, cache.placedMembers(PG1));
    assertEquals(1, cache.placedMembers(other), "a group of the same name from the other source is another group");

    cache.putPod(member("p1", null, "node1"));
    assertEquals(0, cache.placedMembers(other), "a pod that left its group is no member");
  }
}
