package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link TokenBucket} against the definition of a token bucket rather than its own bookkeeping: a bucket
 * of size B filled at rate r, which started full, holds at time t
 *
 * <pre>  tokens(t) = min over every earlier grant time s of ( B + r·(t − s) − grants in [s, t] ), and at most B</pre>
 *
 * (the refill since the last moment the bucket was full, less what was taken since). A request is granted
 * iff that is at least one; a blocking request is granted at the first time it is.
 *
 * <p>The rates (0.5 to 8 per second) and clock steps (multiples of 125 ms) keep every quantity a dyadic
 * fraction, so the bucket's {@code double}s are exact and the oracle's integers can demand equality.
 */
class TokenBucketProperties {

  private static final long TICK = Duration.ofMillis(125).toNanos();
  private static final long ONE_TOKEN = 2_000_000_000L; // units per token: 1/(2e9); a rate k/2 adds k per ns

  /** The bucket under test, its fake clock, and the history the oracle needs. */
  static final class Model {
    final int halfQps;
    final int burst;
    final TokenBucketFakeClock clock = new TokenBucketFakeClock(0);
    final TokenBucketLimiter bucket;
    final List<Long> grants = new ArrayList<>();

    Model(int halfQps, int burst) {
      this.halfQps = halfQps;
      this.burst = burst;
      this.bucket = new TokenBucketLimiter(halfQps / 2.0, burst, clock, clock);
    }

    /** The oracle's tokens at {@code now}, in units of 1/(2e9) token. */
    long units(long now) {
      long best = burst * ONE_TOKEN;
      for (int i = 0; i < grants.size(); i++) {
        long since = grants.get(i);
        long taken = grants.size() - i; // grants are in time order; all are at or before now
        best = Math.min(best, burst * ONE_TOKEN + halfQps * (now - since) - taken * ONE_TOKEN);
      }
      return best;
    }

    @Override
    public String toString() {
      return "qps=" + halfQps / 2.0 + " burst=" + burst + " now=" + clock.getAsLong() + " grants=" + grants;
    }
  }

  @Property(tries = 300)
  void the_bucket_grants_exactly_what_the_definition_allows(@ForAll("chains") ActionChain<Model> chain) {
    chain
        .withInvariant(
            "tokens held",
            m -> {
              long now = m.clock.getAsLong();
              assertEquals((double) m.units(now) / ONE_TOKEN, m.bucket.tokensAt(now), m.toString());
            })
        .run();
    Statistics.coverage(
        c -> {
          c.check("try granted").count(n -> n > 0);
          c.check("try refused").count(n -> n > 0);
          c.check("acquire at once").count(n -> n > 0);
          c.check("acquire waited").count(n -> n > 0);
          c.check("refill capped at burst").count(n -> n > 0);
        });
  }

  @Provide
  Arbitrary<ActionChain<Model>> chains() {
    var rates = Arbitraries.of(1, 2, 4, 8, 16);
    var bursts = Arbitraries.integers().between(1, 4);
    return rates.flatMap(
        rate ->
            bursts.flatMap(
                burst ->
                    ActionChain.<Model>startWith(() -> new Model(rate, burst))
                        .withAction(2, advance())
                        .withAction(3, tryAcquire())
                        .withAction(2, acquire())
                        .withMaxTransformations(40)));
  }

  private static Action.Independent<Model> advance() {
    return () ->
        Arbitraries.integers()
            .between(1, 24)
            .map(
                ticks ->
                    Transformer.mutate(
                        "advance " + ticks + " x 125 ms",
                        m -> {
                          long now = m.clock.getAsLong();
                          long gained = m.halfQps * ticks * TICK;
                          if (m.units(now) + gained > m.burst * ONE_TOKEN) {
                            Statistics.collect("refill capped at burst");
                          }
                          m.clock.advance(Duration.ofNanos(ticks * TICK));
                        }));
  }

  private static Action<Model> tryAcquire() {
    return Action.just(
        Transformer.mutate(
            "tryAcquire",
            m -> {
              long now = m.clock.getAsLong();
              boolean expected = m.units(now) >= ONE_TOKEN;
              Statistics.collect(expected ? "try granted" : "try refused");
              assertEquals(expected, m.bucket.tryAcquire(), m.toString());
              if (expected) {
                m.grants.add(now);
              }
            }));
  }

  private static Action<Model> acquire() {
    return Action.just(
        Transformer.mutate(
            "acquire",
            m -> {
              long now = m.clock.getAsLong();
              long missing = Math.max(0, ONE_TOKEN - m.units(now));
              assertEquals(0, missing % m.halfQps, "the oracle's arithmetic stays exact");
              long grantedAt = now + missing / m.halfQps;
              Statistics.collect(missing == 0 ? "acquire at once" : "acquire waited");
              try {
                m.bucket.acquire();
              } catch (InterruptedException e) {
                throw new AssertionError(e);
              }
              assertEquals(grantedAt, m.clock.getAsLong(), m.toString());
              m.grants.add(grantedAt);
            }));
  }
}
