package io.kubesched.policy.plugins.volumerestrictions;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.StorageFixtures;
import io.kubesched.policy.plugins.TrackerScenario;
import java.util.ArrayList;
import java.util.List;
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

  private static final List<PersistentVolumeClaim> CLAIMS = VolumeRestrictionsFilterProperties.claims();

  private final VolumeRestrictionsFilter filter = new VolumeRestrictionsFilter();

  /** A pod to place, a cluster, and what preemption removes from and adds back to one node. */
  record Change(PodInfo pod, ClusterSnapshot cluster, int node, List<Boolean> remove, List<Boolean> readd) {}

  @Property
  @Label("after removals and additions on one node, the tracker's verdicts are those of a fresh prepare")
  void trackerAgreesWithFreshPrepare(@ForAll("changes") Change change) {
    var pod = change.pod();
    scenario(change).assertTrackersAgreeWithFreshPrepare(
        pod,
        cluster -> filter.prepare(pod, cluster),
        prepared -> ((VolumeRestrictionsFilter.Prepared) prepared).skipped(),
        VolumeRestrictionsTrackerProperties::kind);

    Statistics.label("outcome").coverage(c -> {
      c.check("fit").count(n -> n > 0);
      c.check("ReadWriteOncePod").count(n -> n > 0);
      c.check("disk").count(n -> n > 0);
    });
  }

  @Property
  @Label("track() gives independent copies: changing one changes neither the prepared filter nor another")
  void tracksAreIndependent(@ForAll("changes") Change change) {
    var pod = change.pod();
    var s = scenario(change);
    s.assertTracksAreIndependent(pod, filter.prepare(pod, s.before()));
  }

  private static TrackerScenario scenario(Change change) {
    return TrackerScenario.of(change.cluster(), change.node(), change.remove(), change.readd(), p -> true);
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
