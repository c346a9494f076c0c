package io.kubesched.drills;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a series of samples taken at a steady interval grows: the Theil–Sen slope (the median of the
 * slopes between every pair of samples), which a few outliers (a GC that ran late, a minute in which the
 * machine was busy with something else) do not move, as a least-squares line would. Pure; thread-safe.
 */
final class Trend {

  private Trend() {}

  /**
   * @param samples the values in the order they were taken, one per interval
   * @return the median of {@code (samples[j] - samples[i]) / (j - i)} over every {@code i < j}: how much the
   *     series rises per interval; 0 for fewer than two samples
   */
  static double slope(List<? extends Number> samples) {
    var slopes = new ArrayList<Double>();
    for (int i = 0; i < samples.size(); i++) {
      for (int j = i + 1; j < samples.size(); j++) {
        slopes.add((samples.get(j).doubleValue() - samples.get(i).doubleValue()) / (j - i));
      }
    }
    if (slopes.isEmpty()) {
      return 0;
    }
    slopes.sort(null);
    int middle = slopes.size() / 2;
    return slopes.size() % 2 == 1 ? slopes.get(middle) : (slopes.get(middle - 1) + slopes.get(middle)) / 2;
  }

  /**
   * @param samples the values, one per interval
   * @param allowance how much the series may rise over its whole span without counting as growth
   * @return whether the slope, projected over the span of the samples ({@code size - 1} intervals), rises by
   *     more than {@code allowance}
   */
  static boolean grows(List<? extends Number> samples, double allowance) {
    return slope(samples) * Math.max(0, samples.size() - 1) > allowance;
  }
}
