package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.facade.Options.LeaderElection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link Options.Builder#build()} and {@link LeaderElection.Builder#build()} accept exactly what a simple
 * model of their rules accepts, and a refusal names the first rule broken, in the order the options are
 * documented. Each setting is valid most of the time, so that every rule is the first one broken often
 * enough (the coverage checks prove it).
 */
class OptionsProperties {

  /** One try's settings. */
  record Settings(
      Duration bindTimeout,
      Duration volumeBindingTimeout,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration syncTimeout,
      Duration unschedulableTimeout,
      Duration assumedPodTtl,
      double qps,
      int burst,
      int parallelBindings,
      int parallelism,
      Duration shutdownTimeout) {

    /** The options the model refuses, in the order build() checks them. */
    List<String> broken() {
      var broken = new ArrayList<String>();
      if (!positive(bindTimeout)) {
        broken.add("bindTimeout");
      }
      if (!positive(volumeBindingTimeout)) {
        broken.add("volumeBindingTimeout");
      }
      if (!positive(initialBackoff)) {
        broken.add("initialBackoff");
      }
      if (!positive(maxBackoff)) {
        broken.add("maxBackoff");
      }
      if (positive(initialBackoff) && positive(maxBackoff) && maxBackoff.compareTo(initialBackoff) < 0) {
        broken.add("maxBackoff shorter");
      }
      if (!positive(syncTimeout)) {
        broken.add("syncTimeout");
      }
      if (!positive(unschedulableTimeout)) {
        broken.add("unschedulableTimeout");
      }
      if (assumedPodTtl.isNegative()) {
        broken.add("assumedPodTtl");
      }
      if (!(qps > 0 && qps < Double.POSITIVE_INFINITY)) {
        broken.add("qps");
      }
      if (burst < 1) {
        broken.add("burst");
      }
      if (parallelBindings < 1) {
        broken.add("parallelBindings");
      }
      if (parallelism < 1) {
        broken.add("parallelism");
      }
      if (!positive(shutdownTimeout)) {
        broken.add("shutdownTimeout");
      }
      return broken;
    }

    Options.Builder apply(Options.Builder builder) {
      return builder
          .bindTimeout(bindTimeout)
          .volumeBindingTimeout(volumeBindingTimeout)
          .backoff(initialBackoff, maxBackoff)
          .syncTimeout(syncTimeout)
          .unschedulableTimeout(unschedulableTimeout)
          .assumedPodTtl(assumedPodTtl)
          .rateLimit(qps, burst)
          .parallelBindings(parallelBindings)
          .parallelism(parallelism)
          .shutdownTimeout(shutdownTimeout);
    }
  }

  private static boolean positive(Duration d) {
    return !d.isNegative() && !d.isZero();
  }

  /** Mostly positive; sometimes zero, negative, or one nanosecond either side of zero. */
  private static Arbitrary<Duration> duration() {
    var positive = Arbitraries.longs().between(1, Duration.ofMinutes(20).toMillis()).map(Duration::ofMillis);
    var edge = Arbitraries.of(Duration.ZERO, Duration.ofNanos(1), Duration.ofNanos(-1), Duration.ofSeconds(-5));
    return Arbitraries.frequencyOf(Tuple.of(12, positive), Tuple.of(1, edge));
  }

  private static Arbitrary<Integer> count() {
    return Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.integers().between(1, 1000)),
        Tuple.of(1, Arbitraries.of(0, -1, Integer.MIN_VALUE)));
  }

  @Provide
  Arbitrary<Settings> settings() {
    var qps =
        Arbitraries.frequencyOf(
            Tuple.of(12, Arbitraries.doubles().between(0.001, 10_000).ofScale(3)),
            Tuple.of(1, Arbitraries.of(0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY)));
    var ttl =
        Arbitraries.frequencyOf(
            Tuple.of(12, Arbitraries.longs().between(0, 100_000).map(Duration::ofMillis)),
            Tuple.of(1, Arbitraries.of(Duration.ofNanos(-1), Duration.ofMinutes(-1))));
    return Builders.withBuilder(() -> new Object[12])
        .use(duration()).in((a, d) -> set(a, 0, d))
        .use(duration()).in((a, d) -> set(a, 1, d))
        .use(duration()).in((a, d) -> set(a, 2, d))
        .use(duration()).in((a, d) -> set(a, 3, d))
        .use(duration()).in((a, d) -> set(a, 4, d))
        .use(ttl).in((a, d) -> set(a, 5, d))
        .use(qps).in((a, q) -> set(a, 6, q))
        .use(count()).in((a, c) -> set(a, 7, c))
        .use(count()).in((a, c) -> set(a, 8, c))
        .use(duration()).in((a, d) -> set(a, 9, d))
        .use(duration()).in((a, d) -> set(a, 10, d))
        .use(count()).in((a, c) -> set(a, 11, c))
        .build(
            a ->
                new Settings(
                    (Duration) a[0],
                    (Duration) a[10],
                    (Duration) a[1],
                    (Duration) a[2],
                    (Duration) a[3],
                    (Duration) a[4],
                    (Duration) a[5],
                    (Double) a[6],
                    (Integer) a[7],
                    (Integer) a[8],
                    (Integer) a[11],
                    (Duration) a[9]));
  }

  private static Object[] set(Object[] values, int index, Object value) {
    values[index] = value;
    return values;
  }

  @Property(tries = 2000)
  void options_are_built_exactly_when_every_rule_holds_and_a_refusal_names_the_first_broken(
      @ForAll("settings") Settings settings) {
    var broken = settings.broken();
    var builder = settings.apply(Options.builder().fake());
    if (broken.isEmpty()) {
      var options = builder.build();
      assertEquals(settings.bindTimeout(), options.bindTimeout());
      assertEquals(settings.volumeBindingTimeout(), options.volumeBindingTimeout());
      assertEquals(settings.initialBackoff(), options.initialBackoff());
      assertEquals(settings.maxBackoff(), options.maxBackoff());
      assertEquals(settings.syncTimeout(), options.syncTimeout());
      assertEquals(settings.unschedulableTimeout(), options.unschedulableTimeout());
      assertEquals(settings.assumedPodTtl(), options.assumedPodTtl());
      assertEquals(settings.qps(), options.qps());
      assertEquals(settings.burst(), options.burst());
      assertEquals(settings.parallelBindings(), options.parallelBindings());
      assertEquals(settings.parallelism(), options.parallelism());
      assertEquals(settings.parallelism(), options.controllerSettings().parallelism());
      assertEquals(settings.shutdownTimeout(), options.shutdownTimeout());
    } else {
      var error = assertThrows(ConfigurationException.class, builder::build);
      var first = broken.get(0);
      var option = first.equals("maxBackoff shorter") ? "maxBackoff " + settings.maxBackoff() : first;
      assertTrue(error.getMessage().startsWith(option), () -> error.getMessage() + " should name " + first);
    }
    Statistics.label("first broken").collect(broken.isEmpty() ? "none" : broken.get(0));
    Statistics.label("first broken")
        .coverage(
            c -> {
              for (var rule :
                  List.of(
                      "none",
                      "bindTimeout",
                      "volumeBindingTimeout",
                      "initialBackoff",
                      "maxBackoff",
                      "maxBackoff shorter",
                      "syncTimeout",
                      "unschedulableTimeout",
                      "assumedPodTtl",
                      "qps",
                      "burst",
                      "parallelBindings",
                      "parallelism",
                      "shutdownTimeout")) {
                c.check(rule).count(n -> n > 0);
              }
            });
  }

  record Timings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    /** The first rule broken, as the model sees it; empty if none. */
    String firstBroken() {
      if (leaseDuration.toMillis() < 1) {
        return "leaseDuration must be at least 1 ms";
      }
      if (renewDeadline.toMillis() < 1) {
        return "renewDeadline must be at least 1 ms";
      }
      if (retryPeriod.toMillis() < 1) {
        return "retryPeriod must be at least 1 ms";
      }
      if (leaseDuration.toNanos() % 1_000_000_000L != 0) {
        return "leaseDuration must be a whole number of seconds";
      }
      if (renewDeadline.compareTo(leaseDuration) >= 0) {
        return "renewDeadline " + renewDeadline + " must be shorter than leaseDuration";
      }
      // client-go's rule, renewDeadline > 1.2 × retryPeriod, with fabric8's jitter added to the period.
      long jitteredMillis = retryPeriod.toMillis() + (long) Math.ceil(retryPeriod.toMillis() * 1.2);
      if (renewDeadline.compareTo(Duration.ofMillis(jitteredMillis)) <= 0) {
        return "renewDeadline " + renewDeadline + " must be longer than retryPeriod";
      }
      return "";
    }
  }

  @Provide
  Arbitrary<Timings> timings() {
    var lease =
        Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.longs().between(1, 30).map(Duration::ofSeconds)),
            Tuple.of(1, Arbitraries.of(Duration.ZERO, Duration.ofMillis(1500), Duration.ofNanos(999_999))));
    var renew =
        Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.longs().between(1, 30_000).map(Duration::ofMillis)),
            Tuple.of(1, Arbitraries.of(Duration.ZERO, Duration.ofSeconds(-1))));
    var retry =
        Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.longs().between(1, 10_000).map(Duration::ofMillis)),
            Tuple.of(1, Arbitraries.of(Duration.ZERO, Duration.ofNanos(500_000))));
    return Combinators.combine(lease, renew, retry).as(Timings::new);
  }

  @Property(tries = 2000)
  void a_leader_election_is_built_exactly_when_kube_and_fabric8_would_accept_its_timings(
      @ForAll("timings") Timings timings) {
    var builder =
        LeaderElection.builder()
            .leaseDuration(timings.leaseDuration())
            .renewDeadline(timings.renewDeadline())
            .retryPeriod(timings.retryPeriod());
    var broken = timings.firstBroken();
    if (broken.isEmpty()) {
      var election = builder.build();
      assertEquals(timings.leaseDuration(), election.leaseDuration());
      assertEquals(timings.renewDeadline(), election.renewDeadline());
      assertEquals(timings.retryPeriod(), election.retryPeriod());
      // What the loop is handed passes the loop's own check too.
      Options.builder().leaderElection(election).build().controllerSettings();
    } else {
      var error = assertThrows(ConfigurationException.class, builder::build);
      assertTrue(error.getMessage().startsWith(broken), () -> error.getMessage() + " should start with " + broken);
    }
    var rule = broken.isEmpty() ? "none" : broken.replaceAll(" PT\\S+", "").replaceAll(" must.*", "");
    var what =
        broken.contains("shorter than") ? "renew >= lease"
            : broken.contains("longer than") ? "renew <= jittered retry"
            : broken.contains("whole number") ? "lease not whole seconds"
            : rule;
    Statistics.label("first broken").collect(what);
    Statistics.label("first broken")
        .coverage(
            c -> {
              for (var name :
                  List.of(
                      "none",
                      "leaseDuration",
                      "renewDeadline",
                      "retryPeriod",
                      "lease not whole seconds",
                      "renew >= lease",
                      "renew <= jittered retry")) {
                c.check(name).count(n -> n > 0);
              }
            });
  }
}
