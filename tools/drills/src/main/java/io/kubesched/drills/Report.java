package io.kubesched.drills;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The Markdown the runner writes: one table row per fault, then the violations themselves. Pure. */
final class Report {

  private Report() {}

  /**
   * @param title the first line's text, such as the command that ran
   * @param trials every trial, in the order run
   * @param growth the {@link Invariants#growth} violations across all trials
   * @return the report: a table of trials, pods, violations by kind and recovery time per fault, and a list
   *     of every violation seen
   */
  static String markdown(String title, List<TrialResult> trials, List<Violation> growth) {
    var out = new StringBuilder("# Fault drills\n\n").append(title).append("\n\n");
    out.append("| fault | trials | pods | lost | moved | bound twice | reported twice | over allocatable | anti-affinity | spread | no reason ")
        .append("| cache mismatch | no relist | scheduler LISTs | recovered | recovery p50 | recovery p99 |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    var byFault = new LinkedHashMap<String, List<TrialResult>>();
    trials.forEach(t -> byFault.computeIfAbsent(t.fault(), f -> new ArrayList<>()).add(t));
    byFault.forEach((fault, results) -> {
      var counts = new EnumMap<Violation.Kind, Integer>(Violation.Kind.class);
      results.forEach(r -> r.violations().forEach(v -> counts.merge(v.kind(), 1, Integer::sum)));
      var recoveries = results.stream().map(TrialResult::recovery).flatMap(Optional::stream).sorted().toList();
      out.append("| ").append(fault)
          .append(" | ").append(results.size())
          .append(" | ").append(results.stream().mapToInt(TrialResult::pods).sum());
      for (var kind : List.of(Violation.Kind.LOST, Violation.Kind.MOVED, Violation.Kind.BOUND_TWICE,
          Violation.Kind.REPORTED_TWICE, Violation.Kind.OVER_ALLOCATABLE, Violation.Kind.ANTI_AFFINITY,
          Violation.Kind.SPREAD, Violation.Kind.NO_REASON, Violation.Kind.CACHE_MISMATCH, Violation.Kind.NO_RELIST)) {
        out.append(" | ").append(counts.getOrDefault(kind, 0));
      }
      out.append(" | ").append(results.stream().mapToInt(TrialResult::relists).sum());
      out.append(" | ").append(recoveries.size()).append('/').append(results.size())
          .append(" | ").append(seconds(percentile(recoveries, 50)))
          .append(" | ").append(seconds(percentile(recoveries, 99))).append(" |\n");
    });
    byFault.forEach((fault, results) -> {
      var counts = results.stream().map(TrialResult::boundToDeletedNode).flatMap(c -> c.stream().boxed()).toList();
      if (!counts.isEmpty()) {
        out.append("\nPods bound to the node ").append(fault).append(" deleted, when deleted or while gone: ")
            .append(counts.stream().mapToInt(Integer::intValue).sum()).append(" in ").append(counts.size())
            .append(" trials, per trial ").append(counts).append('\n');
      }
    });
    out.append("\nGrowth across trials (threads, heap after GC): ")
        .append(growth.isEmpty() ? "none" : growth.stream().map(Violation::detail).collect(Collectors.joining("; ")))
        .append('\n');
    var all = new ArrayList<String>();
    for (int i = 0; i < trials.size(); i++) {
      for (var v : trials.get(i).violations()) {
        all.add(String.format("- trial %d (%s): %s %s: %s", i + 1, trials.get(i).fault(), v.kind(), v.subject(), v.detail()));
      }
    }
    out.append("\nViolations: ").append(all.isEmpty() ? "none\n" : "\n\n" + String.join("\n", all) + "\n");
    return out.toString();
  }

  /** @return the nearest-rank percentile of sorted values, empty if there are none */
  static Optional<Duration> percentile(List<Duration> sorted, int percent) {
    if (sorted.isEmpty()) {
      return Optional.empty();
    }
    int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
    return Optional.of(sorted.get(Math.max(0, rank - 1)));
  }

  private static String seconds(Optional<Duration> duration) {
    return duration.map(d -> String.format("%.1f s", d.toMillis() / 1000.0)).orElse("–");
  }
}
