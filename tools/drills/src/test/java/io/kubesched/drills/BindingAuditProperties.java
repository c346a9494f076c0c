package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.drills.BindingAudit.Binding;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The audit's two functions against arbitrary logs of binding POSTs for a few pods: a pod is bound twice exactly
 * when two POSTs bound it or one found it bound (409), and the first binding after the kill is the earliest
 * successful one the API server received once the leader was dead.
 */
class BindingAuditProperties {

  private static final Instant T0 = Instant.parse("2026-11-27T07:00:00Z");

  @Provide
  Arbitrary<List<Binding>> bindings() {
    return Combinators.combine(
            Arbitraries.of("p0", "p1", "p2", "p3"),
            Arbitraries.of(201, 201, 201, 409, 500, 403),
            Arbitraries.integers().between(0, 20_000))
        .as((pod, code, millis) -> new Binding("drills", pod, code, T0.plusMillis(millis)))
        .list().ofMaxSize(8);
  }

  @Property
  void a_pod_is_bound_twice_exactly_when_two_posts_bound_it_or_one_found_it_bound(
      @ForAll("bindings") List<Binding> bindings) {
    var expected = new TreeSet<String>();
    for (var pod : List.of("p0", "p1", "p2", "p3")) {
      long bound = bindings.stream().filter(b -> b.name().equals(pod) && b.code() == 201).count();
      boolean conflict = bindings.stream().anyMatch(b -> b.name().equals(pod) && b.code() == 409);
      if (bound > 1 || conflict) {
        expected.add(pod);
      }
      Statistics.label("pod").collect(bound > 1 ? "bound by two POSTs" : conflict ? "409 only" : "fine");
    }
    var reported = BindingAudit.boundTwice(bindings, "drills", Set.of("p0", "p1", "p2", "p3")).stream()
        .map(Violation::subject).toList();
    assertEquals(List.copyOf(expected), reported);
    Statistics.label("pod").coverage(c -> {
      c.check("bound by two POSTs").count(n -> n > 0);
      c.check("409 only").count(n -> n > 0);
      c.check("fine").count(n -> n > 0);
    });
  }

  @Property
  void the_first_binding_after_the_kill_is_the_earliest_success_received_once_the_leader_was_dead(
      @ForAll("bindings") List<Binding> bindings) {
    var killed = T0.plusSeconds(5);
    var dead = killed.plusMillis(50);
    var first = BindingAudit.firstBindingAfter(bindings, killed, dead);
    var later = bindings.stream().filter(b -> b.code() == 201 && b.received().isAfter(dead)).toList();
    Statistics.label("after the kill").collect(later.isEmpty() ? "none bound" : "some bound");
    assertEquals(later.isEmpty(), first.isEmpty());
    first.ifPresent(d -> {
      assertEquals(later.stream().map(Binding::received).min(Instant::compareTo).map(r -> Duration.between(killed, r)),
          Optional.of(d));
      assertEquals(true, d.compareTo(Duration.ofMillis(50)) > 0, "counted from the kill, after the death");
    });
    Statistics.label("after the kill").coverage(c -> {
      c.check("none bound").count(n -> n > 0);
      c.check("some bound").count(n -> n > 0);
    });
  }
}
