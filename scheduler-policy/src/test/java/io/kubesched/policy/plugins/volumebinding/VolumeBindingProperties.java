package io.kubesched.policy.plugins.volumebinding;

import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.G;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.HOSTNAME;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.claim;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.node;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.snapshot;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.storage;
import static io.kubesched.policy.plugins.volumebinding.VolumeFixtures.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClaimRef;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.StorageClass;
import io.kubesched.api.VolumeBinding;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.VolumeBinder;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingFilter.ClaimsUnusable;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingFilter.Conflict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Properties of the VolumeBinding filter over generated storage: claims missing, being deleted, bound (to a
 * volume that exists or not), pre-bound or unbound, of Immediate, WaitForFirstConsumer (with or without a
 * provisioner) or no class; volumes of those classes with sizes, access modes, hostname node affinity, phases,
 * deletion and reservations.
 */
class VolumeBindingProperties {

  private static final String WAIT = "wait";
  private static final String WAIT_PROV = "wait-prov";
  private static final String IMMEDIATE = "immediate";
  private static final List<String> VOLUME_CLASSES = List.of(WAIT, WAIT_PROV, IMMEDIATE);
  private static final List<String> CLAIM_CLASSES = List.of(WAIT, WAIT_PROV, IMMEDIATE, "");
  private static final List<StorageClass> CLASSES = List.of(
      new StorageClass(WAIT, StorageClass.NO_PROVISIONER, true, List.of()),
      new StorageClass(WAIT_PROV, "example.com/csi", true, List.of()),
      new StorageClass(IMMEDIATE, "example.com/csi", false, List.of()));
  private static final List<Set<AccessMode>> MODES = List.of(
      Set.of(AccessMode.READ_WRITE_ONCE),
      Set.of(AccessMode.READ_WRITE_MANY),
      Set.of(AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY));
  private static final List<NodeInfo> NODES = List.of(node("n0"), node("n1"), node("n2"));
  private static final int MAX_VOLUMES = 6;

  /** A generated claim: what state it is in, its class, request, the volume it names and its access modes. */
  record ClaimSpec(int state, int cls, int request, int boundTo, int modes) {}

  /**
   * A generated volume.
   *
   * @param affinity 0: none; 1..3: node {@code affinity-1}; 4..6: nodes {@code affinity-4} and the next one
   * @param reservation 0..7: none; 8: another pod's claim; 9: a claim of the pod (where allowed)
   */
  record VolumeSpec(int cls, int capacity, int modes, int affinity, int phase, int deleting, int reservation) {}

  /** The generated cluster and pod. */
  record World(PodInfo pod, List<PersistentVolumeClaim> claims, List<PersistentVolume> volumes) {
    ClusterSnapshot cluster() {
      return snapshot(NODES, storage(claims, volumes, CLASSES, List.of(), List.of()));
    }
  }

  @Provide
  Arbitrary<World> worlds() {
    return world(false);
  }

  @Provide
  Arbitrary<World> reservedWorlds() {
    return world(true);
  }

  private static Arbitrary<World> world(boolean varied) {
    var claims = Combinators.combine(
            // Where bindings are the point, the claims are mostly unbound WaitForFirstConsumer ones.
            Arbitraries.integers().between(varied ? 5 : 0, 19),
            Arbitraries.integers().between(0, varied ? 1 : CLAIM_CLASSES.size() - 1),
            Arbitraries.integers().between(1, varied ? 3 : 5),
            Arbitraries.integers().between(0, MAX_VOLUMES),
            Arbitraries.integers().between(0, MODES.size() - 1))
        .as(ClaimSpec::new)
        .list().ofMinSize(varied ? 2 : 0).ofMaxSize(3);
    var volumes = Combinators.combine(
            Arbitraries.integers().between(0, varied ? 1 : VOLUME_CLASSES.size() - 1),
            Arbitraries.integers().between(1, 5),
            Arbitraries.integers().between(0, MODES.size() - 1),
            Arbitraries.integers().between(0, 6),
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().between(0, 9))
        .as(VolumeSpec::new)
        .list().ofMinSize(varied ? 3 : 0).ofMaxSize(MAX_VOLUMES);
    return Combinators.combine(claims, volumes, Arbitraries.integers().between(0, MODES.size() - 1))
        .as((c, v, podModes) -> build(c, v, podModes, varied));
  }

  /**
   * @param varied whether claims have their own access modes and volumes may be pre-bound to the pod's claims;
   *     otherwise the pod's claims share {@code podModes} and a volume is reserved only to another pod's claim,
   *     so that kube's greedy choice finds a matching whenever one exists (see {@link #reference})
   */
  private static World build(List<ClaimSpec> claimSpecs, List<VolumeSpec> volumeSpecs, int podModes, boolean varied) {
    var podClaims = new ArrayList<String>();
    var claims = new ArrayList<PersistentVolumeClaim>();
    for (int i = 0; i < claimSpecs.size(); i++) {
      var spec = claimSpecs.get(i);
      var name = "c" + i;
      podClaims.add(name);
      var builder = claim(name, CLAIM_CLASSES.get(spec.cls())).uid("uid-" + name).request(spec.request() * G)
          .accessModes(MODES.get(varied ? spec.modes() : podModes).toArray(AccessMode[]::new));
      var boundVolume = spec.boundTo() == MAX_VOLUMES ? "pv-missing" : "pv-" + spec.boundTo();
      int state = spec.state();
      if (state == 0) {
        continue; // missing
      } else if (state == 1) {
        builder.deleting();
      } else if (state <= 5) {
        builder.boundTo(boundVolume);
      } else if (state == 6) {
        builder.preboundTo(boundVolume);
      }
      claims.add(builder.build());
    }
    var volumes = new ArrayList<PersistentVolume>();
    for (int j = 0; j < volumeSpecs.size(); j++) {
      var spec = volumeSpecs.get(j);
      var builder = volume("pv-" + j, VOLUME_CLASSES.get(spec.cls())).capacity(spec.capacity() * G)
          .accessModes(MODES.get(spec.modes()).toArray(AccessMode[]::new))
          .phase(spec.phase() < 7 ? PersistentVolume.Phase.AVAILABLE
              : spec.phase() == 7 ? PersistentVolume.Phase.BOUND : PersistentVolume.Phase.PENDING);
      if (spec.affinity() >= 1 && spec.affinity() <= 3) {
        builder.affinity(HOSTNAME, "n" + (spec.affinity() - 1));
      } else if (spec.affinity() >= 4) {
        builder.affinity(HOSTNAME, "n" + (spec.affinity() - 4), "n" + ((spec.affinity() - 3) % 3));
      }
      if (spec.deleting() == 0) {
        builder.deleting();
      }
      if (spec.reservation() == 8 || (spec.reservation() == 9 && !(varied && !claims.isEmpty()))) {
        builder.claimRef(new ClaimRef("other", "claim", "other-uid"));
      } else if (spec.reservation() == 9) {
        builder.claimRef(claims.get(j % claims.size()));
      }
      volumes.add(builder.build());
    }
    var pod = PodInfo.builder("default", "pod").uid("pod-uid").persistentVolumeClaims(podClaims).build();
    return new World(pod, claims, volumes);
  }

  private static boolean admits(PersistentVolume volume, NodeInfo node) {
    return volume.nodeAffinity().isEmpty()
        || volume.nodeAffinity().get(0).matchExpressions().get(0).values().contains(node.name());
  }

  /**
   * A brute-force reading of kube's rules: PreFilter's checks claim by claim, then per node the first bound
   * claim whose volume is missing or elsewhere, and whether some assignment of distinct eligible volumes to the
   * unbound claims leaves unassigned only claims of a class that provisions. (Where the pod's claims share their
   * access modes and no volume is pre-bound to them, the claims a volume can serve are those up to its size, so
   * kube's smallest-first choice finds such an assignment whenever one exists.)
   */
  static List<Reason> reference(World world, NodeInfo node) {
    var byName = new HashMap<String, PersistentVolumeClaim>();
    world.claims().forEach(c -> byName.put(c.name(), c));
    var podClaims = new ArrayList<PersistentVolumeClaim>();
    for (var name : world.pod().persistentVolumeClaims()) {
      var claim = byName.get(name);
      if (claim == null) {
        return List.of(new ClaimsUnusable("persistentvolumeclaim \"" + name + "\" not found"));
      }
      if (claim.deleting()) {
        return List.of(new ClaimsUnusable("persistentvolumeclaim \"" + name + "\" is being deleted"));
      }
      podClaims.add(claim);
    }
    var delayed = new ArrayList<PersistentVolumeClaim>();
    var bound = new ArrayList<PersistentVolumeClaim>();
    for (var claim : podClaims) {
      boolean wffc = claim.storageClassName().equals(WAIT) || claim.storageClassName().equals(WAIT_PROV);
      if (!claim.volumeName().isEmpty() && claim.bindCompleted()) {
        bound.add(claim);
      } else if (wffc && claim.volumeName().isEmpty()) {
        delayed.add(claim);
      } else {
        return List.of(new ClaimsUnusable(VolumeBindingFilter.UNBOUND_IMMEDIATE_CLAIMS));
      }
    }
    Optional<Conflict> boundConflict = Optional.empty();
    for (var claim : bound) {
      var volume = world.volumes().stream().filter(v -> v.name().equals(claim.volumeName())).findFirst();
      if (volume.isEmpty()) {
        boundConflict = Optional.of(Conflict.VOLUME_NOT_FOUND);
        break;
      }
      if (!admits(volume.get(), node)) {
        boundConflict = Optional.of(Conflict.NODE_AFFINITY);
        break;
      }
    }
    boolean unboundSatisfied = assignable(delayed, 0, world.volumes(), new HashSet<>(), node);
    var reasons = new ArrayList<Reason>();
    boundConflict.filter(c -> c == Conflict.NODE_AFFINITY).ifPresent(reasons::add);
    if (!unboundSatisfied) {
      reasons.add(Conflict.NO_MATCHING_VOLUME);
    }
    boundConflict.filter(c -> c == Conflict.VOLUME_NOT_FOUND).ifPresent(reasons::add);
    return reasons;
  }

  private static boolean assignable(
      List<PersistentVolumeClaim> claims, int index, List<PersistentVolume> volumes, Set<String> used, NodeInfo node) {
    if (index == claims.size()) {
      return true;
    }
    var claim = claims.get(index);
    if (claim.storageClassName().equals(WAIT_PROV) && assignable(claims, index + 1, volumes, used, node)) {
      return true;
    }
    for (var volume : volumes) {
      if (!used.contains(volume.name()) && eligible(volume, claim, node)) {
        used.add(volume.name());
        boolean rest = assignable(claims, index + 1, volumes, used, node);
        used.remove(volume.name());
        if (rest) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean eligible(PersistentVolume volume, PersistentVolumeClaim claim, NodeInfo node) {
    return volume.storageClassName().equals(claim.storageClassName())
        && volume.phase() == PersistentVolume.Phase.AVAILABLE
        && !volume.deleting()
        && volume.claimRef() == null
        && volume.capacityBytes() >= claim.requestedBytes()
        && volume.accessModes().containsAll(claim.accessModes())
        && admits(volume, node);
  }

  /** @return whether on some node some free volume is eligible for two of the pod's unbound claims */
  private static boolean contested(World world) {
    var unbound = world.claims().stream().filter(c -> c.volumeName().isEmpty() && !c.deleting()).toList();
    for (var node : NODES) {
      for (var volume : world.volumes()) {
        if (unbound.stream().filter(c -> eligible(volume, c, node)).count() >= 2) {
          return true;
        }
      }
    }
    return false;
  }

  private static String verdict(List<Reason> reasons) {
    if (reasons.isEmpty()) {
      return "fit";
    }
    var first = reasons.get(0);
    if (first instanceof ClaimsUnusable unusable) {
      var message = unusable.message();
      return message.endsWith("not found") ? "claim not found"
          : message.endsWith("being deleted") ? "claim being deleted" : "unbound immediate claim";
    }
    return ((Conflict) first).name();
  }

  @Property(tries = 2000)
  @Label("the filter's verdict on each node is the brute-force reference's")
  void verdictMatchesReference(@ForAll("worlds") World world, @ForAll @IntRange(min = 0, max = 2) int sampled) {
    var filter = new VolumeBindingFilter().prepare(world.pod(), world.cluster());
    for (var node : NODES) {
      var expected = reference(world, node);
      var result = filter.filter(world.pod(), node);
      if (expected.isEmpty()) {
        assertEquals(FilterResult.fit(), result, node.name());
      } else {
        assertEquals(FilterResult.unresolvable(expected.toArray(Reason[]::new)), result, node.name());
      }
    }
    Statistics.label("verdict").collect(verdict(reference(world, NODES.get(sampled))));
    Statistics.label("verdict").coverage(c -> {
      c.check("fit").percentage(p -> p > 10);
      c.check("claim not found").count(n -> n > 0);
      c.check("claim being deleted").count(n -> n > 0);
      c.check("unbound immediate claim").count(n -> n > 0);
      c.check("NODE_AFFINITY").count(n -> n > 0);
      c.check("NO_MATCHING_VOLUME").count(n -> n > 0);
      c.check("VOLUME_NOT_FOUND").count(n -> n > 0);
    });
  }

  @Property(tries = 2000)
  @Label("a pod's planned static bindings name distinct volumes, each free or pre-bound to its claim and fitting it")
  void staticBindingsAreDistinctAndFit(@ForAll("reservedWorlds") World world) {
    var cluster = world.cluster();
    var filter = new VolumeBindingFilter().prepare(world.pod(), cluster);
    int mostStatic = 0;
    for (var node : NODES) {
      var bindings = filter instanceof VolumeBinder binder ? binder.volumeBindings(node) : List.<VolumeBinding>of();
      if (!(filter instanceof VolumeBindingFilter.Prepared prepared)) {
        assertEquals(List.of(), bindings);
        continue;
      }
      // What the policy is handed for an accepted node is the plan; a rejected node's partial plan is checked too.
      var plan = prepared.plan(node);
      assertEquals(plan.fits() ? plan.bindings() : List.of(), bindings);
      var named = new HashSet<String>();
      var claimsBound = new HashSet<String>();
      int statics = 0;
      for (var planned : plan.staticBindings()) {
        var claim = planned.claim();
        var volume = planned.volume();
        statics++;
        assertTrue(claimsBound.add(claim.name()), "one binding per claim: " + plan);
        assertTrue(named.add(volume.name()), "volume named twice: " + plan);
        assertEquals(cluster.storage().volume(volume.name()), Optional.of(volume));
        assertEquals(cluster.storage().claim(claim.namespace(), claim.name()), Optional.of(claim));
        var ref = volume.claimRef();
        boolean preBound = ref != null && ref.refersTo(claim);
        assertTrue(ref == null || preBound, "volume reserved to another claim");
        assertTrue(preBound || volume.phase() == PersistentVolume.Phase.AVAILABLE, "volume not available");
        assertTrue(volume.capacityBytes() >= claim.requestedBytes());
        assertEquals(claim.storageClassName(), volume.storageClassName());
        assertTrue(preBound || volume.accessModes().containsAll(claim.accessModes()));
        assertEquals(claim.volumeMode(), volume.volumeMode());
        assertTrue(!volume.deleting() && admits(volume, node));
        assertTrue(claim.volumeName().isEmpty());
      }
      mostStatic = Math.max(mostStatic, statics);
    }
    Statistics.label("static bindings on a node").collect(Math.min(mostStatic, 2));
    Statistics.label("a volume two unbound claims could take").collect(contested(world));
    Statistics.label("a volume two unbound claims could take").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("static bindings on a node").coverage(c -> {
      c.check(0).count(n -> n > 0);
      c.check(1).count(n -> n > 0);
      c.check(2).count(n -> n > 0);
    });
  }
}
