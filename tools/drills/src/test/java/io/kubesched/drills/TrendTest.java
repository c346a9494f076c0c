package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

class TrendTest {

  @Test
  void the_slope_of_a_line_is_its_rise_per_sample() {
    assertEquals(2.0, Trend.slope(List.of(10, 12, 14, 16, 18)), 1e-9);
    assertEquals(-0.5, Trend.slope(List.of(5.0, 4.5, 4.0)), 1e-9);
  }

  @Test
  void fewer_than_two_samples_have_no_slope() {
    assertEquals(0, Trend.slope(List.of()));
    assertEquals(0, Trend.slope(List.of(42)));
    assertFalse(Trend.grows(List.of(42), 0));
  }

  @Test
  void a_few_outliers_do_not_make_a_flat_series_grow() {
    // a flat heap with two late full GCs showing 40 MiB more: a least-squares line would rise
    var samples = new ArrayList<>(List.of(60, 61, 60, 59, 60, 61, 60, 60, 59, 61, 60, 60, 61, 60, 59, 60, 60, 100, 60, 100));
    assertEquals(0.0, Trend.slope(samples), 0.1);
    assertFalse(Trend.grows(samples, 8));
  }

  @Test
  void a_steady_small_rise_over_many_samples_grows() {
    var samples = new ArrayList<Integer>();
    for (int i = 0; i < 60; i++) {
      samples.add(60 + i / 2 + (i % 3 == 0 ? 3 : 0)); // half a MiB a minute, with noise
    }
    assertTrue(Trend.grows(samples, 16), "30 MiB over an hour against an allowance of 16");
    assertFalse(Trend.grows(samples, 40));
  }

  /** A series of noise within ±2 around a level, with a rise of {@code rise} per sample added. */
  record Series(List<Double> values, double rise) {}

  @Provide
  Arbitrary<Series> series() {
    var noise = Arbitraries.doubles().between(-2, 2).list().ofMinSize(10).ofMaxSize(60);
    var rise = Arbitraries.oneOf(Arbitraries.just(0.0), Arbitraries.doubles().between(3, 5));
    return noise.flatMap(n -> rise.map(r -> {
      var values = new ArrayList<Double>();
      for (int i = 0; i < n.size(); i++) {
        values.add(100 + n.get(i) + r * i);
      }
      return new Series(values, r);
    }));
  }

  /**
   * Noise within a band of 4 never projects to growth beyond twice its band, however it is arranged; a rise of 3
   * or more a sample over ten or more samples always does (at least half the pairs of samples are three or more
   * apart, and their slopes are within 4/3 of the rise).
   */
  @Property
  void growth_is_seen_exactly_when_the_series_rises(@ForAll("series") Series series) {
    boolean rising = series.rise() > 0;
    Statistics.label("rising").collect(rising);
    Statistics.label("rising").coverage(c -> {
      c.check(true).percentage(p -> p > 20);
      c.check(false).percentage(p -> p > 20);
    });
    assertEquals(rising, Trend.grows(series.values(), 8), () -> "slope " + Trend.slope(series.values()));
  }

  @Property
  void a_constant_series_has_slope_zero(@ForAll @IntRange(min = 2, max = 50) int size,
      @ForAll @IntRange(min = 0, max = 1000) int level) {
    assertEquals(0.0, Trend.slope(java.util.Collections.nCopies(size, level)), 0.0);
  }
}
