package io.kubesched.policy.plugins.nodevolumelimits;

import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.NAMESPACE;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.NODE;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.claim;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.node;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.snapshot;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.storageClass;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.CsiNode;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.api.StorageClass;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.FilterFixtures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Properties of {@link NodeVolumeLimitsFilter} over generated claims, volumes, classes and limits: its verdict
 * is the one a brute-force count of the generated volumes gives, and a node that takes pods one by one, each
 * only where the filter accepts it, never has more volumes of a driver than the driver's limit.
 *
 * <p>The generator states, for each claim, which volume it stands for (a CSI volume by driver and handle, a
 * volume no CSI driver attaches, a volume still to be provisioned by a class's driver, or none), builds the
 * storage objects from that, and the count uses the stated volumes, not the storage objects. Two drivers,
 * three handles and limits from none to 3 make shared volumes, full drivers and unlimited ones all frequent.
 */
class NodeVolumeLimitsFilterProperties {

  private static final List<String> DRIVERS = List.of("d1", "d2");
  private static final int CLAIMS = 6;

  /** What one generated claim stands for. */
  enum Kind {
    /** Bound to a CSI volume of {@code driver} with {@code handle}. */
    BOUND_CSI,
    /** Bound to a volume no CSI driver attaches (host path, NFS, ...): not counted. */
    BOUND_NOT_CSI,
    /** Unbound, of a class {@code driver} provisions: one volume of its own. */
    UNBOUND_OF_CLASS,
    /** Bound to a volume that does not exist, of a class {@code driver} provisions: one volume of its own. */
    MISSING_VOLUME_OF_CLASS,
    /** Unbound without a class: not counted. */
    UNBOUND_WITHOUT_CLASS,
    /** Unbound, of a class that does not exist: not counted. */
    UNBOUND_OF_MISSING_CLASS
  }

  record ClaimSpec(Kind kind, String driver, String handle) {

    /** @return the volume the claim {@code name} stands for, as the brute-force count tells volumes apart */
    Optional<List<String>> identity(String name) {
      return switch (kind) {
        case BOUND_CSI -> Optional.of(List.of(driver, "volume", handle));
        case UNBOUND_OF_CLASS, MISSING_VOLUME_OF_CLASS -> Optional.of(List.of(driver, "claim", name));
        case BOUND_NOT_CSI, UNBOUND_WITHOUT_CLASS, UNBOUND_OF_MISSING_CLASS -> Optional.empty();
      };
    }
  }

  /**
   * A generated cluster: {@value #CLAIMS} claims {@code c0..c5}, the pods of one node and the pod to place,
   * each by the indexes of the claims it uses, and the node's CSINode (absent, or a limit per driver, -1 for
   * none).
   */
  record World(
      List<ClaimSpec> claims,
      List<List<Integer>> existingPods,
      List<Integer> newPod,
      boolean hasCsiNode,
      Map<String, Integer> limits) {

    Storage storage() {
      var claimObjects = new ArrayList<PersistentVolumeClaim>();
      var volumes = new ArrayList<PersistentVolume>();
      for (int i = 0; i < claims.size(); i++) {
        var spec = claims.get(i);
        var name = "c" + i;
        var ofClass = "class-" + spec.driver();
        switch (spec.kind()) {
          case BOUND_CSI -> {
            volumes.add(volume("pv-" + name, spec.driver(), spec.handle()));
            claimObjects.add(claim(name, "", "pv-" + name));
          }
          case BOUND_NOT_CSI -> {
            volumes.add(volume("pv-" + name, "", ""));
            claimObjects.add(claim(name, ofClass, "pv-" + name));
          }
          case UNBOUND_OF_CLASS -> claimObjects.add(claim(name, ofClass, ""));
          case MISSING_VOLUME_OF_CLASS -> claimObjects.add(claim(name, ofClass, "pv-gone-" + name));
          case UNBOUND_WITHOUT_CLASS -> claimObjects.add(claim(name, "", ""));
          case UNBOUND_OF_MISSING_CLASS -> claimObjects.add(claim(name, "no-such-class", ""));
        }
      }
      List<StorageClass> classes = DRIVERS.stream().map(d -> storageClass("class-" + d, d)).toList();
      var drivers = new LinkedHashMap<String, CsiNode.Driver>();
      limits.forEach((driver, limit) -> drivers.put(driver, new CsiNode.Driver(driver, NODE, limit, List.of())));
      List<CsiNode> csiNodes = hasCsiNode ? List.of(new CsiNode(NODE, drivers)) : List.of();
      return Storage.of(claimObjects, volumes, classes, csiNodes, List.of(), List.of());
    }

    Set<List<String>> volumesOf(List<Integer> claimIndexes) {
      var volumes = new HashSet<List<String>>();
      for (int i : claimIndexes) {
        claims.get(i).identity("c" + i).ifPresent(volumes::add);
      }
      return volumes;
    }

    /** @return the drivers that cannot take the new pod's volumes, by a brute-force count */
    Set<String> fullDrivers() {
      if (!hasCsiNode) {
        return Set.of();
      }
      var attached = new HashSet<List<String>>();
      existingPods.forEach(pod -> attached.addAll(volumesOf(pod)));
      var full = new HashSet<String>();
      for (var driver : DRIVERS) {
        int limit = limits.get(driver);
        var ofDriver = new HashSet<List<String>>();
        attached.stream().filter(v -> v.get(0).equals(driver)).forEach(ofDriver::add);
        var wanted = new HashSet<List<String>>();
        volumesOf(newPod).stream().filter(v -> v.get(0).equals(driver)).forEach(wanted::add);
        wanted.removeAll(ofDriver);
        ofDriver.addAll(wanted);
        if (limit >= 0 && !wanted.isEmpty() && ofDriver.size() > limit) {
          full.add(driver);
        }
      }
      return full;
    }
  }

  static PodInfo pod(String name, List<Integer> claimIndexes) {
    return PodInfo.builder(NAMESPACE, name)
        .uid("uid-" + name)
        .persistentVolumeClaims(claimIndexes.stream().map(i -> "c" + i).toList())
        .build();
  }

  /** Claims that count, mostly: the others are there to be ignored. */
  static Arbitrary<Kind> kinds() {
    return Arbitraries.frequency(
        Tuple.of(5, Kind.BOUND_CSI),
        Tuple.of(1, Kind.BOUND_NOT_CSI),
        Tuple.of(3, Kind.UNBOUND_OF_CLASS),
        Tuple.of(2, Kind.MISSING_VOLUME_OF_CLASS),
        Tuple.of(1, Kind.UNBOUND_WITHOUT_CLASS),
        Tuple.of(1, Kind.UNBOUND_OF_MISSING_CLASS));
  }

  @Provide
  Arbitrary<World> worlds() {
    var specs = Combinators.combine(
            kinds(), Arbitraries.of(DRIVERS), Arbitraries.of("h1", "h2", "h3", "h4"))
        .as(ClaimSpec::new)
        .list()
        .ofSize(CLAIMS);
    var indexes = Arbitraries.integers().between(0, CLAIMS - 1);
    var existing = indexes.list().ofMaxSize(3).list().ofMaxSize(4);
    var newPod = indexes.list().ofMinSize(1).ofMaxSize(3);
    // small limits mostly, so that full drivers are frequent; -1 (no limit) now and then
    var limit = Arbitraries.frequency(Tuple.of(1, -1), Tuple.of(2, 0), Tuple.of(3, 1), Tuple.of(3, 2), Tuple.of(1, 3));
    var limits = Combinators.combine(limit, limit).as((a, b) -> Map.of("d1", a, "d2", b));
    var hasCsiNode = Arbitraries.of(true, true, true, false);
    return Combinators.combine(specs, existing, newPod, hasCsiNode, limits).as(World::new);
  }

  @Property
  @Label("the verdict is the brute-force count's: rejected iff some limited driver gets new volumes beyond its limit")
  void verdictIsTheBruteForceCount(@ForAll("worlds") World world) {
    var existing = new ArrayList<PodInfo>();
    for (int i = 0; i < world.existingPods().size(); i++) {
      existing.add(pod("existing-" + i, world.existingPods().get(i)));
    }
    var newPod = pod("new", world.newPod());

    var result = new NodeVolumeLimitsFilter().prepare(newPod, snapshot(world.storage()))
        .filter(newPod, node(NODE, existing));

    var full = world.fullDrivers();
    if (full.isEmpty()) {
      assertEquals(FilterResult.fit(), result);
    } else {
      var rejected = (FilterResult.Rejected) result;
      assertEquals(Code.UNSCHEDULABLE, rejected.code());
      var reason = (NodeVolumeLimitsFilter.MaxVolumeCountExceeded) rejected.reasons().get(0);
      assertEquals(full.stream().sorted().findFirst().orElseThrow(), reason.driver());
      assertTrue(reason.attached() + reason.requested() > reason.limit());
    }
    Statistics.label("verdict").collect(full.isEmpty() ? "fit" : "exceeded");
    var onNode = new HashSet<List<String>>();
    world.existingPods().forEach(pod -> onNode.addAll(world.volumesOf(pod)));
    onNode.retainAll(world.volumesOf(world.newPod()));
    Statistics.label("a new volume already on the node").collect(!onNode.isEmpty());
    Statistics.label("verdict").coverage(c -> {
      c.check("fit").percentage(p -> p > 20);
      c.check("exceeded").percentage(p -> p > 5);
    });
    Statistics.label("a new volume already on the node").coverage(c -> c.check(true).percentage(p -> p > 5));
  }

  @Property
  @Label("when the hint skips a bound pod's deletion, its node does not turn from rejected to fitting")
  void hintSkipsOnlyDeletionsThatCannotHelp(
      @ForAll("worlds") World world, @ForAll("picks") int pick, @ForAll("inlineVolumes") List<Volume> inline) {
    if (world.existingPods().isEmpty()) {
      Statistics.label("hint").collect("not asked");
      return;
    }
    var existing = new ArrayList<PodInfo>();
    for (int i = 0; i < world.existingPods().size(); i++) {
      existing.add(pod("existing-" + i, world.existingPods().get(i)).toBuilder().nodeName(NODE).build());
    }
    int gone = pick % existing.size();
    existing.set(gone, existing.get(gone).toBuilder().volumes(inline).build());
    var deleted = existing.get(gone);
    var remaining = new ArrayList<>(existing);
    remaining.remove(gone);
    var newPod = pod("new", world.newPod());

    var filter = new NodeVolumeLimitsFilter();
    boolean hint = filter.isSchedulableAfter(newPod, new ClusterUpdate.AssignedPodDeleted(deleted));
    var prepared = filter.prepare(newPod, snapshot(world.storage()));
    boolean rejected = !prepared.filter(newPod, node(NODE, existing)).fits();
    boolean fits = prepared.filter(newPod, node(NODE, remaining)).fits();
    Statistics.label("hint").collect(hint ? "queue" : "skip");
    Statistics.label("turned from rejected to fitting").collect(rejected && fits);
    if (!hint) {
      Statistics.label("rejected, hint skips").collect(rejected);
      assertFalse(rejected && fits, () -> "after deleting " + deleted);
    }
    Statistics.label("hint").coverage(c -> {
      c.check("queue").count(n -> n > 0);
      c.check("skip").count(n -> n > 0);
    });
    Statistics.label("turned from rejected to fitting").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("rejected, hint skips").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Provide
  Arbitrary<Integer> picks() {
    return Arbitraries.integers().between(0, 11);
  }

  /** @return inline volumes of the deleted pod: none mostly, else of a kind this filter counts or not */
  @Provide
  Arbitrary<List<Volume>> inlineVolumes() {
    Arbitrary<Volume> csi = Arbitraries.of("a", "b").map(name -> new Volume.Csi("d1", name, false));
    return Arbitraries.oneOf(FilterFixtures.volumes(), csi).list().ofMaxSize(1);
  }

  @Provide
  Arbitrary<List<List<Integer>>> placements() {
    return Arbitraries.integers().between(0, CLAIMS - 1).list().ofMinSize(1).ofMaxSize(3).list().ofMinSize(1)
        .ofMaxSize(8);
  }

  @Property
  @Label("pods placed one by one where the filter accepts them never take a driver beyond its limit")
  void acceptedPlacementsStayWithinEveryLimit(
      @ForAll("worlds") World world, @ForAll("placements") List<List<Integer>> arrivals) {
    var storage = world.storage();
    var cluster = snapshot(storage);
    var filter = new NodeVolumeLimitsFilter();
    var placed = new ArrayList<PodInfo>();
    var placedClaims = new ArrayList<List<Integer>>();
    int rejected = 0;
    for (int i = 0; i < arrivals.size(); i++) {
      var pod = pod("arrival-" + i, arrivals.get(i));
      var result = filter.prepare(pod, cluster).filter(pod, node(NODE, placed));
      if (result.fits()) {
        placed.add(pod);
        placedClaims.add(arrivals.get(i));
      } else {
        assertEquals(Code.UNSCHEDULABLE, result.code());
        rejected++;
      }
      if (world.hasCsiNode()) {
        var perDriver = new HashMap<String, Integer>();
        var attached = new HashSet<List<String>>();
        placedClaims.forEach(claims -> attached.addAll(world.volumesOf(claims)));
        attached.forEach(v -> perDriver.merge(v.get(0), 1, Integer::sum));
        for (var driver : DRIVERS) {
          int limit = world.limits().get(driver);
          if (limit >= 0) {
            assertTrue(perDriver.getOrDefault(driver, 0) <= limit, driver + " over its limit " + limit);
          }
        }
      }
    }
    Statistics.label("some arrival rejected").collect(rejected > 0);
    Statistics.label("some arrival rejected").coverage(c -> {
      c.check(true).percentage(p -> p > 10);
      c.check(false).percentage(p -> p > 10);
    });
  }

  @Property
  @Label("a pod with a claim that does not exist is unresolvable on every node, with or without a CSINode")
  void aMissingClaimIsUnresolvable(@ForAll("worlds") World world) {
    var claims = new ArrayList<>(world.newPod().stream().map(i -> "c" + i).toList());
    claims.add("missing");
    var pod = PodInfo.builder(NAMESPACE, "new").uid("uid-new").persistentVolumeClaims(claims).build();

    var result = new NodeVolumeLimitsFilter().prepare(pod, snapshot(world.storage())).filter(pod, node(NODE,
        List.of()));

    assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, result.code());
  }
}
