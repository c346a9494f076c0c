package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ContainerImage;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * {@link SchedulerCache} against a model: random sequences of node and pod events, assumptions, binding
 * outcomes and clock ticks, with the cache's snapshot and counts compared to the model after every step.
 *
 * <p>The alphabets are small (three node names, five pod uids) so that the same pod is assumed, confirmed,
 * moved, forgotten and expired, and nodes are removed under their pods and put again, within one chain.
 */
class SchedulerCacheProperties {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final List<String> NODES = List.of("n1", "n2", "n3");
  private static final List<String> UIDS = List.of("p1", "p2", "p3", "p4", "p5");

  /** Requests a pod may have; two of the last saturate the memory sum, so exact undoing is tested. */
  private static final List<Resources> REQUESTS =
      List.of(
          new Resources(100, 500, 0, 1, Map.of()),
          new Resources(0, 0, 0, 1, Map.of()),
          new Resources(250, 1024, 10, 1, Map.of("example.com/gpu", 1L)),
          new Resources(100, Long.MAX_VALUE / 2 + 1, 0, 1, Map.of()));

  private static final List<String> ACTIONS =
      List.of(
          "putNode",
          "removeNode",
          "putPod",
          "removePod",
          "assume",
          "finishBinding",
          "forget",
          "expire",
          "advance",
          "snapshot",
          "assume then forget",
          "retainOnly");

  /**
   * The groups a pod may name: two of one name from the two sources, so that the index keys on the source
   * too; a pod put again may name another group (a coscheduling label changed) or none.
   */
  private static final List<Optional<PodGroupRef>> GROUPS =
      List.of(
          Optional.empty(),
          Optional.of(new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "default", "g1")),
          Optional.of(new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", "g1")),
          Optional.of(new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "default", "g2")));

  /** What the model knows of a pod. */
  private static final class ModelPod {
    final PodInfo pod;
    final String node;
    final boolean assumed;
    @Nullable Long deadline;

    ModelPod(PodInfo pod, String node, boolean assumed) {
      this.pod = pod;
      this.node = node;
      this.assumed = assumed;
    }
  }

  /** The cache under test, its clock, and the model it must agree with. */
  static final class Harness {
    final FakeTicker ticker = new FakeTicker();
    final SchedulerCache cache = new SchedulerCache(ticker, TTL);
    final Map<String, NodeInfo> putNodes = new HashMap<>();
    final Map<String, ModelPod> pods = new HashMap<>();
    /** The node list the last check saw. */
    @Nullable CachedNodes lastList;

    void putNode(NodeInfo node) {
      Statistics.label("action").collect("putNode");
      cache.putNode(node);
      putNodes.put(node.name(), node);
    }

    void removeNode(String name) {
      Statistics.label("action").collect("removeNode");
      if (putNodes.containsKey(name) && pods.values().stream().anyMatch(p -> p.node.equals(name))) {
        Statistics.label("outcome").collect("node removed under its pods");
      }
      assertEquals(putNodes.remove(name) != null, cache.removeNode(name), "removeNode " + name);
    }

    void putPod(PodInfo pod) {
      Statistics.label("action").collect("putPod");
      var known = pods.get(pod.uid());
      if (known != null && known.assumed) {
        Statistics.label("outcome").collect("confirmed");
        if (!known.node.equals(pod.nodeName())) {
          Statistics.label("outcome").collect("confirmed on another node");
        }
      }
      if (!putNodes.containsKey(pod.nodeName())) {
        Statistics.label("outcome").collect("pod on a node not put");
      }
      if (known != null && !known.pod.podGroup().equals(pod.podGroup())) {
        Statistics.label("outcome").collect("member put again in another group");
      }
      cache.putPod(pod);
      pods.put(pod.uid(), new ModelPod(pod, pod.nodeName(), false));
    }

    void removePod(String uid) {
      Statistics.label("action").collect("removePod");
      assertEquals(pods.remove(uid) != null, cache.removePod(uid), "removePod " + uid);
    }

    void assume(PodInfo pod, String node) {
      Statistics.label("action").collect("assume");
      if (pods.containsKey(pod.uid())) {
        Statistics.label("outcome").collect("assume refused");
        assertThrows(IllegalStateException.class, () -> cache.assume(pod, node));
        return;
      }
      cache.assume(pod, node);
      pods.put(pod.uid(), new ModelPod(pod, node, true));
    }

    void finishBinding(String uid) {
      Statistics.label("action").collect("finishBinding");
      var known = pods.get(uid);
      boolean assumed = known != null && known.assumed;
      assertEquals(assumed, cache.finishBinding(uid), "finishBinding " + uid);
      if (assumed) {
        known.deadline = ticker.nanoTime() + TTL.toNanos();
      }
    }

    void forget(String uid) {
      Statistics.label("action").collect("forget");
      var known = pods.get(uid);
      boolean assumed = known != null && known.assumed;
      var before = assumed ? snapshotNode(known.node) : Optional.<NodeInfo>empty();

      assertEquals(assumed, cache.forget(uid), "forget " + uid);

      if (assumed) {
        Statistics.label("outcome").collect("forgotten");
        pods.remove(uid);
        var after = snapshotNode(known.node);
        if (before.isPresent()) {
          // The node is as it was with the pod left out: the others in their order, their sums exactly.
          var others = before.get().pods().stream().filter(p -> !p.uid().equals(uid)).toList();
          var expected = NodeInfo.builder(known.node).pods(others).build();
          assertEquals(others, after.orElseThrow().pods(), "pods after forgetting " + uid);
          assertEquals(expected.requested(), after.orElseThrow().requested());
          assertEquals(expected.nonZeroRequested(), after.orElseThrow().nonZeroRequested());
        }
      }
    }

    void expire() {
      Statistics.label("action").collect("expire");
      long now = ticker.nanoTime();
      var due = new TreeSet<String>();
      pods.forEach(
          (uid, p) -> {
            if (p.assumed && p.deadline != null && now > p.deadline) {
              due.add(uid);
            }
          });

      var expired = cache.expire();

      var expiredUids = new TreeSet<String>();
      for (var pod : expired) {
        var known = pods.get(pod.uid());
        assertTrue(known != null && known.assumed, "only assumed pods expire, not " + pod.uid());
        assertEquals(known.node, pod.nodeName(), "an expired pod names the node it was assumed on");
        expiredUids.add(pod.uid());
      }
      assertEquals(due, expiredUids, "expired at " + now);
      if (!due.isEmpty()) {
        Statistics.label("outcome").collect("expired");
      }
      due.forEach(pods::remove);
    }

    void advance(Duration duration) {
      Statistics.label("action").collect("advance");
      ticker.advance(duration);
    }

    void snapshot() {
      Statistics.label("action").collect("snapshot");
      var first = cache.nodes();
      assertSame(first, cache.nodes(), "a snapshot without changes in between is the same list");
      assertThrows(UnsupportedOperationException.class, () -> first.remove(0));
    }

    void assumeThenForget(PodInfo pod, String node) {
      Statistics.label("action").collect("assume then forget");
      if (pods.containsKey(pod.uid())) {
        return;
      }
      var before = snapshotNode(node);
      cache.assume(pod, node);
      cache.forget(pod.uid());
      assertEquals(before, snapshotNode(node), "assuming and forgetting leaves the node as it was");
    }

    void retainOnly(Set<String> nodeNames, Set<String> podUids) {
      Statistics.label("action").collect("retainOnly");
      int droppedPods = 0;
      for (var uid : new TreeSet<>(pods.keySet())) {
        if (!pods.get(uid).assumed && !podUids.contains(uid)) {
          pods.remove(uid);
          droppedPods++;
        }
      }
      int droppedNodes = 0;
      for (var name : new TreeSet<>(putNodes.keySet())) {
        if (!nodeNames.contains(name)) {
          putNodes.remove(name);
          droppedNodes++;
        }
      }
      if (droppedPods > 0) {
        Statistics.label("outcome").collect("bound pods dropped by retainOnly");
      }
      assertEquals(droppedPods + droppedNodes, cache.retainOnly(nodeNames, podUids), "retainOnly");
    }

    /**
     * A list made from the one before holds the same objects as it but at the positions it names, and the list
     * before then forgets its own base: no chain of lists.
     */
    void checkDerivation(CachedNodes list) {
      var base = list.base();
      if (base == null) {
        Statistics.label("node list").collect("built afresh");
      } else {
        Statistics.label("node list").collect("made from the one before");
        assertEquals(base.size(), list.size(), "a list made from another has its size");
        var changed = new HashSet<Integer>();
        for (int position : list.changedPositions()) {
          assertTrue(changed.add(position), "position " + position + " is named once");
        }
        for (int i = 0; i < list.size(); i++) {
          if (!changed.contains(i)) {
            assertSame(base.get(i), list.get(i), "position " + i + " is not named as changed");
          }
        }
        var before = lastList;
        if (before != null && base == before) {
          assertNull(before.base(), "the list before forgot its base");
        }
      }
      lastList = list;
    }

    Optional<NodeInfo> snapshotNode(String name) {
      return cache.nodes().stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /** The cache agrees with the model. */
    void checkInvariants() {
      var snapshot = cache.nodes();
      checkDerivation(snapshot);
      assertEquals(
          new ArrayList<>(new TreeSet<>(putNodes.keySet())),
          snapshot.stream().map(NodeInfo::name).toList(),
          "the snapshot's nodes are the put nodes, by name");

      var seen = new HashSet<String>();
      for (var node : snapshot) {
        var put = putNodes.get(node.name());
        assertEquals(put.labels(), node.labels());
        assertEquals(put.taints(), node.taints());
        assertEquals(put.unschedulable(), node.unschedulable());
        assertEquals(put.allocatable(), node.allocatable());
        assertEquals(put.images(), node.images());

        var expectedUids = new TreeSet<String>();
        var requested = Resources.ZERO;
        var nonZeroRequested = Resources.ZERO;
        for (var entry : pods.entrySet()) {
          if (entry.getValue().node.equals(node.name())) {
            expectedUids.add(entry.getKey());
            requested = requested.plus(entry.getValue().pod.requests());
            nonZeroRequested = nonZeroRequested.plus(entry.getValue().pod.nonZeroRequests());
          }
        }
        var uids = new TreeSet<String>();
        for (var pod : node.pods()) {
          assertTrue(seen.add(pod.uid()), "pod " + pod.uid() + " counts more than once");
          uids.add(pod.uid());
          var known = pods.get(pod.uid());
          assertTrue(known != null, "pod " + pod.uid() + " is not known");
          assertEquals(node.name(), pod.nodeName(), "a pod's node name is its node's");
          assertEquals(known.pod.requests(), pod.requests());
          assertEquals(known.pod.nonZeroRequests(), pod.nonZeroRequests());
          if (!known.assumed) {
            assertEquals(known.pod, pod, "a bound pod is as the watch showed it");
          }
        }
        assertEquals(expectedUids, uids, "pods on " + node.name());
        assertEquals(requested, node.requested(), "requested on " + node.name());
        assertEquals(nonZeroRequested, node.nonZeroRequested(), "non-zero requested on " + node.name());
      }

      assertEquals(putNodes.size(), cache.nodeCount(), "nodeCount");
      for (var group : GROUPS) {
        if (group.isPresent()) {
          long members = pods.values().stream().filter(p -> p.pod.podGroup().equals(group)).count();
          assertEquals(members, cache.placedMembers(group.get()), "placedMembers " + group.get());
          if (members > 0) {
            Statistics.label("placed members").collect(members == 1 ? "one" : "several");
          }
        }
      }
      assertEquals(pods.size(), cache.podCount(), "podCount");
      assertEquals(
          pods.values().stream().filter(p -> p.assumed).count(), cache.assumedCount(), "assumedCount");
      for (var uid : UIDS) {
        var known = pods.get(uid);
        assertEquals(known != null && known.assumed, cache.isAssumed(uid), "isAssumed " + uid);
      }
    }
  }

  @Property(tries = 300)
  void the_cache_agrees_with_a_model_after_every_action(@ForAll("chains") ActionChain<Harness> chain) {
    chain.withInvariant("cache agrees with the model", Harness::checkInvariants).run();

    Statistics.label("action")
        .coverage(
            coverage -> {
              for (var action : ACTIONS) {
                coverage.check(action).count(n -> n > 0);
              }
            });
    Statistics.label("outcome")
        .coverage(
            coverage -> {
              for (var outcome :
                  List.of(
                      "confirmed",
                      "confirmed on another node",
                      "forgotten",
                      "expired",
                      "pod on a node not put",
                      "node removed under its pods",
                      "assume refused",
                      "bound pods dropped by retainOnly",
                      "member put again in another group")) {
                coverage.check(outcome).count(n -> n > 0);
              }
            });
    Statistics.label("node list")
        .coverage(
            coverage -> {
              coverage.check("built afresh").count(n -> n > 0);
              coverage.check("made from the one before").count(n -> n > 0);
            });
    Statistics.label("placed members")
        .coverage(
            coverage -> {
              coverage.check("one").count(n -> n > 0);
              coverage.check("several").count(n -> n > 0);
            });
  }

  @Provide
  Arbitrary<ActionChain<Harness>> chains() {
    return ActionChain.startWith(Harness::new)
        .withAction(3, putNode())
        .withAction(1, removeNode())
        .withAction(3, putPod())
        .withAction(1, removePod())
        .withAction(4, assume())
        .withAction(3, finishBinding())
        .withAction(2, forget())
        .withAction(2, expire())
        .withAction(2, advance())
        .withAction(1, snapshot())
        .withAction(1, assumeThenForget())
        .withAction(1, retainOnly())
        .withMaxTransformations(50);
  }

  private static Arbitrary<String> nodeNames() {
    return Arbitraries.of(NODES);
  }

  private static Arbitrary<String> uids() {
    return Arbitraries.of(UIDS);
  }

  private static Arbitrary<NodeInfo> nodes() {
    var labels = Arbitraries.of(Map.<String, String>of(), Map.of("zone", "a"));
    var taints =
        Arbitraries.of(
            List.<Taint>of(), List.of(new Taint("dedicated", "gpu", TaintEffect.NO_SCHEDULE)));
    // A fresh list each time: the cache must keep its own when the content is the same.
    var images =
        Arbitraries.of(List.of("nginx:1"), List.of("nginx:1", "redis:7"))
            .map(names -> new ArrayList<>(names.stream().map(SchedulerCacheProperties::image).toList()));
    var allocatable = Arbitraries.of(Resources.of(1000, 1L << 30), Resources.of(4000, 1L << 32));
    return Combinators.combine(
            nodeNames(), labels, taints, Arbitraries.of(false, true), allocatable, images)
        .as(
            (name, l, t, cordoned, a, i) ->
                NodeInfo.builder(name)
                    .labels(l)
                    .taints(t)
                    .unschedulable(cordoned)
                    .allocatable(a)
                    .images(i)
                    .build());
  }

  private static ContainerImage image(String name) {
    return new ContainerImage(List.of(name), 1L << 20);
  }

  private static Arbitrary<PodInfo> pods(Arbitrary<String> nodeNames) {
    return Combinators.combine(uids(), nodeNames, Arbitraries.of(REQUESTS), Arbitraries.of(GROUPS))
        .as(
            (uid, node, requests, group) ->
                PodInfo.builder("default", "pod-" + uid)
                    .uid(uid)
                    .nodeName(node)
                    .requests(requests)
                    .podGroup(group.orElse(null))
                    .build());
  }

  private static Action.Independent<Harness> putNode() {
    return () -> nodes().map(node -> Transformer.mutate("putNode " + node, h -> h.putNode(node)));
  }

  private static Action.Independent<Harness> removeNode() {
    return () ->
        nodeNames().map(name -> Transformer.mutate("removeNode " + name, h -> h.removeNode(name)));
  }

  private static Action.Independent<Harness> putPod() {
    return () ->
        pods(nodeNames())
            .map(
                pod ->
                    Transformer.mutate(
                        "putPod " + pod.uid() + " on " + pod.nodeName() + " " + pod.requests(),
                        h -> h.putPod(pod)));
  }

  private static Action.Independent<Harness> removePod() {
    return () -> uids().map(uid -> Transformer.mutate("removePod " + uid, h -> h.removePod(uid)));
  }

  private static Action.Independent<Harness> assume() {
    return () ->
        Combinators.combine(pods(Arbitraries.just("")), nodeNames())
            .as(
                (pod, node) ->
                    Transformer.mutate(
                        "assume " + pod.uid() + " on " + node + " " + pod.requests(),
                        h -> h.assume(pod, node)));
  }

  private static Action.Independent<Harness> finishBinding() {
    return () ->
        uids().map(uid -> Transformer.mutate("finishBinding " + uid, h -> h.finishBinding(uid)));
  }

  private static Action.Independent<Harness> forget() {
    return () -> uids().map(uid -> Transformer.mutate("forget " + uid, h -> h.forget(uid)));
  }

  private static Action.Independent<Harness> expire() {
    return () -> Arbitraries.just(Transformer.mutate("expire", Harness::expire));
  }

  private static Action.Independent<Harness> advance() {
    return () ->
        Arbitraries.of(1, 5, 10, 11, 30)
            .map(Duration::ofSeconds)
            .map(d -> Transformer.mutate("advance " + d, h -> h.advance(d)));
  }

  private static Action.Independent<Harness> snapshot() {
    return () -> Arbitraries.just(Transformer.mutate("snapshot", Harness::snapshot));
  }

  private static Action.Independent<Harness> retainOnly() {
    return () ->
        Combinators.combine(
                Arbitraries.of(NODES).set().ofMaxSize(NODES.size()),
                Arbitraries.of(UIDS).set().ofMaxSize(UIDS.size()))
            .as(
                (nodeNames, podUids) ->
                    Transformer.mutate(
                        "retainOnly " + new TreeSet<>(nodeNames) + " " + new TreeSet<>(podUids),
                        h -> h.retainOnly(nodeNames, podUids)));
  }

  private static Action.Independent<Harness> assumeThenForget() {
    return () ->
        Combinators.combine(Arbitraries.of(REQUESTS), nodeNames())
            .as(
                (requests, node) -> {
                  var pod =
                      PodInfo.builder("default", "transient").uid("transient").requests(requests).build();
                  return Transformer.mutate(
                      "assume then forget on " + node + " " + requests,
                      h -> h.assumeThenForget(pod, node));
                });
  }
}
