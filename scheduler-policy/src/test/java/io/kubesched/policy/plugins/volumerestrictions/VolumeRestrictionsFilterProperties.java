package io.kubesched.policy.plugins.volumerestrictions;

import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.nodeWith;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.StorageFixtures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class VolumeRestrictionsFilterProperties {

  private final VolumeRestrictionsFilter filter = new VolumeRestrictionsFilter();

  @Property
  @Label("a pod A fits beside a pod B iff B fits beside A")
  void conflictIsSymmetric(@ForAll("volumeLists") List<Volume> a, @ForAll("volumeLists") List<Volume> b) {
    PodInfo podA = pod("a").volumes(a).build();
    PodInfo podB = pod("b").volumes(b).build();

    var result = filter.filter(podA, nodeWith(podB));

    assertEquals(result.fits(), filter.filter(podB, nodeWith(podA)).fits());
    if (!result.fits()) {
      assertEquals(Code.UNSCHEDULABLE, result.code());
    }
    Statistics.label("fits").collect(result.fits());
    Statistics.label("fits")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 10);
              c.check(false).percentage(p -> p > 10);
            });
  }

  @Property
  @Label("a pod fits a node iff it fits beside each of the node's pods alone")
  void conflictsArePairwise(
      @ForAll("volumeLists") List<Volume> wanted,
      @ForAll("volumeLists") List<Volume> first,
      @ForAll("volumeLists") List<Volume> second) {
    PodInfo pod = pod("p").volumes(wanted).build();
    PodInfo a = pod("a").volumes(first).build();
    PodInfo b = pod("b").volumes(second).build();

    boolean fits = filter.filter(pod, nodeWith(a, b)).fits();

    assertEquals(filter.filter(pod, nodeWith(a)).fits() && filter.filter(pod, nodeWith(b)).fits(), fits);
    Statistics.label("fits").collect(fits);
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Property
  @Label("when every mount is read-only only EBS volumes can conflict, and then exactly on equal ids")
  void readOnlyMountsConflictOnlyOnEbs(
      @ForAll("volumeLists") List<Volume> wanted, @ForAll("volumeLists") List<Volume> existing) {
    var readOnlyWanted = wanted.stream().map(VolumeRestrictionsFilterProperties::readOnly).toList();
    var readOnlyExisting = existing.stream().map(VolumeRestrictionsFilterProperties::readOnly).toList();

    var node = nodeWith(pod("a").volumes(readOnlyExisting).build());

    boolean fits = filter.filter(pod("p").volumes(readOnlyWanted).build(), node).fits();

    boolean sharedEbs = !Collections.disjoint(ebsIds(readOnlyWanted), ebsIds(readOnlyExisting));
    assertEquals(!sharedEbs, fits);
    Statistics.label("shared EBS volume").collect(sharedEbs);
    Statistics.label("shared EBS volume").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Property
  @Label("a pod without volumes fits every node, and so does every pod on a node without volumes")
  void noVolumesNoConflict(@ForAll("volumeLists") List<Volume> volumes) {
    assertTrue(filter.filter(pod("p").build(), nodeWith(pod("a").volumes(volumes).build())).fits());
    assertTrue(filter.filter(pod("p").volumes(volumes).build(), nodeWith(pod("a").build())).fits());
  }

  @Property
  @Label("for a pod without claims the prepared filter says what the unprepared one says, and inline CSI "
      + "volumes change nothing")
  void preparedAgreesOnDisks(
      @ForAll("volumeLists") List<Volume> wanted,
      @ForAll("volumeLists") List<Volume> existing,
      @ForAll("csiVolumes") List<Volume> csi) {
    var node = nodeWith(pod("a").volumes(existing).build());
    var pod = pod("p").volumes(wanted).build();
    var withCsi = pod("p").volumes(concat(wanted, csi)).build();
    var nodeWithCsi = nodeWith(pod("a").volumes(concat(csi, existing)).build());

    var unprepared = filter.filter(pod, node);
    var cluster = ClusterSnapshot.of(List.of(nodeWithCsi));

    assertEquals(unprepared, filter.prepare(pod, cluster).filter(pod, node));
    assertEquals(unprepared, filter.prepare(withCsi, cluster).filter(withCsi, nodeWithCsi));
    Statistics.label("fits").collect(unprepared.fits());
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Provide
  Arbitrary<List<Volume>> csiVolumes() {
    return Combinators.combine(Arbitraries.of("csi.a", "csi.b"), Arbitraries.of("a", "b"), Arbitraries.of(true, false))
        .as((driver, name, readOnly) -> (Volume) new Volume.Csi(driver, name, readOnly))
        .list()
        .ofMaxSize(2);
  }

  private static List<Volume> concat(List<Volume> a, List<Volume> b) {
    var all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * A pod of a placement sequence.
   *
   * @param namespace its namespace
   * @param claims the claims its {@code persistentVolumeClaim} volumes name
   * @param nodeIndex the node it is tried on
   */
  record Placement(String namespace, List<String> claims, int nodeIndex) {}

  /** The namespaces of {@link #claims()}. */
  static final List<String> NAMESPACES = List.of("default", "other");

  /**
   * @return in each of {@link #NAMESPACES}, claims {@code r1} ({@code ReadWriteOncePod}), {@code r2}
   *     ({@code ReadWriteOncePod} and {@code ReadWriteOnce}) and {@code x} ({@code ReadWriteMany})
   */
  static List<PersistentVolumeClaim> claims() {
    var claims = new ArrayList<PersistentVolumeClaim>();
    for (var namespace : NAMESPACES) {
      claims.add(StorageFixtures.claim(namespace, "r1", "", "", Set.of(AccessMode.READ_WRITE_ONCE_POD)));
      claims.add(StorageFixtures.claim(
          namespace, "r2", "", "", Set.of(AccessMode.READ_WRITE_ONCE_POD, AccessMode.READ_WRITE_ONCE)));
      claims.add(StorageFixtures.claim(namespace, "x", "", "", Set.of(AccessMode.READ_WRITE_MANY)));
    }
    return List.copyOf(claims);
  }
  private static final List<String> NODE_NAMES = List.of("n0", "n1", "n2");

  @Property
  @Label("in any placement sequence the filter accepts, a ReadWriteOncePod claim is used by at most one pod, "
      + "and a pod is turned away only for a claim in use")
  void readWriteOncePodClaimsHaveOnePod(@ForAll("placements") List<Placement> sequence) {
    var storage = StorageFixtures.storage(claims(), List.of(), List.of());
    var placed = new ArrayList<List<PodInfo>>();
    NODE_NAMES.forEach(name -> placed.add(new ArrayList<>()));

    int step = 0;
    for (var placement : sequence) {
      var pod = PodInfo.builder(placement.namespace(), "p" + step++)
          .persistentVolumeClaims(placement.claims())
          .build();
      var nodes = new ArrayList<NodeInfo>();
      for (int i = 0; i < NODE_NAMES.size(); i++) {
        nodes.add(node(NODE_NAMES.get(i)).pods(placed.get(i)).build());
      }
      var result = filter.prepare(pod, ClusterSnapshot.of(nodes).withStorage(storage))
          .filter(pod, nodes.get(placement.nodeIndex()));

      boolean claimInUse = placement.claims().stream()
          .filter(claim -> claim.startsWith("r"))
          .anyMatch(claim -> placed.stream().flatMap(List::stream).anyMatch(other ->
              other.namespace().equals(placement.namespace()) && other.persistentVolumeClaims().contains(claim)));
      assertEquals(!claimInUse, result.fits(), result::toString);
      if (result.fits()) {
        placed.get(placement.nodeIndex()).add(pod);
      } else {
        assertEquals(Code.UNSCHEDULABLE, result.code());
      }
      Statistics.label("step").collect(result.fits() ? "accepted" : "rejected");
    }

    for (var namespace : NAMESPACES) {
      for (var claim : List.of("r1", "r2")) {
        long users = placed.stream().flatMap(List::stream)
            .filter(pod -> pod.namespace().equals(namespace) && pod.persistentVolumeClaims().contains(claim))
            .count();
        assertTrue(users <= 1, () -> namespace + "/" + claim + " is used by " + users + " pods");
      }
    }
    Statistics.label("step")
        .coverage(
            c -> {
              c.check("accepted").count(n -> n > 0);
              c.check("rejected").count(n -> n > 0);
            });
  }

  @Provide
  Arbitrary<List<Placement>> placements() {
    return Combinators.combine(
            Arbitraries.of(NAMESPACES),
            Arbitraries.of("r1", "r2", "x").list().ofMaxSize(2),
            Arbitraries.integers().between(0, NODE_NAMES.size() - 1))
        .as(Placement::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(8);
  }

  @Property
  @Label("when the hint skips a bound pod's deletion, no node turns from rejected to fitting")
  void hintSkipsOnlyDeletionsThatCannotHelp(
      @ForAll("pendingPods") PodInfo pod,
      @ForAll("existingPods") List<List<PodInfo>> placed,
      @ForAll("picks") int nodePick,
      @ForAll("picks") int podPick) {
    var nodes = new ArrayList<NodeInfo>();
    for (int i = 0; i < placed.size(); i++) {
      var name = NODE_NAMES.get(i);
      nodes.add(node(name).pods(placed.get(i).stream().map(p -> p.toBuilder().nodeName(name).build()).toList())
          .build());
    }
    var from = nodes.get(nodePick % nodes.size());
    var gone = from.pods().isEmpty() ? null : from.pods().get(podPick % from.pods().size());
    if (gone == null) {
      Statistics.label("hint").collect("not asked");
      return;
    }
    var remaining = new ArrayList<>(from.pods());
    remaining.remove(gone);
    var after = nodes.stream().map(n -> n == from ? node(n.name()).pods(remaining).build() : n).toList();
    var storage = StorageFixtures.storage(claims(), List.of(), List.of());

    boolean hint = filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(gone));
    var preparedBefore = filter.prepare(pod, ClusterSnapshot.of(nodes).withStorage(storage));
    var preparedAfter = filter.prepare(pod, ClusterSnapshot.of(after).withStorage(storage));
    Statistics.label("hint").collect(hint ? "queue" : "skip");
    for (int i = 0; i < nodes.size(); i++) {
      var node = nodes.get(i);
      boolean rejected = !preparedBefore.filter(pod, node).fits();
      boolean fits = preparedAfter.filter(pod, after.get(i)).fits();
      Statistics.label("node turned from rejected to fitting").collect(rejected && fits);
      if (!hint) {
        Statistics.label("rejected node, hint skips").collect(rejected);
        assertFalse(rejected && fits, () -> "node " + node.name() + " after deleting " + gone);
      }
    }
    Statistics.label("hint").coverage(c -> {
      c.check("queue").count(n -> n > 0);
      c.check("skip").count(n -> n > 0);
    });
    Statistics.label("node turned from rejected to fitting").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("rejected node, hint skips").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Provide
  Arbitrary<PodInfo> pendingPods() {
    return pods("default");
  }

  /** @return up to two pods on each of one to three nodes, of either namespace */
  @Provide
  Arbitrary<List<List<PodInfo>>> existingPods() {
    return Arbitraries.of(NAMESPACES).flatMap(VolumeRestrictionsFilterProperties::pods)
        .list().ofMaxSize(2).list().ofMinSize(1).ofMaxSize(NODE_NAMES.size());
  }

  @Provide
  Arbitrary<Integer> picks() {
    return Arbitraries.integers().between(0, 5);
  }

  private static Arbitrary<PodInfo> pods(String namespace) {
    return Combinators.combine(
            FilterFixtures.volumes().list().ofMaxSize(2),
            Arbitraries.of("r1", "r2", "x").list().ofMaxSize(1),
            Arbitraries.integers().between(0, 99))
        .as((volumes, claims, id) -> PodInfo.builder(namespace, "q" + id)
            .volumes(volumes)
            .persistentVolumeClaims(claims)
            .build());
  }

  private static Set<String> ebsIds(List<Volume> volumes) {
    return volumes.stream()
        .filter(Volume.AwsElasticBlockStore.class::isInstance)
        .map(v -> ((Volume.AwsElasticBlockStore) v).volumeId())
        .collect(Collectors.toSet());
  }

  private static Volume readOnly(Volume volume) {
    if (volume instanceof Volume.GcePersistentDisk gce) {
      return new Volume.GcePersistentDisk(gce.pdName(), true);
    }
    if (volume instanceof Volume.AwsElasticBlockStore ebs) {
      return new Volume.AwsElasticBlockStore(ebs.volumeId(), true);
    }
    if (volume instanceof Volume.Rbd rbd) {
      return new Volume.Rbd(rbd.monitors(), rbd.pool(), rbd.image(), true);
    }
    var iscsi = (Volume.Iscsi) volume;
    return new Volume.Iscsi(iscsi.targetPortal(), iscsi.iqn(), iscsi.lun(), true);
  }

  @Provide
  Arbitrary<List<Volume>> volumeLists() {
    return FilterFixtures.volumes().list().ofMinSize(1).ofMaxSize(3);
  }
}
