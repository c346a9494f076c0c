package io.kubesched.engine;

import static io.kubesched.engine.StorageFixtures.NS;
import static io.kubesched.engine.StorageFixtures.claim;
import static io.kubesched.engine.StorageFixtures.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClaimRef;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.VolumeBinding;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
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

/**
 * {@link StorageCache} against a model: random sequences of volumes and claims put and removed, and
 * reservations made and released by several pods. After every step no volume is reserved for two different
 * claims, and {@link StorageCache#storage()} shows exactly the model's objects with its reservations laid
 * over them.
 *
 * <p>Small alphabets (three volumes, three claims, three pods) so that pods compete for the same volumes and
 * share claims within one chain; every way a reservation is refused is reached (see the coverage checks).
 */
class StorageCacheProperties {

  private static final List<String> VOLUMES = List.of("pv1", "pv2", "pv3");
  private static final List<String> CLAIMS = List.of("a", "b", "c");
  private static final List<String> PODS = List.of("p1", "p2", "p3");
  private static final List<String> NODES = List.of("n1", "n2");

  private record Reservation(String node, List<VolumeBinding> bindings) {}

  static final class Harness {
    final StorageCache cache = new StorageCache();
    final Map<String, PersistentVolume> volumes = new HashMap<>();
    final Map<String, PersistentVolumeClaim> claims = new HashMap<>();
    final Map<String, Reservation> reservations = new HashMap<>();

    void putVolume(PersistentVolume volume) {
      Statistics.label("action").collect("putVolume");
      cache.putVolume(volume);
      volumes.put(volume.name(), volume);
    }

    void removeVolume(String name) {
      Statistics.label("action").collect("removeVolume");
      cache.removeVolume(name);
      volumes.remove(name);
    }

    void putClaim(PersistentVolumeClaim claim) {
      Statistics.label("action").collect("putClaim");
      cache.putClaim(claim);
      claims.put(claim.name(), claim);
    }

    void removeClaim(String name) {
      Statistics.label("action").collect("removeClaim");
      cache.removeClaim(NS, name);
      claims.remove(name);
    }

    void reserve(String pod, String node, List<VolumeBinding> bindings) {
      Statistics.label("action").collect("reserve");
      reservations.remove(pod);
      var refusal = refusal(pod, bindings);
      var result = cache.reserve(pod, node, bindings);
      Statistics.label("outcome").collect(refusal == null ? "reserved" : refusal);
      assertEquals(refusal == null, result.isEmpty(), "reserve " + pod + " " + bindings + ": " + result);
      if (refusal == null && !bindings.isEmpty()) {
        reservations.put(pod, new Reservation(node, List.copyOf(bindings)));
      }
    }

    /** The model's reason to refuse, or null. */
    private String refusal(String pod, List<VolumeBinding> bindings) {
      var taking = new HashMap<String, String>();
      for (var binding : bindings) {
        var claim = claims.get(binding.claimName());
        if (claim == null) {
          return "refused: claim gone";
        }
        if (binding instanceof VolumeBinding.Static s) {
          var volume = volumes.get(s.volumeName());
          if (volume == null) {
            return "refused: volume gone";
          }
          var ref = volume.claimRef();
          if (ref != null && !ref.name().equals(s.claimName())) {
            return "refused: bound to another claim";
          }
          var other = taking.putIfAbsent(s.volumeName(), s.claimName());
          if (other != null && !other.equals(s.claimName())) {
            return "refused: two claims in one reservation";
          }
          for (var held : reservations.values()) {
            for (var h : held.bindings()) {
              if (h instanceof VolumeBinding.Static hs && hs.volumeName().equals(s.volumeName())) {
                if (!hs.claimName().equals(s.claimName())) {
                  return "refused: reserved to another claim";
                }
                Statistics.label("outcome").collect("volume shared by pods of one claim");
              }
            }
          }
        }
      }
      return null;
    }

    void release(String pod) {
      Statistics.label("action").collect("release");
      cache.release(pod);
      reservations.remove(pod);
    }

    void sameInstance() {
      Statistics.label("action").collect("sameInstance");
      var first = cache.storage();
      assertSame(first, cache.storage());
      volumes.values().stream().findFirst().ifPresent(v -> cache.putVolume(v)); // unchanged: no new view
      assertSame(first, cache.storage());
    }

    void checkInvariants() {
      var claimsByVolume = new HashMap<String, Set<String>>();
      for (var pod : PODS) {
        var held = reservations.get(pod);
        assertEquals(held == null ? List.of() : held.bindings(), cache.reserved(pod), "reserved " + pod);
        for (var binding : cache.reserved(pod)) {
          if (binding instanceof VolumeBinding.Static s) {
            claimsByVolume.computeIfAbsent(s.volumeName(), v -> new HashSet<>()).add(s.claimName());
          }
        }
      }
      claimsByVolume.forEach(
          (volume, reservedClaims) ->
              assertTrue(reservedClaims.size() <= 1, volume + " is reserved for " + reservedClaims));

      var storage = cache.storage();
      var expectedVolumes = new HashMap<>(volumes);
      var selectable = new HashMap<String, Set<String>>();
      for (var reservation : reservations.values()) {
        for (var binding : reservation.bindings()) {
          if (binding instanceof VolumeBinding.Static s) {
            expectedVolumes.computeIfPresent(
                s.volumeName(), (n, v) -> v.withClaimRef(new ClaimRef(NS, s.claimName(), s.claimUid())));
          } else {
            selectable.computeIfAbsent(binding.claimName(), c -> new HashSet<>()).add(reservation.node());
          }
        }
      }
      assertEquals(expectedVolumes, byKey(storage.volumes(), PersistentVolume::name), "volumes shown");
      var shownClaims = byKey(storage.claims(), PersistentVolumeClaim::name);
      assertEquals(claims.keySet(), shownClaims.keySet(), "claims shown");
      shownClaims.forEach(
          (name, shown) -> {
            var nodes = selectable.get(name);
            if (nodes == null) {
              assertEquals(claims.get(name), shown, "claim " + name + " as seen");
            } else {
              assertTrue(nodes.contains(shown.selectedNode()), "claim " + name + " shows a node reserved for it");
              assertEquals(claims.get(name).withSelectedNode(shown.selectedNode()), shown);
            }
          });
      assertEquals(volumes.keySet().stream().sorted().toList(),
          VOLUMES.stream().filter(v -> cache.seenVolume(v).isPresent()).toList(), "seen volumes");
    }

    private static <T> Map<String, T> byKey(List<T> values, Function<T, String> key) {
      return values.stream().collect(Collectors.toMap(key, v -> v));
    }
  }

  @Property(tries = 300)
  void no_volume_is_reserved_for_two_claims_and_storage_matches_the_model(
      @ForAll("chains") ActionChain<Harness> chain) {
    chain.withInvariant("cache agrees with the model", Harness::checkInvariants).run();

    Statistics.label("outcome")
        .coverage(
            coverage -> {
              for (var outcome :
                  List.of(
                      "reserved",
                      "refused: claim gone",
                      "refused: volume gone",
                      "refused: bound to another claim",
                      "refused: two claims in one reservation",
                      "refused: reserved to another claim",
                      "volume shared by pods of one claim")) {
                coverage.check(outcome).count(n -> n > 0);
              }
            });
  }

  @Provide
  Arbitrary<ActionChain<Harness>> chains() {
    var volumeNames = Arbitraries.of(VOLUMES);
    var claimNames = Arbitraries.of(CLAIMS);
    var pods = Arbitraries.of(PODS);
    Arbitrary<VolumeBinding> binding =
        Arbitraries.oneOf(
            Combinators.combine(claimNames, volumeNames)
                .as((c, v) -> (VolumeBinding) new VolumeBinding.Static(NS, c, "uid-" + c, v)),
            claimNames.map(c -> (VolumeBinding) new VolumeBinding.Provision(NS, c, "uid-" + c)));
    var boundTo = Arbitraries.of("", "a", "b", "c");
    return ActionChain.startWith(Harness::new)
        .withAction(3, just(Combinators.combine(volumeNames, boundTo)
            .as((v, c) -> Transformer.mutate("putVolume", h -> h.putVolume(volume(v, c.isEmpty() ? null : c))))))
        .withAction(1, just(volumeNames.map(v -> Transformer.mutate("removeVolume", h -> h.removeVolume(v)))))
        .withAction(3, just(claimNames.map(c -> Transformer.mutate("putClaim", h -> h.putClaim(claim(c))))))
        .withAction(1, just(claimNames.map(c -> Transformer.mutate("removeClaim", h -> h.removeClaim(c)))))
        .withAction(5, just(Combinators.combine(pods, Arbitraries.of(NODES), binding.list().ofMaxSize(3))
            .as((p, n, b) -> Transformer.mutate("reserve " + p + " " + b, h -> h.reserve(p, n, b)))))
        .withAction(2, just(pods.map(p -> Transformer.mutate("release " + p, h -> h.release(p)))))
        .withAction(1, just(Arbitraries.just(Transformer.<Harness>mutate("sameInstance", Harness::sameInstance))))
        .withMaxTransformations(40);
  }

  private static Action.Independent<Harness> just(Arbitrary<Transformer<Harness>> transformers) {
    return () -> transformers;
  }
}
