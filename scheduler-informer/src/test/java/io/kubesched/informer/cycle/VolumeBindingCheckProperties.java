package io.kubesched.informer.cycle;

import static io.kubesched.informer.VolumeBindingCycleTest.claim;
import static io.kubesched.informer.VolumeBindingCycleTest.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.VolumeBinding;
import io.kubesched.engine.StorageCache;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link VolumeBindingCheck} for a static binding against a model, over random sequences of what the
 * informers show of the volume and its claim: the pod is bound only once the volume refers to the claim, the
 * claim is fully bound and the node can reach the volume; a volume taken by another claim, a claimRef reset
 * after our write was seen, or a volume out of the node's reach fails it; anything else keeps it waiting.
 */
class VolumeBindingCheckProperties {

  private static final Map<String, String> NODE_LABELS = Map.of("topology.kubernetes.io/zone", "z1");

  enum Ref {
    NONE,
    OURS,
    OTHER
  }

  enum ClaimState {
    UNBOUND,
    BOUND,
    FULLY_BOUND
  }

  /** One observation of the volume and the claim. */
  record Seen(Ref ref, ClaimState claim, boolean reachable) {}

  @Property(tries = 500)
  void a_static_binding_completes_fails_or_waits_as_the_model_says(@ForAll("observations") List<Seen> observations) {
    var storage = new StorageCache();
    var check = new VolumeBindingCheck("n1", List.of(new VolumeBinding.Static("default", "data", "uid-data", "pv1")));
    boolean seenOurs = false;
    String outcome = "still pending";
    for (var seen : observations) {
      var zone = seen.reachable() ? "z1" : "z2";
      storage.putVolume(volume("pv1", switch (seen.ref()) {
        case NONE -> null;
        case OURS -> "data";
        case OTHER -> "other";
      }, zone));
      storage.putClaim(claim(
          "data", seen.claim() == ClaimState.UNBOUND ? "" : "pv1", seen.claim() == ClaimState.FULLY_BOUND, ""));

      String expected;
      if (!seen.reachable()) {
        expected = "failed: out of reach";
      } else if (seen.ref() == Ref.OTHER) {
        expected = "failed: taken";
      } else if (seen.ref() == Ref.NONE) {
        expected = seenOurs ? "failed: reset" : "pending";
      } else {
        seenOurs = true;
        expected = seen.claim() == ClaimState.FULLY_BOUND ? "done" : "pending";
      }

      var result = check.check(storage, NODE_LABELS);
      assertEquals(expected, describe(result), "after " + seen);
      if (!expected.equals("pending")) {
        outcome = expected;
        break;
      }
    }
    Statistics.label("outcome").collect(outcome);
    Statistics.label("outcome")
        .coverage(c -> {
          for (var o : List.of("done", "failed: out of reach", "failed: taken", "failed: reset", "still pending")) {
            c.check(o).count(n -> n > 0);
          }
        });
  }

  private static String describe(VolumeBindingCheck.Result result) {
    if (result instanceof VolumeBindingCheck.Result.Done) {
      return "done";
    }
    if (result instanceof VolumeBindingCheck.Result.Pending) {
      return "pending";
    }
    var message = ((VolumeBindingCheck.Result.Failed) result).message();
    if (message.startsWith("pv \"pv1\" node affinity doesn't match node \"n1\"")) {
      return "failed: out of reach";
    }
    if (message.equals("pv \"pv1\" was bound to another claim default/other")) {
      return "failed: taken";
    }
    if (message.equals("ClaimRef got reset for pv \"pv1\"")) {
      return "failed: reset";
    }
    return "failed: " + message;
  }

  @Provide
  Arbitrary<List<Seen>> observations() {
    var seen =
        Combinators.combine(
                Arbitraries.frequencyOf(
                    Tuple.of(4, Arbitraries.just(Ref.NONE)),
                    Tuple.of(6, Arbitraries.just(Ref.OURS)),
                    Tuple.of(1, Arbitraries.just(Ref.OTHER))),
                Arbitraries.frequencyOf(
                    Tuple.of(3, Arbitraries.just(ClaimState.UNBOUND)),
                    Tuple.of(3, Arbitraries.just(ClaimState.BOUND)),
                    Tuple.of(1, Arbitraries.just(ClaimState.FULLY_BOUND))),
                Arbitraries.frequencyOf(
                    Tuple.of(12, Arbitraries.just(true)),
                    Tuple.of(1, Arbitraries.just(false))))
            .as(Seen::new);
    return seen.list().ofMinSize(1).ofMaxSize(8);
  }
}
