package io.kubesched.policy.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.Filter;
import io.kubesched.policy.FilterResult;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The VolumeRestrictions tracker against a fresh {@link VolumeRestrictionsFilter#prepare} on the changed cluster:
 * after preemption's removals and additions on one node, every node gets the verdict a snapshot without the pods
 * gone would give (a pod kube's PreFilter skips gets a tracker that fits every node). Pods of two namespaces use
 * claims {@code r1}, {@code r2} ({@code ReadWriteOncePod}) and {@code x} ({@code ReadWriteMany}) of the same names
 * in both, sometimes two pods one claim, and sometimes a GCE disk, so that both rejections occur.
 */
class VolumeRestrictionsTrackerProperties {

  private static final List<String> NAMESPACES = List.of("default", "other");
  private static final List<PersistentVolumeClaim> CLAIMS = claims();

  private final VolumeRestrictionsFilter filter = new VolumeRestrictionsFilter();

  private static List<PersistentVolumeClaim> claims() {
    var claims = new ArrayList<PersistentVolumeClaim>();
    for (var namespace : NAMESPACES) {
      claims.add(StorageFixtures.claim(namespace, "r1", "", "", Set.of(AccessMode.READ_WRITE_ONCE_POD)));
      claims.add(StorageFixtures.claim(
          namespace, "r2", "", "", Set.of(AccessMode.READ_WRITE_ONCE_POD, AccessMode.READ_WRITE_ONCE)));
      claims.add(StorageFixtures.claim(namespace, "x", "", "", Set.of(AccessMode.READ_WRITE_MANY)));
    }
    return List.copyOf(claims);
  }

  /** A pod to place, a cluster, and what preemption removes from and adds back to one node. */
  record Change(PodInfo pod, ClusterSnapshot cluster, int node, List<Boolean> remove, List<Boolean> readd) {}

  @Property
  @Label("after removals and additions on one node, the tracker's verdicts are those of a fresh prepare")
  void trackerAgreesWithFreshPrepare(@ForAll("changes") Change change) {
    var pod = change.pod();
    var s = TrackerScenario.of(change.cluster(), change.node(), change.remove(), change.readd(), p -> true);

    var prepared = (VolumeRestrictionsFilter.Prepared) filter.prepare(pod, s.before());
    compare(pod, prepared, s.replay(prepared), s.after(), "forward");
    var preparedAfter = (VolumeRestrictionsFilter.Prepared) filter.prepare(pod, s.after());
    compare(pod, preparedAfter, s.replayBackwards(preparedAfter), s.before(), "backward");

    Statistics.label("pods removed, added back").collect(s.removed().size() + ", " + s.readded().size());
    Statistics.label("outcome").coverage(c -> {
      c.check("fit").count(n -> n > 0);
      c.check("ReadWriteOncePod").count(n -> n > 0);
      c.check("disk").count(n -> n > 0);
    });
    Statistics.label("verdict changed by the pods gone").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("skipped, so fits").coverage(c -> c.check(true).count(n -> n > 0));
  }

  private void compare(
      PodInfo pod, VolumeRestrictionsFilter.Prepared prepared, Filter tracker, ClusterSnapshot changed, String way) {
    var fresh = filter.prepare(pod, changed);
    for (var node : changed.nodes()) {
      var actual = Outcome.of(tracker.filter(pod, node));
      if (prepared.skipped()) {
        assertEquals(Outcome.FIT, actual, way);
        Statistics.label("skipped, so fits").collect(true);
        continue;
      }
      var expected = fresh.filter(pod, node);
      assertEquals(expected, tracker.filter(pod, node), () -> way + ": node " + node.name());
      Statistics.label("outcome").collect(kind(expected));
      Statistics.label("verdict changed by the pods gone")
          .collect(!Outcome.of(prepared.filter(pod, node)).equals(actual));
    }
  }

  @Property
  @Label("track() gives independent copies: changing one changes neither the prepared filter nor another")
  void tracksAreIndependent(@ForAll("changes") Change change) {
    var pod = change.pod();
    var s = TrackerScenario.of(change.cluster(), change.node(), change.remove(), change.readd(), p -> true);
    var prepared = (VolumeRestrictionsFilter.Prepared) filter.prepare(pod, s.before());
    var verdicts = verdicts(pod, prepared, s.before());

    var changed = prepared.track();
    s.removed().forEach(removed -> changed.removePod(removed, s.node()));
    var other = prepared.track();

    assertEquals(verdicts, verdicts(pod, prepared, s.before()), "the prepared filter");
    assertEquals(verdicts, verdicts(pod, other, s.before()), "a second tracker");
    Statistics.label("the changed tracker differs").collect(!verdicts.equals(verdicts(pod, changed, s.before())));
    Statistics.label("the changed tracker differs").coverage(c -> c.check(true).count(n -> n > 0));
  }

  private static List<Outcome> verdicts(PodInfo pod, Filter filter, ClusterSnapshot cluster) {
    var verdicts = new ArrayList<Outcome>();
    cluster.nodes().forEach(node -> verdicts.add(Outcome.of(filter.filter(pod, node))));
    return verdicts;
  }

  private static String kind(FilterResult result) {
    if (result.fits()) {
      return "fit";
    }
    return FilterFixtures.reasons(result).get(0) instanceof VolumeRestrictionsFilter.ReadWriteOncePodConflict
        ? "ReadWriteOncePod"
        : "disk";
  }

  private static Arbitrary<PodInfo> pods(String name) {
    return Combinators.combine(
            Arbitraries.of("default", "default", "other"),
            Arbitraries.of("r1", "r2", "x").list().uniqueElements().ofMaxSize(2),
            Arbitraries.of("a", "b").injectNull(0.7),
            Arbitraries.integers().between(0, 999))
        .as((namespace, claims, disk, id) -> PodInfo.builder(namespace, name + id)
            .persistentVolumeClaims(claims)
            .volumes(disk == null ? List.of() : List.of(new Volume.GcePersistentDisk(disk, false)))
            .build());
  }

  @Provide
  Arbitrary<Change> changes() {
    var nodes = pods("q").list().ofMaxSize(3).list().ofMinSize(1).ofMaxSize(3).map(podsPerNode -> {
      var infos = new ArrayList<NodeInfo>();
      for (int i = 0; i < podsPerNode.size(); i++) {
        var name = "n" + i;
        var placed = podsPerNode.get(i).stream().map(p -> p.toBuilder().nodeName(name).build()).toList();
        infos.add(NodeInfo.builder(name).pods(placed).build());
      }
      return ClusterSnapshot.of(infos).withStorage(StorageFixtures.storage(CLAIMS, List.of(), List.of()));
    });
    var masks = Arbitraries.of(true, true, false).list().ofSize(3);
    var readds = Arbitraries.of(true, false, false).list().ofSize(3);
    return Combinators.combine(pods("incoming"), nodes, Arbitraries.integers().between(0, 99), masks, readds)
        .as(Change::new);
  }
}
