package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ContainerImage;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Examples of {@link SchedulerCache}, most ported from kube-scheduler's {@code backend/cache/cache_test.go}
 * (v1.37.2) and, for assumption expiry which v1.37 no longer has, from the {@code internal/cache} tests of
 * the releases that did.
 */
class SchedulerCacheTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final long MIB = 1024 * 1024;
  private static final String NODE = "node";

  private final FakeTicker ticker = new FakeTicker();
  private final SchedulerCache cache = new SchedulerCache(ticker, TTL);

  /** A pod as the adapter reads it: kube-scheduler's non-zero requests count only CPU and memory. */
  private static PodInfo pod(String name, String node, long milliCpu, long memory, Map<String, Long> ext) {
    return PodInfo.builder("default", name)
        .uid("uid-" + name)
        .nodeName(node)
        .requests(new Resources(milliCpu, memory, 0, 1, ext))
        .nonZeroRequests(
            new Resources(
                milliCpu == 0 ? PodInfo.DEFAULT_MILLI_CPU_REQUEST : milliCpu,
                memory == 0 ? PodInfo.DEFAULT_MEMORY_REQUEST : memory,
                0,
                1,
                Map.of()))
        .build();
  }

  private static PodInfo pod(String name, String node, long milliCpu, long memory) {
    return pod(name, node, milliCpu, memory, Map.of());
  }

  private static NodeInfo node(String name) {
    return NodeInfo.builder(name).allocatable(4000, 8192 * MIB, 110).build();
  }

  private static Resources used(long milliCpu, long memory, long pods) {
    return new Resources(milliCpu, memory, 0, pods, Map.of());
  }

  private Optional<NodeInfo> find(String name) {
    return cache.nodes().stream().filter(n -> n.name().equals(name)).findFirst();
  }

  private NodeInfo get(String name) {
    return find(name).orElseThrow(() -> new AssertionError("node " + name + " not in the snapshot"));
  }

  private static List<String> uids(NodeInfo node) {
    return node.pods().stream().map(PodInfo::uid).toList();
  }

  private static List<String> uids(PodInfo... pods) {
    return Stream.of(pods).map(PodInfo::uid).toList();
  }

  private void assumeAndFinishBinding(PodInfo pod) {
    cache.assume(pod, pod.nodeName());
    assertTrue(cache.finishBinding(pod.uid()));
  }

  // kube: TestAssumePodScheduled
  static Stream<Arguments> assumedPods() {
    var test0 = pod("test-0", NODE, 100, 500);
    var test1 = pod("test-1", NODE, 100, 500);
    var test2 = pod("test-2", NODE, 200, 1024);
    var nonZero = pod("test-nonzero", NODE, 0, 0);
    var ext1 = pod("test-extended-resource-1", NODE, 100, 500, Map.of("example.com/foo", 3L));
    var ext2 = pod("test-extended-resource-2", NODE, 200, 1024, Map.of("example.com/foo", 5L));
    return Stream.of(
        Arguments.of(
            Named.of("one assumed pod counts its requests", List.of(test0)),
            used(100, 500, 1),
            used(100, 500, 1)),
        Arguments.of(
            Named.of("the node's usage is the sum of its assumed pods'", List.of(test1, test2)),
            used(300, 1524, 2),
            used(300, 1524, 2)),
        Arguments.of(
            Named.of("a pod without requests counts the defaults as non-zero usage", List.of(nonZero)),
            used(0, 0, 1),
            used(100, 200 * MIB, 1)),
        Arguments.of(
            Named.of("an extended resource counts", List.of(ext1)),
            new Resources(100, 500, 0, 1, Map.of("example.com/foo", 3L)),
            used(100, 500, 1)),
        Arguments.of(
            Named.of("extended resources add up", List.of(ext1, ext2)),
            new Resources(300, 1524, 0, 2, Map.of("example.com/foo", 8L)),
            used(300, 1524, 2)));
  }

  @ParameterizedTest
  @MethodSource("assumedPods")
  void assumed_pods_count_on_their_node_at_once_and_forgetting_them_undoes_it(
      List<PodInfo> pods, Resources requested, Resources nonZeroRequested) {
    cache.putNode(node(NODE));
    for (var pod : pods) {
      cache.assume(pod, NODE);
      assertThrows(IllegalStateException.class, () -> cache.assume(pod, NODE), "assumed twice");
    }

    var node = get(NODE);
    assertEquals(requested, node.requested());
    assertEquals(nonZeroRequested, node.nonZeroRequested());
    assertEquals(uids(pods.toArray(PodInfo[]::new)), uids(node));

    for (var pod : pods) {
      assertTrue(cache.forget(pod.uid()));
      assertFalse(cache.isAssumed(pod.uid()));
    }
    assertEquals(Resources.ZERO, get(NODE).requested());
    assertEquals(List.of(), get(NODE).pods());
    assertEquals(0, cache.podCount());
  }

  @Test
  void a_pod_assumed_without_a_node_name_counts_with_the_chosen_node_as_its_node_name() {
    cache.putNode(node(NODE));
    var unscheduled = pod("p", "", 100, 500);

    var counted = cache.assume(unscheduled, NODE);

    assertEquals(NODE, counted.nodeName());
    assertEquals(List.of(counted), get(NODE).pods());
  }

  @Test
  void a_pod_is_looked_up_by_uid_while_the_cache_holds_it() {
    cache.putNode(node(NODE));
    var bound = pod("p", NODE, 100, 500);
    cache.putPod(bound);
    var assumed = cache.assume(pod("q", "", 100, 500), NODE);

    assertEquals(bound, cache.pod(bound.uid()));
    assertEquals(assumed, cache.pod(assumed.uid()));
    cache.removePod(bound.uid());
    assertEquals(null, cache.pod(bound.uid()));
  }

  @Test
  void a_bound_pod_cannot_be_assumed() {
    var bound = pod("p", NODE, 100, 500);
    cache.putPod(bound);

    var e = assertThrows(IllegalStateException.class, () -> cache.assume(bound, "other"));
    assertTrue(e.getMessage().contains("bound to " + NODE), e.getMessage());
  }

  // kube: TestExpirePod, case "assumed pod would expire"
  @Test
  void an_assumed_pod_expires_after_its_binding_finished_and_the_ttl_passed() {
    cache.putNode(node(NODE));
    var test1 = pod("test-1", NODE, 100, 500);
    assumeAndFinishBinding(test1);

    ticker.advance(TTL.multipliedBy(2));

    assertEquals(List.of(test1), cache.expire());
    assertFalse(cache.isAssumed(test1.uid()));
    assertEquals(Resources.ZERO, get(NODE).requested());
    assertEquals(0, cache.podCount());
  }

  // kube: TestExpirePod, case "first one would expire, second and third would not"
  @Test
  void only_assumptions_past_their_deadline_expire_and_one_still_binding_never_does() {
    cache.putNode(node(NODE));
    var test1 = pod("test-1", NODE, 100, 500);
    var test2 = pod("test-2", NODE, 200, 1024);
    var test3 = pod("test-3", NODE, 200, 1024);
    assumeAndFinishBinding(test1);
    ticker.advance(TTL.multipliedBy(3).dividedBy(2));
    assumeAndFinishBinding(test2);
    cache.assume(test3, NODE);

    ticker.advance(TTL.dividedBy(2));

    assertEquals(List.of(test1), cache.expire());
    var node = get(NODE);
    assertEquals(used(400, 2048, 2), node.requested());
    assertEquals(uids(test2, test3), uids(node));
    assertEquals(2, cache.assumedCount());
  }

  // kube: TestExpirePod, case "assumed pod would never expire" (ttl 0)
  @Test
  void with_a_ttl_of_zero_assumptions_never_expire() {
    var keeping = new SchedulerCache(ticker, Duration.ZERO);
    keeping.putNode(node(NODE));
    var test1 = pod("test-1", NODE, 100, 500);
    keeping.assume(test1, NODE);
    keeping.finishBinding(test1.uid());

    ticker.advance(TTL.multipliedBy(3));

    assertEquals(List.of(), keeping.expire());
    assertTrue(keeping.isAssumed(test1.uid()));
    assertEquals(used(100, 500, 1), keeping.nodes().get(0).requested());
  }

  @Test
  void an_assumption_expires_only_once_its_deadline_is_passed_not_at_it() {
    var test1 = pod("test-1", NODE, 100, 500);
    assumeAndFinishBinding(test1);

    ticker.advance(TTL);
    assertEquals(List.of(), cache.expire());

    ticker.advance(Duration.ofNanos(1));
    assertEquals(List.of(test1), cache.expire());
  }

  @Test
  void finishing_the_binding_again_restarts_the_wait() {
    var test1 = pod("test-1", NODE, 100, 500);
    assumeAndFinishBinding(test1);
    ticker.advance(TTL);

    assertTrue(cache.finishBinding(test1.uid()));
    ticker.advance(TTL);

    assertEquals(List.of(), cache.expire());
  }

  // kube: TestAddPodWillConfirm
  @Test
  void the_watch_confirms_an_assumed_pod_which_then_never_expires() {
    cache.putNode(node(NODE));
    var test1 = pod("test-1", NODE, 100, 500);
    var test2 = pod("test-2", NODE, 200, 1024);
    assumeAndFinishBinding(test1);
    assumeAndFinishBinding(test2);

    cache.putPod(test1);
    cache.putPod(test1); // an update event with nothing new changes nothing

    assertFalse(cache.isAssumed(test1.uid()));
    ticker.advance(TTL.multipliedBy(2));
    assertEquals(List.of(test2), cache.expire());
    var node = get(NODE);
    assertEquals(used(100, 500, 1), node.requested());
    assertEquals(uids(test1), uids(node));
    assertFalse(cache.finishBinding(test1.uid()), "a bound pod has no binding to finish");
  }

  // kube: TestAddPodAlwaysUpdatesPodInfoInNodeInfo
  @Test
  void confirming_keeps_the_pod_as_the_watch_shows_it() {
    cache.putNode(node("node1"));
    var assumedPod = pod("test-1", "node1", 100, 500);
    assumeAndFinishBinding(assumedPod);
    var watched = assumedPod.toBuilder().labels(Map.of("seen", "by the watch")).build();

    cache.putPod(watched);

    assertEquals(List.of(watched), get("node1").pods());
    assertEquals(used(100, 500, 1), get("node1").requested());
  }

  // kube: TestAddPodWillReplaceAssumed
  @Test
  void an_assumed_pod_confirmed_on_another_node_moves_there_and_counts_once() {
    cache.putNode(node("assumed-node"));
    cache.putNode(node("actual-node"));
    var assumedPod = pod("test-1", "assumed-node", 100, 500);
    var addedPod = pod("test-1", "actual-node", 100, 500);
    var updatedPod = pod("test-1", "actual-node", 200, 500);
    assumeAndFinishBinding(assumedPod);

    cache.putPod(addedPod);
    cache.putPod(updatedPod);

    assertEquals(List.of(), get("assumed-node").pods());
    assertEquals(Resources.ZERO, get("assumed-node").requested());
    assertEquals(List.of(updatedPod), get("actual-node").pods());
    assertEquals(used(200, 500, 1), get("actual-node").requested());
    assertEquals(1, cache.podCount());
    assertEquals(0, cache.assumedCount());
  }

  // kube: TestAddPodAfterExpiration
  @Test
  void a_pod_the_watch_shows_after_its_assumption_expired_is_added_back() {
    cache.putNode(node(NODE));
    var test = pod("test", NODE, 100, 500);
    assumeAndFinishBinding(test);
    ticker.advance(TTL.multipliedBy(2));
    assertEquals(List.of(test), cache.expire());
    assertEquals(0, cache.podCount());

    cache.putPod(test);

    assertEquals(used(100, 500, 1), get(NODE).requested());
    assertFalse(cache.isAssumed(test.uid()));
  }

  // kube: TestUpdatePod
  @Test
  void updating_a_bound_pods_requests_changes_its_nodes_usage() {
    cache.putNode(node(NODE));
    var before = pod("test", NODE, 100, 500);
    var after = pod("test", NODE, 200, 1024);
    cache.putPod(before);

    cache.putPod(after);
    assertEquals(used(200, 1024, 1), get(NODE).requested());
    assertEquals(List.of(after), get(NODE).pods());

    cache.putPod(before);
    assertEquals(used(100, 500, 1), get(NODE).requested());
    assertEquals(List.of(before), get(NODE).pods());
  }

  // kube: TestExpireAddUpdatePod
  @Test
  void a_pod_expired_then_added_can_be_updated() {
    cache.putNode(node(NODE));
    var before = pod("test", NODE, 100, 500);
    var after = pod("test", NODE, 200, 1024);
    assumeAndFinishBinding(before);
    ticker.advance(TTL.multipliedBy(2));
    cache.expire();
    cache.putPod(before);

    cache.putPod(after);
    assertEquals(used(200, 1024, 1), get(NODE).requested());
    cache.putPod(before);
    assertEquals(used(100, 500, 1), get(NODE).requested());
  }

  // kube: TestEphemeralStorageResource
  @Test
  void ephemeral_storage_counts_and_removing_the_pod_undoes_it() {
    cache.putNode(node(NODE));
    var podE =
        PodInfo.builder("default-namespace", "pod-with-ephemeral-storage")
            .nodeName(NODE)
            .requests(new Resources(0, 0, 500, 1, Map.of()))
            .nonZeroRequests(used(100, 200 * MIB, 1))
            .build();
    cache.putPod(podE);

    assertEquals(new Resources(0, 0, 500, 1, Map.of()), get(NODE).requested());
    assertEquals(used(100, 200 * MIB, 1), get(NODE).nonZeroRequested());

    assertTrue(cache.removePod(podE.uid()));
    assertEquals(Resources.ZERO, get(NODE).requested());
    assertEquals(0, cache.podCount());
  }

  // kube: TestRemovePod, both cases
  @ParameterizedTest(name = "{0}")
  @MethodSource("boundOrAssumed")
  void a_pod_on_a_node_not_yet_put_waits_for_it_and_removing_it_undoes_it(boolean assume) {
    var pod = pod("test", "node-1", 100, 500);
    if (assume) {
      cache.assume(pod, "node-1");
    } else {
      cache.putPod(pod);
    }
    assertEquals(List.of(), cache.nodes(), "a node not put is not in the snapshot");
    assertEquals(1, cache.podCount());

    cache.putNode(node("node-1"));
    cache.putNode(node("node-2"));
    assertEquals(used(100, 500, 1), get("node-1").requested());
    assertEquals(uids(pod), uids(get("node-1")));

    assertTrue(cache.removePod(pod.uid()));
    assertEquals(Resources.ZERO, get("node-1").requested());
    assertEquals(0, cache.podCount());
    assertFalse(cache.isAssumed(pod.uid()));
    assertFalse(cache.removePod(pod.uid()), "removed twice");
  }

  static Stream<Arguments> boundOrAssumed() {
    return Stream.of(
        Arguments.of(Named.of("bound", false)), Arguments.of(Named.of("assumed", true)));
  }

  // kube: TestForgetPod
  @Test
  void forgetting_an_assumed_pod_removes_it_and_forgetting_again_does_nothing() {
    cache.putNode(node(NODE));
    var test = pod("test", NODE, 100, 500);
    assumeAndFinishBinding(test);
    assertTrue(cache.isAssumed(test.uid()));

    assertTrue(cache.forget(test.uid()));

    assertFalse(cache.isAssumed(test.uid()));
    assertEquals(0, cache.podCount());
    assertEquals(List.of(), get(NODE).pods());
    assertFalse(cache.forget(test.uid()));
  }

  // kube: TestRemoveAssumedPod, case "pod is not assumed"
  @Test
  void forgetting_a_bound_pod_leaves_it_bound() {
    cache.putNode(node(NODE));
    var bound = pod("test", NODE, 100, 500);
    cache.putPod(bound);

    assertFalse(cache.forget(bound.uid()));

    assertEquals(List.of(bound), get(NODE).pods());
  }

  @Test
  void forgetting_restores_the_usage_exactly_even_where_the_sum_saturated() {
    cache.putNode(node(NODE));
    var huge = pod("huge", NODE, 100, Long.MAX_VALUE - 10);
    cache.putPod(huge);
    var before = get(NODE);

    cache.assume(pod("more", NODE, 100, 500), NODE);
    assertEquals(Long.MAX_VALUE, get(NODE).requested().memory());
    cache.forget("uid-more");

    assertEquals(before, get(NODE));
  }

  // kube: TestNodeOperators
  @Test
  void a_node_can_be_updated_and_removed_while_it_has_pods_and_counts_them_again_when_put_again() {
    var image = new ContainerImage(List.of("gcr.io/80:latest", "gcr.io/80:v1"), 80 * MIB);
    var testNode =
        NodeInfo.builder("test-node-1").allocatable(1000, 100, 110).images(List.of(image)).build();
    cache.putNode(testNode);
    cache.putNode(NodeInfo.builder("test-node-2").allocatable(500, 50, 110).build());
    var pod1 = pod("pod1", "test-node-1", 500, 50);
    var pod2 = pod("pod2", "test-node-1", 500, 50);
    cache.putPod(pod1);
    cache.putPod(pod2);

    // Step 1-2: the node is in the snapshot with its pods.
    assertEquals(2, cache.nodeCount());
    assertEquals(
        List.of("test-node-1", "test-node-2"), cache.nodes().stream().map(NodeInfo::name).toList());
    assertEquals(used(1000, 100, 2), get("test-node-1").requested());
    assertEquals(List.of(image), get("test-node-1").images());

    // Step 3: an update of the node keeps its pods.
    cache.putNode(
        NodeInfo.builder("test-node-1").allocatable(1000, 50, 110).images(List.of(image)).build());
    assertEquals(50, get("test-node-1").allocatable().memory());
    assertEquals(uids(pod1, pod2), uids(get("test-node-1")));
    assertEquals(used(1000, 100, 2), get("test-node-1").requested());

    // Step 4: the node can be removed while it has pods; the pods stay known.
    assertTrue(cache.removeNode("test-node-1"));
    assertFalse(cache.removeNode("test-node-1"), "removed twice");
    assertEquals(Optional.empty(), find("test-node-1"));
    assertEquals(1, cache.nodeCount());
    assertEquals(2, cache.podCount());

    // Put again (before the pods' deletions arrived), the node counts them again.
    cache.putNode(testNode);
    assertEquals(used(1000, 100, 2), get("test-node-1").requested());
    assertTrue(cache.removeNode("test-node-1"));

    // Step 5: removing the pods of a removed node still works.
    assertTrue(cache.removePod(pod1.uid()));
    assertTrue(cache.removePod(pod2.uid()));
    assertEquals(0, cache.podCount());
    cache.putNode(testNode);
    assertEquals(List.of(), get("test-node-1").pods());
  }

  @Test
  void a_removed_node_without_pods_is_forgotten_entirely() {
    cache.putNode(node(NODE));
    assertTrue(cache.removeNode(NODE));

    assertEquals(0, cache.nodeCount());
    assertEquals(List.of(), cache.nodes());
    assertFalse(cache.removeNode(NODE));
    assertFalse(cache.removeNode("never-put"));
  }

  @Test
  void the_snapshot_is_sorted_by_node_name_and_cannot_be_changed() {
    for (var name : List.of("b", "c", "a")) {
      cache.putNode(node(name));
    }

    var snapshot = cache.nodes();

    assertEquals(List.of("a", "b", "c"), snapshot.stream().map(NodeInfo::name).toList());
    assertThrows(UnsupportedOperationException.class, () -> snapshot.add(node("d")));
  }

  @Test
  void a_snapshot_without_changes_is_the_same_list() {
    cache.putNode(node("a"));
    var first = cache.nodes();

    cache.putNode(node("a"));
    cache.removePod("unknown");
    cache.forget("unknown");

    assertSame(first, cache.nodes());
  }

  @Test
  void pods_of_a_node_not_put_change_no_snapshot() {
    cache.putNode(node("a"));
    var first = cache.nodes();

    cache.putPod(pod("p", "elsewhere", 100, 500));
    cache.assume(pod("q", "", 100, 500), "elsewhere");

    assertSame(first, cache.nodes());
    assertEquals(2, cache.podCount());
  }

  @Test
  void confirming_an_assumption_with_the_pod_as_assumed_rebuilds_nothing() {
    cache.putNode(node(NODE));
    var assumedPod = cache.assume(pod("p", "", 100, 500), NODE);
    var before = cache.nodes();

    cache.putPod(assumedPod);

    assertSame(before, cache.nodes());
    assertFalse(cache.isAssumed(assumedPod.uid()));
  }

  @Test
  void a_node_update_with_the_same_images_keeps_the_image_list() {
    var images = List.of(new ContainerImage(List.of("nginx:1"), 100 * MIB));
    cache.putNode(NodeInfo.builder(NODE).images(images).build());
    var before = get(NODE);

    cache.putNode(
        NodeInfo.builder(NODE)
            .labels(Map.of("zone", "a"))
            .images(new ArrayList<>(images))
            .build());

    var after = get(NODE);
    assertNotSame(before, after);
    assertEquals(Map.of("zone", "a"), after.labels());
    assertSame(before.images(), after.images());
  }

  @Test
  void a_node_put_again_after_removal_keeps_its_image_list() {
    var images = List.of(new ContainerImage(List.of("nginx:1"), 100 * MIB));
    cache.putNode(NodeInfo.builder(NODE).images(images).build());
    cache.putPod(pod("p", NODE, 100, 500));
    var before = get(NODE);
    cache.removeNode(NODE);

    cache.putNode(NodeInfo.builder(NODE).images(new ArrayList<>(images)).build());

    assertSame(before.images(), get(NODE).images());
  }

  @Test
  void a_snapshot_of_5000_nodes_rebuilds_only_the_nodes_that_changed() {
    int nodes = 5_000;
    for (int n = 0; n < nodes; n++) {
      var name = String.format("node-%04d", n);
      cache.putNode(
          NodeInfo.builder(name)
              .allocatable(64_000, 256 * 1024 * MIB, 110)
              .images(List.of(new ContainerImage(List.of("image-" + (n % 7)), MIB)))
              .build());
      for (int p = 0; p < 10; p++) {
        cache.putPod(pod(name + "-pod-" + p, name, 100, 128 * MIB));
      }
    }
    var before = cache.nodes();
    assertEquals(nodes, before.size());
    assertEquals(50_000, cache.podCount());

    var placed = cache.assume(pod("new", "", 250, MIB), "node-1234");
    cache.putPod(pod("node-4321-pod-0", "node-4321", 300, 128 * MIB)); // an update
    cache.putNode(
        NodeInfo.builder("node-2222")
            .allocatable(64_000, 256 * 1024 * MIB, 110)
            .unschedulable(true)
            .images(List.of(new ContainerImage(List.of("image-" + (2222 % 7)), MIB)))
            .build());
    var after = cache.nodes();

    var changed = List.of("node-1234", "node-2222", "node-4321");
    for (int i = 0; i < nodes; i++) {
      var name = before.get(i).name();
      assertEquals(name, after.get(i).name());
      if (changed.contains(name)) {
        assertNotSame(before.get(i), after.get(i), name);
      } else {
        assertSame(before.get(i), after.get(i), name);
      }
      assertSame(before.get(i).images(), after.get(i).images(), name + " images");
    }
    assertTrue(after.get(1234).pods().contains(placed));
    assertEquals(used(1250, 1280 * MIB + MIB, 11), after.get(1234).requested());
    assertEquals(used(1200, 1280 * MIB, 10), after.get(4321).requested());
    assertTrue(after.get(2222).unschedulable());
    assertEquals(before.get(2222).pods(), after.get(2222).pods());
  }

  @Test
  void snapshots_know_their_nodes_by_name_across_incremental_and_full_rebuilds() {
    cache.putNode(node("a"));
    cache.putNode(node("c"));
    var first = cache.nodes();
    assertTrue(first.hasNode("a") && first.hasNode("c"));
    assertFalse(first.hasNode("b"));

    cache.assume(pod("p", "", 100, MIB), "c"); // a change of one node: rebuilt incrementally
    var second = cache.nodes();
    assertSame(first.get(0), second.get(0));
    assertEquals(1, second.get(1).pods().size());
    assertEquals(0, first.get(1).pods().size(), "a snapshot handed out never changes");

    cache.putNode(node("b")); // a new node: the next snapshot walks every node again
    cache.assume(pod("q", "", 100, MIB), "a");
    var third = cache.nodes();
    assertEquals(List.of("a", "b", "c"), third.stream().map(NodeInfo::name).toList());
    assertTrue(third.hasNode("b"));
    assertEquals(1, third.get(0).pods().size());

    assertTrue(cache.removeNode("a"));
    cache.assume(pod("r", "", 100, MIB), "c");
    var fourth = cache.nodes();
    assertEquals(List.of("b", "c"), fourth.stream().map(NodeInfo::name).toList());
    assertFalse(fourth.hasNode("a"));
    assertEquals(2, fourth.get(1).pods().size());
    assertThrows(UnsupportedOperationException.class, () -> fourth.set(0, fourth.get(1)));
  }

  @Test
  void arguments_are_checked_at_the_boundary() {
    var withPod = NodeInfo.builder(NODE).pods(List.of(pod("p", NODE, 1, 1))).build();
    var e = assertThrows(IllegalArgumentException.class, () -> cache.putNode(withPod));
    assertTrue(e.getMessage().contains("node " + NODE), e.getMessage());

    assertThrows(IllegalArgumentException.class, () -> cache.putNode(NodeInfo.builder(" ").build()));
    var unbound = assertThrows(IllegalArgumentException.class, () -> cache.putPod(pod("p", "", 1, 1)));
    assertTrue(unbound.getMessage().contains("default/p"), unbound.getMessage());
    assertThrows(IllegalArgumentException.class, () -> cache.assume(pod("p", "", 1, 1), " "));
    assertEquals(0, cache.podCount());
    assertEquals(0, cache.nodeCount());
  }

  @Test
  void a_relist_drops_the_nodes_and_bound_pods_it_no_longer_shows_but_keeps_assumptions() {
    cache.putNode(node("kept"));
    cache.putNode(node("gone"));
    cache.putPod(pod("stays", "kept", 100, MIB));
    cache.putPod(pod("deleted", "kept", 200, MIB));
    cache.assume(pod("binding", "", 300, MIB), "kept");

    int dropped = cache.retainOnly(java.util.Set.of("kept"), java.util.Set.of("uid-stays"));

    assertEquals(2, dropped);
    var snapshot = cache.nodes();
    assertEquals(List.of("kept"), snapshot.stream().map(NodeInfo::name).toList());
    assertEquals(400, snapshot.get(0).requested().milliCpu(), "the bound pod kept and the assumed one");
    assertTrue(cache.isAssumed("uid-binding"));
  }
}
