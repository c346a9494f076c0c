package io.kubesched.policy.plugins.dynamicresources.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.AllocationResult;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceId;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Example;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link AllocatedState#derive} against {@link AllocatedState#of}: over a sequence of claim lists where each is the
 * previous one with claims replaced, added, removed or the whole list reordered (as the engine's device cache hands
 * them to consecutive attempts), the state derived step by step answers every query exactly as the state built
 * from scratch.
 */
class AllocatedStateProperties {

  private static final List<DeviceId> DEVICES = List.of(
      new DeviceId("d", "p1", "a"), new DeviceId("d", "p1", "b"), new DeviceId("d", "p2", "a"),
      new DeviceId("e", "p1", "a"), new DeviceId("e", "p3", "c"));

  /** One edit of the claim list. */
  sealed interface Edit {
    record Replace(int index, ResourceClaim claim) implements Edit {}

    record Insert(int index, ResourceClaim claim) implements Edit {}

    record Remove(int index) implements Edit {}

    record Reverse() implements Edit {}

    record Same() implements Edit {}
  }

  @Property(tries = 300)
  void derivedStateAnswersAsTheStateBuiltFromScratch(
      @ForAll("claimLists") List<ResourceClaim> initial, @ForAll("editLists") List<Edit> edits) {
    var claims = List.copyOf(initial);
    var state = AllocatedState.of(claims);
    for (var edit : edits) {
      var next = apply(claims, edit);
      var derived = state.derive(claims, next);
      Statistics.label("derivation").collect(derived == state ? "same list" : derived.deltaSize() > 0 ? "delta" : "no delta");
      assertSameAnswers(AllocatedState.of(next), derived, edit);
      claims = next;
      state = derived;
    }
    Statistics.label("derivation").coverage(c -> {
      c.check("delta").count(n -> n > 0);
      c.check("no delta").count(n -> n > 0);
      c.check("same list").count(n -> n > 0);
    });
  }

  @Example
  void manyChangesAreRebuiltFromScratch() {
    var before = new ArrayList<ResourceClaim>();
    var after = new ArrayList<ResourceClaim>();
    for (int i = 0; i < 200; i++) {
      before.add(claim("c" + i, List.of(dedicated(DEVICES.get(i % DEVICES.size())))));
      after.add(claim("c" + i, List.of()));
    }
    var derived = AllocatedState.of(before).derive(before, after);
    assertEquals(0, derived.deltaSize(), "a rebuild has no delta");
    DEVICES.forEach(id -> assertTrue(!derived.isAllocated(id), id.toString()));
  }

  private static void assertSameAnswers(AllocatedState expected, AllocatedState actual, Edit edit) {
    for (var id : DEVICES) {
      assertEquals(expected.isDedicated(id), actual.isDedicated(id), () -> "isDedicated " + id + " after " + edit);
      assertEquals(expected.hasShare(id), actual.hasShare(id), () -> "hasShare " + id + " after " + edit);
      assertEquals(expected.isAllocated(id), actual.isAllocated(id), () -> "isAllocated " + id + " after " + edit);
      assertEquals(normalized(expected.aggregatedCapacity(id)), normalized(actual.aggregatedCapacity(id)),
          () -> "aggregatedCapacity " + id + " after " + edit);
    }
  }

  private static Map<String, String> normalized(Map<String, java.math.BigDecimal> capacity) {
    if (capacity == null) {
      return null;
    }
    var out = new HashMap<String, String>();
    capacity.forEach((k, v) -> out.put(k, v.stripTrailingZeros().toPlainString()));
    return out;
  }

  private static List<ResourceClaim> apply(List<ResourceClaim> claims, Edit edit) {
    if (edit instanceof Edit.Same) {
      return claims;
    }
    var next = new ArrayList<>(claims);
    if (edit instanceof Edit.Replace r && !next.isEmpty()) {
      next.set(r.index() % next.size(), r.claim());
    } else if (edit instanceof Edit.Insert in) {
      next.add(in.index() % (next.size() + 1), in.claim());
    } else if (edit instanceof Edit.Remove rm && !next.isEmpty()) {
      next.remove(rm.index() % next.size());
    } else if (edit instanceof Edit.Reverse) {
      java.util.Collections.reverse(next);
    }
    return List.copyOf(next);
  }

  @Provide
  Arbitrary<List<ResourceClaim>> claimLists() {
    return claims().list().ofMaxSize(30);
  }

  @Provide
  Arbitrary<List<Edit>> editLists() {
    var index = Arbitraries.integers().between(0, 40);
    Arbitrary<Edit> edit = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Combinators.combine(index, claims()).as(Edit.Replace::new)),
        net.jqwik.api.Tuple.of(2, Combinators.combine(index, claims()).as(Edit.Insert::new)),
        net.jqwik.api.Tuple.of(2, index.map(Edit.Remove::new)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(new Edit.Reverse())),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(new Edit.Same())));
    return edit.list().ofMaxSize(12);
  }

  private static Arbitrary<ResourceClaim> claims() {
    var device = Arbitraries.of(DEVICES);
    Arbitrary<DeviceAllocation> result = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, device.map(AllocatedStateProperties::dedicated)),
        net.jqwik.api.Tuple.of(1, device.map(id -> allocation(id, true, null, Map.of()))),
        net.jqwik.api.Tuple.of(2, Combinators.combine(device, Arbitraries.of("s1", "s2"), Arbitraries.integers().between(0, 3))
            .as((id, share, memory) -> allocation(id, false, share,
                memory == 0 ? Map.of() : Map.of("memory", Quantity.parse(memory + "Gi"))))));
    var allocated = result.list().ofMaxSize(3).map(devices -> (List<DeviceAllocation>) devices);
    return Combinators.combine(Arbitraries.strings().alpha().ofLength(3), allocated, Arbitraries.integers().between(0, 4))
        .as((name, devices, unallocated) -> claim(name, unallocated == 0 ? null : devices));
  }

  private static DeviceAllocation dedicated(DeviceId id) {
    return allocation(id, false, null, Map.of());
  }

  private static DeviceAllocation allocation(DeviceId id, boolean admin, String shareId, Map<String, Quantity> consumed) {
    return new DeviceAllocation("r", id.driver(), id.pool(), id.device(), admin, List.of(), List.of(), List.of(), shareId,
        consumed);
  }

  private static ResourceClaim claim(String name, List<DeviceAllocation> devices) {
    return new ResourceClaim("ns", name, "uid-" + name, "1", null, Map.of(), List.of(), List.of(), List.of(),
        devices == null ? null : new AllocationResult(devices, List.of(), null, null), List.of(), false);
  }
}
