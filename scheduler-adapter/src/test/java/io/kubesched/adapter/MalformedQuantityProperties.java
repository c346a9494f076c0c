package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.adapter.PodModels.PodModel;
import io.kubesched.adapter.PodModels.Slot;
import io.kubesched.api.MalformedObjectException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class MalformedQuantityProperties {

  /** A pod with exactly one quantity replaced by {@code text}. */
  record Corrupted(PodModel pod, Slot slot, String text) {}

  @Property
  @Label("one malformed quantity is reported with the pod, its field and its value")
  void oneMalformedQuantityIsReported(@ForAll("corruptedPods") Corrupted corrupted) {
    var model = corrupted.pod();
    var pod = PodModels.render(model, slot -> slot.equals(corrupted.slot()) ? corrupted.text() : null);

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    var object = "pod " + model.namespace() + "/" + model.name();
    assertEquals(object, e.object());
    assertEquals(corrupted.slot().field(), e.field());
    assertEquals(corrupted.text(), e.value());
    assertTrue(
        e.getMessage().startsWith(object + ": " + corrupted.slot().field() + " '" + corrupted.text() + "'"),
        e.getMessage());

    Statistics.label("where").collect(corrupted.slot().list());
    Statistics.label("where")
        .coverage(
            c -> {
              c.check("spec.containers").percentage(p -> p >= 20);
              c.check("spec.initContainers").percentage(p -> p >= 15);
              c.check("spec.overhead").count(n -> n > 0);
              c.check("spec.resources.requests").count(n -> n > 0);
            });
  }

  @Provide
  Arbitrary<Corrupted> corruptedPods() {
    return PodModels.pods()
        .filter(pod -> !PodModels.requestSlots(pod).isEmpty())
        .flatMap(
            pod -> {
              var slots = PodModels.requestSlots(pod);
              return Combinators.combine(Arbitraries.of(slots), malformed())
                  .as((slot, text) -> new Corrupted(pod, slot, text));
            });
  }

  /** Texts Kubernetes would not accept as a quantity, or that are negative. */
  static Arbitrary<String> malformed() {
    var fixed =
        Arbitraries.of(
            "12x", "", "1.5.5", "m", " ", " 1 m", "1ki", "Ki", "abc", "1e3Mi", "--5", "0x1F", "1 Gi", "1,5", "∞");
    var negative = Arbitraries.longs().between(1, 1_000_000).map(n -> "-" + n);
    var trailing =
        Combinators.combine(Arbitraries.longs().between(0, 100_000), Arbitraries.of("x", "q", "KB", "mb", "%"))
            .as((n, garbage) -> n + garbage);
    return Arbitraries.oneOf(fixed, negative, trailing);
  }
}
