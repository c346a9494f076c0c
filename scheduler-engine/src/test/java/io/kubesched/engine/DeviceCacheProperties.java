package io.kubesched.engine;

import static io.kubesched.engine.DraFixtures.NS;
import static io.kubesched.engine.DraFixtures.allocation;
import static io.kubesched.engine.DraFixtures.assumed;
import static io.kubesched.engine.DraFixtures.claim;
import static io.kubesched.engine.DraFixtures.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.api.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * {@link DeviceCache} against a model: claims put, written and deleted by the watch, and pods that allocate
 * devices from what {@link DeviceCache#dynamicResources()} shows (as the allocator does), assume them, and are
 * forgotten or confirmed by the watch. After every step no device is shown in two claims' allocations, each pod
 * still holds exactly what the model says is pending, and a claim no pending assumption names shows exactly what
 * the watch showed; forgetting every pod restores the informer's view. A pod may also allocate the claim for its
 * extended resources, which does not exist yet: the binder then creates it ({@link DeviceCache#created}), the watch
 * showing it before, after, or already allocated; its device stays taken throughout.
 *
 * <p>Small alphabets (three claims, two devices, three pods) so that claims compete for devices and share claims.
 */
class DeviceCacheProperties {

  private static final List<String> CLAIMS = List.of("a", "b", "c");
  private static final List<String> DEVICES = List.of("g0", "g1");
  private static final List<String> PODS = List.of("p1", "p2", "p3");

  static final class Harness {
    final DeviceCache cache = new DeviceCache();
    /** What the watch last showed, by claim name. */
    final Map<String, ResourceClaim> seen = new HashMap<>();
    /** Each pod's pending assumptions, as the model drops them. */
    final Map<String, List<ClaimAllocation>> pending = new LinkedHashMap<>();
    int generation;

    void putClaim(String name, boolean newUid) {
      var before = seen.get(name);
      var uid = before == null || newUid ? "uid-" + name + "-" + generation++ : before.uid();
      var fresh = claim(name, uid);
      Statistics.label("action").collect(before != null && !before.uid().equals(uid) ? "replace claim" : "put claim");
      cache.putClaim(fresh);
      seen.put(name, fresh);
      dropModel(name, fresh);
    }

    void removeClaim(String name) {
      Statistics.label("action").collect("remove claim");
      cache.removeClaim(NS, name);
      seen.remove(name);
      dropModel(name, null);
    }

    /** The allocator: for each claim the pod uses, a device free in what the cache shows, or the claim shared. */
    void allocateAndAssume(String pod, List<String> claimNames, int preference, boolean extended) {
      Statistics.label("action").collect("assume");
      var view = cache.dynamicResources();
      var taken = new HashSet<String>();
      view.claims().forEach(c -> devices(c).forEach(taken::add));
      var allocations = new ArrayList<ClaimAllocation>();
      for (var name : claimNames) {
        var shown = view.claim(NS, name).orElse(null);
        if (shown == null) {
          continue;
        }
        if (shown.allocation() != null) {
          Statistics.label("assumed").collect("shared an allocated claim");
          allocations.add(assumed(shown, null));
          continue;
        }
        String free = null;
        for (int i = 0; i < DEVICES.size() && free == null; i++) {
          var device = DEVICES.get((preference + i) % DEVICES.size());
          if (!taken.contains(device)) {
            free = device;
          }
        }
        if (free == null) {
          Statistics.label("assumed").collect("no device left");
          return; // all or nothing, as the allocator
        }
        taken.add(free);
        allocations.add(assumed(shown, allocation(free)));
      }
      if (extended) {
        String free = DEVICES.stream().filter(d -> !taken.contains(d)).findFirst().orElse(null);
        if (free == null) {
          Statistics.label("assumed").collect("no device left");
          return;
        }
        Statistics.label("assumed").collect("a claim to create");
        allocations.add(new ClaimAllocation(NS, ExtendedResourceClaim.NAME_BEFORE_CREATION, "extended-" + pod,
            allocation(free), new ExtendedResourceClaim(pod, pod, List.of(), List.of())));
      }
      cache.assume(pod, allocations);
      pending.remove(pod);
      var kept = allocations.stream().filter(a -> !showsAlready(a, pod)).toList();
      if (!kept.isEmpty()) {
        Statistics.label("assumed").collect("allocated");
        pending.put(pod, kept);
      }
    }

    /**
     * The binder creates the pod's claim for extended resources and writes its allocation; the watch shows it
     * ({@code shown}) not yet (0), created unallocated (1), or already allocated (2) when {@code created} is called.
     */
    void create(String pod, int shown) {
      var held = pending.get(pod);
      var toCreate = held == null ? null : held.stream().filter(ClaimAllocation::toCreate).findFirst().orElse(null);
      if (toCreate == null) {
        return;
      }
      Statistics.label("action").collect("create, shown " + shown);
      var name = "x-" + pod + "-" + generation;
      var created = toCreate.created(name, "uid-" + name + "-" + generation++);
      if (shown > 0) {
        var claim = claim(name, created.uid());
        var now = shown == 2 ? written(claim, java.util.Objects.requireNonNull(created.allocation()), pod) : claim;
        cache.putClaim(now);
        seen.put(name, now);
      }
      cache.created(pod, toCreate.uid(), name, created.uid());
      var kept = new ArrayList<ClaimAllocation>();
      for (var a : held) {
        if (a != toCreate) {
          kept.add(a);
        } else if (!showsAlready(created, pod)) {
          kept.add(created);
        }
      }
      if (kept.isEmpty()) {
        pending.remove(pod);
      } else {
        pending.put(pod, kept);
      }
    }

    void forget(String pod) {
      Statistics.label("action").collect("forget");
      cache.forget(pod);
      pending.remove(pod);
    }

    /** The binder's write of the pod's claims lands, and the watch shows each. */
    void confirm(String pod) {
      var held = pending.get(pod);
      if (held == null) {
        return;
      }
      Statistics.label("action").collect("confirm");
      for (var a : List.copyOf(held)) {
        if (a.toCreate()) {
          continue; // not created yet: nothing to write
        }
        var now = seen.get(a.name());
        if (now == null || !now.uid().equals(a.uid())) {
          continue;
        }
        var reserved = new ArrayList<>(now.reservedFor());
        reserved.add(ConsumerRef.pod(pod, pod));
        var shown = a.allocation() != null ? written(now, a.allocation(), pod) : now.withReservedFor(reserved);
        if (a.allocation() == null && now.allocation() == null) {
          continue; // what it shared was another pod's assumption, not written yet
        }
        cache.putClaim(shown);
        seen.put(a.name(), shown);
        dropModel(a.name(), shown);
      }
    }

    void forgetEveryone() {
      Statistics.label("action").collect("forget everyone");
      PODS.forEach(cache::forget);
      pending.clear();
      assertEquals(
          new HashSet<>(seen.values()), new HashSet<>(cache.dynamicResources().claims()), "forget restores the watch's view");
    }

    void sameInstance() {
      var first = cache.dynamicResources();
      assertSame(first, cache.dynamicResources());
    }

    private boolean showsAlready(ClaimAllocation a, String pod) {
      var now = seen.get(a.name());
      return now != null && now.uid().equals(a.uid()) && shows(now, a, pod);
    }

    private static boolean shows(ResourceClaim now, ClaimAllocation a, String pod) {
      return a.allocation() != null
          ? now.allocation() != null
          : now.reservedFor().stream().anyMatch(c -> c.uid().equals(pod));
    }

    private void dropModel(String name, ResourceClaim now) {
      for (var pod : List.copyOf(pending.keySet())) {
        var kept =
            pending.get(pod).stream()
                .filter(a -> !a.name().equals(name) || (now != null && now.uid().equals(a.uid()) && !shows(now, a, pod)))
                .toList();
        if (kept.isEmpty()) {
          pending.remove(pod);
        } else {
          pending.put(pod, kept);
        }
      }
    }

    void checkInvariants() {
      for (var pod : PODS) {
        assertEquals(pending.getOrDefault(pod, List.of()), cache.assumed(pod), "pending of " + pod);
      }
      var view = cache.dynamicResources();
      var claimsByDevice = new HashMap<String, Set<String>>();
      for (var shown : view.claims()) {
        devices(shown).forEach(d -> claimsByDevice.computeIfAbsent(d, x -> new HashSet<>()).add(shown.uid()));
      }
      claimsByDevice.forEach((device, holders) -> assertTrue(holders.size() <= 1, device + " shown in " + holders));
      var toCreate = pending.values().stream().flatMap(List::stream).filter(ClaimAllocation::toCreate)
          .map(ClaimAllocation::uid).collect(Collectors.toSet());
      assertEquals(toCreate, view.claims().stream()
          .filter(c -> c.name().equals(ExtendedResourceClaim.NAME_BEFORE_CREATION)).map(ResourceClaim::uid)
          .collect(Collectors.toSet()), "a claim to create is shown, allocated, until created");
      var createdUnseen = pending.values().stream().flatMap(List::stream)
          .filter(a -> a.create() != null && !a.toCreate() && a.allocation() != null && !seen.containsKey(a.name()))
          .collect(Collectors.toMap(ClaimAllocation::name, a -> a));
      var expectedNames = new HashSet<>(seen.keySet());
      expectedNames.addAll(createdUnseen.keySet());
      assertEquals(expectedNames, view.claims().stream().map(ResourceClaim::name)
          .filter(n -> !n.equals(ExtendedResourceClaim.NAME_BEFORE_CREATION)).collect(Collectors.toSet()),
          "the claims seen, and those created that the watch does not show yet");
      createdUnseen.forEach((name, a) -> assertEquals(a.allocation(),
          view.claim(NS, name).orElseThrow().allocation(), "a created claim's devices stay taken until the watch"));
      var named = pending.values().stream().flatMap(List::stream).map(ClaimAllocation::name).collect(Collectors.toSet());
      for (var shown : view.claims()) {
        if (!named.contains(shown.name())) {
          assertEquals(seen.get(shown.name()), shown, "claim " + shown.name() + " as the watch showed it");
        }
      }
      for (var entry : pending.entrySet()) {
        for (var a : entry.getValue()) {
          if (a.toCreate()) {
            continue; // checked above
          }
          var shown = view.claim(NS, a.name()).orElse(null);
          if (shown != null && shown.uid().equals(a.uid())) {
            var watched = seen.get(a.name());
            if (a.allocation() != null && (watched == null || watched.allocation() == null)) {
              assertEquals(a.allocation(), shown.allocation(), "the next decision sees " + a.name() + " taken");
            }
            assertTrue(shown.reservedFor().stream().anyMatch(c -> c.uid().equals(entry.getKey())));
          }
        }
      }
    }

    private static List<String> devices(ResourceClaim claim) {
      return claim.allocation() == null
          ? List.of()
          : claim.allocation().devices().stream().map(DeviceAllocation::device).toList();
    }
  }

  @Property(tries = 300)
  void no_device_is_shown_in_two_claims_and_forget_restores_the_watch_view(
      @ForAll("chains") ActionChain<Harness> chain) {
    chain.withInvariant("cache agrees with the model", Harness::checkInvariants).run();
    chain.finalState().ifPresent(Harness::forgetEveryone);

    Statistics.label("assumed")
        .coverage(
            coverage -> {
              for (var outcome : List.of("allocated", "shared an allocated claim", "no device left",
                  "a claim to create")) {
                coverage.check(outcome).count(n -> n > 0);
              }
            });
    Statistics.label("action")
        .coverage(
            coverage -> {
              for (var action : List.of("replace claim", "remove claim", "confirm", "forget", "create, shown 0",
                  "create, shown 1", "create, shown 2")) {
                coverage.check(action).count(n -> n > 0);
              }
            });
  }

  @Provide
  Arbitrary<ActionChain<Harness>> chains() {
    var claimNames = Arbitraries.of(CLAIMS);
    var pods = Arbitraries.of(PODS);
    return ActionChain.startWith(Harness::new)
        .withAction(4, just(Combinators.combine(claimNames, Arbitraries.of(false, false, true))
            .as((c, fresh) -> Transformer.mutate("put " + c + (fresh ? " new uid" : ""), h -> h.putClaim(c, fresh)))))
        .withAction(1, just(claimNames.map(c -> Transformer.mutate("remove " + c, h -> h.removeClaim(c)))))
        .withAction(6, just(Combinators.combine(pods, claimNames.set().ofMinSize(1).ofMaxSize(2),
                Arbitraries.integers().between(0, 1), Arbitraries.of(false, false, true))
            .as((p, cs, pref, ext) -> Transformer.mutate(
                "assume " + p + " " + cs + (ext ? " and extended" : ""),
                h -> h.allocateAndAssume(p, cs.stream().sorted().toList(), pref, ext)))))
        .withAction(2, just(Combinators.combine(pods, Arbitraries.integers().between(0, 2))
            .as((p, shown) -> Transformer.mutate("create " + p + " shown " + shown, h -> h.create(p, shown)))))
        .withAction(2, just(pods.map(p -> Transformer.mutate("forget " + p, h -> h.forget(p)))))
        .withAction(3, just(pods.map(p -> Transformer.mutate("confirm " + p, h -> h.confirm(p)))))
        .withAction(1, just(Arbitraries.just(Transformer.<Harness>mutate("sameInstance", Harness::sameInstance))))
        .withMaxTransformations(40);
  }

  private static Action.Independent<Harness> just(Arbitrary<Transformer<Harness>> transformers) {
    return () -> transformers;
  }
}
