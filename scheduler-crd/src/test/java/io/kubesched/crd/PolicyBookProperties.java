package io.kubesched.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.crd.PolicyBook.Parsed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link PolicyBook} through random sequences of creations, edits (valid, invalid, refused by the controller, for
 * another profile) and deletions of a few SchedulingPolicies, checked after every step against what the rules say:
 * the oldest policy naming a profile owns it, the profile runs its owner's current policy when that is accepted,
 * its last accepted one when the owner has one, else the configured one; the controller hears only of changes.
 */
class PolicyBookProperties {

  private static final List<String> NAMES = List.of("p0", "p1", "p2", "p3");
  private static final List<String> SCHEDULERS = List.of("alpha", "beta", "gamma"); // gamma is no profile

  /** One step: delete the policy, or create/edit it with a spec of this kind for this scheduler. */
  record Step(String name, boolean delete, String scheduler, Kind kind) {}

  /** What a spec turns out to be. */
  enum Kind { VALID, INVALID, REFUSED }

  @Provide
  Arbitrary<List<Step>> steps() {
    var step = Combinators.combine(
            Arbitraries.of(NAMES),
            Arbitraries.integers().between(0, 5).map(n -> n == 0),
            Arbitraries.of(SCHEDULERS),
            Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.just(Kind.VALID)),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.INVALID)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.REFUSED))))
        .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(25);
  }

  @Property(tries = 300)
  void every_profile_runs_what_its_oldest_policy_says(@ForAll("steps") List<Step> steps) {
    var configured = Map.<String, FinderFunc>of(
        "alpha", (pod, nodes) -> Decision.unschedulable(Map.of()),
        "beta", (pod, nodes) -> Decision.unschedulable(Map.of()));
    var finders = new HashMap<String, FinderFunc>(); // by uid@generation
    var kinds = new HashMap<String, Kind>();
    var refusedFinders = new HashSet<FinderFunc>();
    var calls = new ArrayList<Map.Entry<String, FinderFunc>>();
    PolicyBook.Parser parser = policy -> {
      var key = policy.getMetadata().getUid() + "@" + policy.getMetadata().getGeneration();
      var scheduler = policy.getSpec().schedulerName();
      if (kinds.get(key) == Kind.INVALID) {
        return new Parsed.Invalid(scheduler, "spec: invalid");
      }
      var finder = finders.computeIfAbsent(key, k -> (pod, nodes) -> Decision.bind(k));
      if (kinds.get(key) == Kind.REFUSED) {
        refusedFinders.add(finder);
      }
      return new Parsed.Valid(scheduler, finder);
    };
    var book = new PolicyBook(configured, parser, (scheduler, finder) -> {
      if (refusedFinders.contains(finder)) {
        throw new ConfigurationException("refused");
      }
      calls.add(Map.entry(scheduler, finder));
    });

    var cluster = new HashMap<String, SchedulingPolicy>();
    var lastGood = new HashMap<String, Map.Entry<String, FinderFunc>>(); // by policy: scheduler and finder
    var applied = new HashMap<>(configured);
    long clock = 0;
    for (var step : steps) {
      clock++;
      if (step.delete()) {
        cluster.remove(step.name());
        lastGood.remove(step.name());
      } else {
        var before = cluster.get(step.name());
        long generation = before == null ? 1 : before.getMetadata().getGeneration() + 1;
        var policy = SchedulingPolicy.of(step.name(), SchedulingPolicySpec.of(step.scheduler()));
        policy.getMetadata().setUid(before == null ? step.name() + "-" + clock : before.getMetadata().getUid());
        policy.getMetadata().setGeneration(generation);
        policy.getMetadata().setCreationTimestamp(before == null
            ? Instant.ofEpochSecond(clock / 2).toString() // two in one second now and then
            : before.getMetadata().getCreationTimestamp());
        kinds.put(policy.getMetadata().getUid() + "@" + generation, step.kind());
        cluster.put(step.name(), policy);
      }
      int callsBefore = calls.size();
      var verdicts = book.reconcile(List.copyOf(cluster.values()));

      // The model: each profile's owner and what it runs.
      var expectedCalls = new ArrayList<Map.Entry<String, FinderFunc>>();
      for (var scheduler : List.of("alpha", "beta")) {
        var naming = cluster.values().stream()
            .filter(p -> p.getSpec().schedulerName().equals(scheduler))
            .sorted(Comparator.comparing((SchedulingPolicy p) -> p.getMetadata().getCreationTimestamp())
                .thenComparing(p -> p.getMetadata().getName()))
            .toList();
        FinderFunc expected = configured.get(scheduler);
        if (!naming.isEmpty()) {
          var owner = naming.get(0);
          var key = owner.getMetadata().getUid() + "@" + owner.getMetadata().getGeneration();
          if (kinds.get(key) == Kind.VALID) {
            expected = finders.get(key);
            lastGood.put(owner.getMetadata().getName(), Map.entry(scheduler, expected));
            assertTrue(verdicts.get(owner.getMetadata().getName()).accepted(), owner.getMetadata().getName());
          } else {
            var good = lastGood.get(owner.getMetadata().getName());
            if (good != null && good.getKey().equals(scheduler)) {
              expected = good.getValue();
            }
            assertEquals("Invalid", verdicts.get(owner.getMetadata().getName()).reason());
          }
          for (var other : naming.subList(1, naming.size())) {
            var verdict = verdicts.get(other.getMetadata().getName());
            assertNotEquals(true, verdict.accepted());
            Statistics.label("verdict").collect(verdict.reason());
          }
          Statistics.label("verdict").collect(verdicts.get(owner.getMetadata().getName()).reason());
        }
        if (expected != applied.get(scheduler)) {
          applied.put(scheduler, expected);
          expectedCalls.add(Map.entry(scheduler, expected));
        }
        assertSame(expected, book.applied(scheduler), scheduler + " after " + step);
      }
      for (var policy : cluster.values()) {
        if (policy.getSpec().schedulerName().equals("gamma")) {
          var verdict = verdicts.get(policy.getMetadata().getName());
          assertTrue(Set.of("Invalid", "UnknownScheduler").contains(verdict.reason()), verdict.toString());
          Statistics.label("verdict").collect(verdict.reason());
        }
      }
      // The controller hears of exactly the changes, once each.
      var changed = calls.subList(callsBefore, calls.size());
      assertEquals(Set.copyOf(expectedCalls), Set.copyOf(changed), "after " + step);
      assertEquals(expectedCalls.size(), changed.size(), "after " + step);
      Statistics.label("calls per step").collect(changed.size());
      // Forget what belonged to deleted objects (a new object of that name starts without a last good policy).
      lastGood.keySet().retainAll(cluster.keySet());
    }

    Statistics.label("verdict").coverage(coverage -> {
      coverage.check("Accepted").percentage(p -> p > 20);
      coverage.check("Invalid").percentage(p -> p > 5);
      coverage.check("Conflict").percentage(p -> p > 5);
      coverage.check("UnknownScheduler").percentage(p -> p > 5);
    });
    Statistics.label("calls per step").coverage(coverage -> coverage.check(0).percentage(p -> p > 10));
  }
}
