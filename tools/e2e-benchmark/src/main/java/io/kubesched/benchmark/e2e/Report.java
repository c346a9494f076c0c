package io.kubesched.benchmark.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.function.ToDoubleFunction;

/** The Markdown the runner writes: medians per workload and contestant, ratios, then every run. */
final class Report {

  private Report() {}

  static String markdown(String machine, String command, List<RunResult> results, List<Workload> workloads) {
    var out = new StringBuilder();
    out.append("<!-- Written by scripts/e2e-benchmark.sh; method and the current table in docs/performance.md. -->\n");
    out.append("# End-to-end benchmark results\n\n");
    out.append("Command: `").append(command).append("`\n\n");
    out.append(machine).append('\n');
    out.append("Medians over the repetitions. Backlog: pods per second placing a backlog created while the ")
        .append("scheduler was paused. Stream: pods created at a steady rate while the scheduler ran; ")
        .append("latency from the pod seen created to the pod seen bound, by one watch. CPU s: the scheduler ")
        .append("process's CPU time over stream and backlog (in brackets: since its start, with the initial lists, ")
        .append("the warm-up and the JIT). Spread: standard deviation over nodes of requested / allocatable, in ")
        .append("percentage points. kube-scheduler runs its whole default profile; kube-scheduler (same plugins) ")
        .append("a generated profile with exactly the plugins and weights of this library's DefaultPolicy. The bind ")
        .append("ceiling binds pre-chosen nodes, no decisions, at each concurrency searched; its row is the best.\n\n");
    for (var workload : workloads) {
      var rows = results.stream().filter(r -> r.workload().equals(workload)).toList();
      if (rows.isEmpty()) {
        continue;
      }
      out.append(
          String.format(
              "## %s: %,d nodes, %,d bound pods, a stream of %,d and a backlog of %,d pods to place%s%n%n",
              workload.name(), workload.nodes(), workload.initialPods(), workload.streamPods(), workload.pods(),
              workload.shape().heading()
                  + (workload.shape().gangs()
                      ? String.format(
                          " of %d (gang minCount %d), members created interleaved across groups",
                          workload.groupSize(), workload.groupSize())
                      : "")
                  + (workload.floodPods() > 0 ? String.format("; %,d such pods", workload.floodPods()) : "")));
      out.append("| | backlog pods/s | p50 ms | p90 ms | p99 ms | CPU s | peak RSS MiB | CPU spread | memory spread | pending |\n");
      out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (var contestant : Contestant.values()) {
        var mine = rowsOf(rows, contestant);
        if (mine.isEmpty()) {
          continue;
        }
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                contestant.label(),
                f0(median(mine, RunResult::podsPerSecond)),
                f0(median(mine, RunResult::p50Millis)),
                f0(median(mine, RunResult::p90Millis)),
                f0(median(mine, RunResult::p99Millis)),
                Double.isNaN(median(mine, RunResult::cpuSeconds))
                    ? "–"
                    : f1(median(mine, RunResult::cpuSeconds)) + " (" + f1(median(mine, RunResult::processCpuSeconds)) + ")",
                f0(median(mine, RunResult::peakRssMiB)),
                f2(median(mine, RunResult::cpuSpread)),
                f2(median(mine, RunResult::memorySpread)),
                f0(median(mine, r -> r.pending()))));
      }
      ratios(out, rows);
      out.append('\n');
      ceiling(out, rows);
      start(out, rows);
      if (workload.shape().preempts()) {
        preemption(out, rows);
      }
      if (workload.shape().gangs()) {
        gangs(out, rows);
      }
      if (workload.shape().claims()) {
        claims(out, rows);
      }
      if (workload.shape().neverFits()) {
        attempts(out, rows, workload);
      }
    }
    out.append("## Every run\n\n");
    boolean preempting = results.stream().anyMatch(r -> r.workload().shape().preempts());
    boolean grouped = results.stream().anyMatch(r -> r.workload().shape().gangs());
    boolean neverFitting = results.stream().anyMatch(r -> r.workload().shape().neverFits());
    out.append("| workload | # | contestant | bound | pending | backlog pods/s | host steal % | stream pods/s | created/s | p50 ms | p90 ms | p99 ms | CPU s | process CPU s | peak RSS MiB | CPU spread | memory spread |")
        .append(preempting ? " preemptors bound / created | victims deleted |" : "")
        .append(grouped ? " groups whole / created | groups/s | partly bound at end (most at once) | bound early |" : "")
        .append(neverFitting ? " attempts scheduled / error / unschedulable | never fitting created / bound | patch attempts |" : "")
        .append('\n');
    out.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        .append(preempting ? "---:|---:|" : "")
        .append(grouped ? "---:|---:|---:|---:|" : "")
        .append(neverFitting ? "---:|---:|---:|" : "")
        .append('\n');
    for (var r : results) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
              r.workload().name(), r.repetition(),
              r.contestant().label() + (r.ceilingThreads() > 0 ? " (" + r.ceilingThreads() + " threads)" : ""),
              r.bound(), r.pending(),
              f0(r.podsPerSecond()), f0(100 * r.hostSteal()), f0(r.streamPodsPerSecond()), f0(r.createdPerSecond()), f0(r.p50Millis()), f0(r.p90Millis()),
              f0(r.p99Millis()), f1(r.cpuSeconds()), f1(r.processCpuSeconds()), f0(r.peakRssMiB()),
              f2(r.cpuSpread()), f2(r.memorySpread())));
      if (preempting) {
        var p = r.preemption();
        out.append(
            r.workload().shape().preempts()
                ? String.format(Locale.ROOT, " %d / %d | %d |", p.bound(), p.created(), p.victimsDeleted())
                : " – | – |");
      }
      if (grouped) {
        var g = r.gangs();
        out.append(
            r.workload().shape().gangs()
                ? String.format(
                    Locale.ROOT, " %d / %d | %s | %d (%d) | %d |", g.whole(), g.groups(), f1(g.groupsPerSecond()),
                    g.partlyBound(), g.mostPartlyBound(), g.boundEarly())
                : " – | – | – | – |");
      }
      if (neverFitting) {
        var a = r.attempts();
        var n = r.neverFitting();
        out.append(
            r.workload().shape().neverFits()
                ? String.format(
                    Locale.ROOT, " %s / %s / %s | %d / %d | %s |", f0(a.scheduled()), f0(a.error()),
                    f0(a.unschedulable()), n.created(), n.bound(), n.patches() > 0 ? f0(n.patchAttempts()) : "–")
                : " – | – | – |");
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * The preemptors' table of a preemption workload: medians of preemptors created and bound, their latency
   * from created to bound, and the victims.
   */
  private static void preemption(StringBuilder out, List<RunResult> rows) {
    out.append("Preemptors (one every 200 ms of the scheduler's running time, stream and backlog) and their ")
        .append("victims; latency from the preemptor seen created to seen bound:\n\n");
    out.append("| | preemptors created | bound | p50 ms | p99 ms | victims deleted | victims terminating |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|\n");
    perContestant(out, rows, mine -> List.of(
        f0(median(mine, r -> r.preemption().created())),
        f0(median(mine, r -> r.preemption().bound())),
        f0(median(mine, r -> r.preemption().p50Millis())),
        f0(median(mine, r -> r.preemption().p99Millis())),
        f0(median(mine, r -> r.preemption().victimsDeleted())),
        f0(median(mine, r -> r.preemption().victimsTerminating()))));
    out.append('\n');
  }

  /**
   * The groups' table of a gang workload: medians of groups created and bound whole, the backlog's groups per
   * second, a stream group's latency, and the checks (partly bound at the end, the most partly bound at once,
   * members bound before their group was complete, pods that lost their group).
   */
  private static void gangs(StringBuilder out, List<RunResult> rows) {
    out.append("Pod groups (stream and backlog): groups/s from the backlog's resumption to its last group bound ")
        .append("whole; latency of a stream group from its last member seen created to its last member seen ")
        .append("bound. Checks: groups partly bound at the end (a gang scheduler leaves none) and the most seen ")
        .append("partly bound at once (any scheduler binds a group member by member); members bound before ")
        .append("their group's last member was created, and pods the API server stored without their group ")
        .append("(both 0 for a gang scheduler):\n\n");
    out.append("| | groups | bound whole | groups/s | p50 ms | p99 ms | pods bound | partly bound at end | ")
        .append("most partly bound at once | bound early | without group |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    perContestant(out, rows, mine -> List.of(
        f0(median(mine, r -> r.gangs().groups())),
        f0(median(mine, r -> r.gangs().whole())),
        f1(median(mine, r -> r.gangs().groupsPerSecond())),
        f0(median(mine, r -> r.gangs().p50Millis())),
        f0(median(mine, r -> r.gangs().p99Millis())),
        f0(median(mine, r -> r.bound())),
        // The checks: the worst run, not the median, so that one failure shows.
        f0(max(mine, r -> r.gangs().partlyBound())),
        f0(max(mine, r -> r.gangs().mostPartlyBound())),
        f0(max(mine, r -> r.gangs().boundEarly())),
        f0(max(mine, r -> r.gangs().withoutGroup()))));
    out.append('\n');
  }

  /**
   * The claims' table of a DRA workload: the worst run's checks, so that one failure shows (every measured pod seen
   * bound, its claims allocated on its node, no device held twice).
   */
  private static void claims(StringBuilder out, List<RunResult> rows) {
    out.append("Claims (every measured pod seen bound, deleted ones included; the worst run): claims never seen ")
        .append("allocated, allocated on another node than their pod's, and devices seen allocated to two claims at ")
        .append("once (all 0 for a scheduler; the bind ceiling binds without allocating):\n\n");
    out.append("| | pods bound | claims | unallocated | on another node | device held twice |\n");
    out.append("|---|---:|---:|---:|---:|---:|\n");
    perContestant(out, rows, mine -> List.of(
        f0(median(mine, r -> r.claims().pods())),
        f0(median(mine, r -> r.claims().claims())),
        f0(max(mine, r -> r.claims().unallocated())),
        f0(max(mine, r -> r.claims().elsewhere())),
        f0(max(mine, r -> r.claims().sharedDevices()))));
    out.append('\n');
  }

  /**
   * The attempts' table of a workload with pods that fit no node: medians of each scheduler's attempts per
   * measured pod ({@code scheduled} and {@code error} over the measured pods bound) and on the pods that fit no
   * node ({@code unschedulable}), over the stream and the backlog; the pods that fit no node created and, the
   * worst run, bound (0 for a scheduler); for the flood, the attempts its label patches cost.
   */
  private static void attempts(StringBuilder out, List<RunResult> rows, Workload workload) {
    out.append("Scheduling attempts over the stream and the backlog, as each scheduler counts them (kube-scheduler's ")
        .append("`scheduler_schedule_attempts_total`): per measured pod bound, its `scheduled` and `error` attempts; ")
        .append("on the pods that fit no node, its `unschedulable` ones (the measured pods always fit). Those pods ")
        .append("created, and bound (the worst run; 0 for a scheduler)")
        .append(workload.floodPods() > 0
            ? "; the label patches of one node while the flood was pending, and the attempts they cost (of any pod,"
                + " from the first patch to " + BenchmarkRun.PATCH_SETTLE.toSeconds() + " s after the last)"
            : "")
        .append(":\n\n");
    out.append("| | measured pods bound | attempts per measured pod | attempts on pods that fit no node | ")
        .append("pods that fit no node | bound |")
        .append(workload.floodPods() > 0 ? " label patches | attempts by the patches |" : "")
        .append('\n');
    out.append("|---|---:|---:|---:|---:|---:|").append(workload.floodPods() > 0 ? "---:|---:|" : "").append('\n');
    perContestant(out, rows, mine -> {
      var cells = new ArrayList<>(List.of(
          f0(median(mine, r -> r.bound())),
          f2(median(mine, r -> r.attempts().measured() / r.bound())),
          f0(median(mine, r -> r.attempts().unschedulable())),
          f0(median(mine, r -> r.neverFitting().created())),
          f0(max(mine, r -> r.neverFitting().bound()))));
      if (workload.floodPods() > 0) {
        cells.add(f0(median(mine, r -> r.neverFitting().patches())));
        cells.add(f0(median(mine, r -> r.neverFitting().patchAttempts())));
      }
      return cells;
    });
    out.append('\n');
  }

  /**
   * The cold-start table of the schedulers (the bind ceiling decides nothing): medians of the time from the
   * process's launch to the first pod bound, and of the one-by-one latency just after the start and at the end; for
   * this library's scheduler also of {@link FirstAnswer}, the floor under its first binding.
   */
  private static void start(StringBuilder out, List<RunResult> rows) {
    var schedulers = rows.stream().filter(r -> r.contestant() != Contestant.CEILING).toList();
    if (schedulers.isEmpty()) {
      return;
    }
    out.append("Start: ").append(BenchmarkRun.ONE_BY_ONE)
        .append(" pods created one at a time (each once the one before is seen bound) as the scheduler's process ")
        .append("starts, and again at the end of the run; the first pod waits for the start-up:\n\n");
    out.append("| | first pod bound, s after launch | one by one after the start, p50 ms | at the end, p50 ms | ")
        .append("after the start / at the end | a bare JVM's first answer, s after launch |\n");
    out.append("|---|---:|---:|---:|---:|---:|\n");
    perContestant(out, schedulers, mine -> {
      double cold = median(mine, r -> r.start().coldP50Millis());
      double warm = median(mine, r -> r.start().warmP50Millis());
      var answered = mine.stream().filter(r -> !Double.isNaN(r.start().firstAnswerSeconds())).toList();
      return List.of(
          f2(median(mine, r -> r.start().firstBoundSeconds())), f1(cold), f1(warm), f1(cold / warm) + "×",
          f2(median(answered, r -> r.start().firstAnswerSeconds())));
    });
    out.append('\n');
  }

  /** One table row per contestant that has runs: its label, then the cells computed from its runs. */
  private static void perContestant(
      StringBuilder out, List<RunResult> rows, Function<List<RunResult>, List<String>> cells) {
    for (var contestant : Contestant.values()) {
      var mine = rowsOf(rows, contestant);
      if (!mine.isEmpty()) {
        out.append("| ").append(contestant.label()).append(" | ")
            .append(String.join(" | ", cells.apply(mine))).append(" |\n");
      }
    }
  }

  private static double max(List<RunResult> rows, ToDoubleFunction<RunResult> metric) {
    return rows.stream().mapToDouble(metric).max().orElse(Double.NaN);
  }

  private static void ratios(StringBuilder out, List<RunResult> rows) {
    var ours = rowsOf(rows, Contestant.KUBESCHED);
    var ceiling = rowsOf(rows, Contestant.CEILING);
    if (ours.isEmpty()) {
      return;
    }
    for (var other : List.of(Contestant.KUBE_SCHEDULER, Contestant.KUBE_SCHEDULER_SAME_PLUGINS)) {
      var kube = rowsOf(rows, other);
      if (kube.isEmpty()) {
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "| kubesched / %s | %s | %s | %s | %s | %s | %s | | | |%n",
              other.label(),
              ratio(ours, kube, RunResult::podsPerSecond),
              ratio(ours, kube, RunResult::p50Millis),
              ratio(ours, kube, RunResult::p90Millis),
              ratio(ours, kube, RunResult::p99Millis),
              ratio(ours, kube, RunResult::cpuSeconds),
              ratio(ours, kube, RunResult::peakRssMiB)));
    }
    if (!ceiling.isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "| kubesched / bind ceiling | %s | %s | %s | %s | | | | | |%n",
              ratio(ours, ceiling, RunResult::podsPerSecond),
              ratio(ours, ceiling, RunResult::p50Millis),
              ratio(ours, ceiling, RunResult::p90Millis),
              ratio(ours, ceiling, RunResult::p99Millis)));
    }
  }

  /**
   * @return the rows of {@code contestant}, in order; for the bind ceiling, those of its best concurrency ({@link
   *     #bestCeilingThreads})
   */
  private static List<RunResult> rowsOf(List<RunResult> rows, Contestant contestant) {
    if (contestant == Contestant.CEILING) {
      int best = bestCeilingThreads(rows);
      return rows.stream().filter(r -> r.contestant() == contestant && r.ceilingThreads() == best).toList();
    }
    return rows.stream().filter(r -> r.contestant() == contestant).toList();
  }

  /**
   * @return the bind ceiling's binding threads whose runs have the highest median backlog pods/s in {@code rows}
   *     (the fewest threads among equals); 0 if the ceiling has no runs
   */
  static int bestCeilingThreads(List<RunResult> rows) {
    var byThreads = ceilingByThreads(rows);
    int best = 0;
    double bestRate = Double.NEGATIVE_INFINITY;
    for (var entry : byThreads.entrySet()) {
      double rate = median(entry.getValue(), RunResult::podsPerSecond);
      if (rate > bestRate) {
        best = entry.getKey();
        bestRate = rate;
      }
    }
    return best;
  }

  /** The bind ceiling's runs in {@code rows} by binding threads, fewest first. */
  private static TreeMap<Integer, List<RunResult>> ceilingByThreads(List<RunResult> rows) {
    return rows.stream()
        .filter(r -> r.contestant() == Contestant.CEILING)
        .collect(Collectors.groupingBy(RunResult::ceilingThreads, TreeMap::new, Collectors.toList()));
  }

  /**
   * The runs of a scheduler whose backlog pods/s exceed the bind ceiling's best in the same workload and
   * repetition (over every concurrency searched): in those runs the ceiling was no bound. None where the ceiling
   * has no run of that repetition.
   */
  static List<RunResult> aboveCeiling(List<RunResult> rows) {
    var above = new ArrayList<RunResult>();
    for (var r : rows) {
      if (r.contestant() == Contestant.CEILING) {
        continue;
      }
      double ceiling =
          rows.stream()
              .filter(c -> c.contestant() == Contestant.CEILING && c.workload().equals(r.workload())
                  && c.repetition() == r.repetition())
              .mapToDouble(RunResult::podsPerSecond)
              .max()
              .orElse(Double.NaN);
      if (r.podsPerSecond() > ceiling) {
        above.add(r);
      }
    }
    return above;
  }

  /**
   * The lines under a workload's table about the bind ceiling: the concurrency search (median backlog pods/s per
   * binding threads, the best), the runs where a scheduler beat it, and pods it left pending (a runner bug).
   */
  private static void ceiling(StringBuilder out, List<RunResult> rows) {
    var byThreads = ceilingByThreads(rows);
    if (byThreads.isEmpty()) {
      return;
    }
    int best = bestCeilingThreads(rows);
    out.append("Bind ceiling: median backlog pods/s by binding threads (clients): ")
        .append(
            byThreads.entrySet().stream()
                .map(e -> String.format(
                    Locale.ROOT, "%d (%d) %s", e.getKey(), CeilingBinder.clients(e.getKey()),
                    f0(median(e.getValue(), RunResult::podsPerSecond))))
                .collect(Collectors.joining(", ")))
        .append("; the row above is ").append(best).append(" threads.\n");
    var above = aboveCeiling(rows);
    if (!above.isEmpty()) {
      out.append("**Above the ceiling** (the ceiling was no bound in these runs): ")
          .append(
              above.stream()
                  .map(r -> String.format(
                      Locale.ROOT, "%s #%d %s pods/s", r.contestant().label(), r.repetition(), f0(r.podsPerSecond())))
                  .collect(Collectors.joining(", ")))
          .append(".\n");
    }
    var pending = rows.stream().filter(r -> r.contestant() == Contestant.CEILING && r.pending() > 0).toList();
    if (!pending.isEmpty()) {
      out.append("**The bind ceiling left pods pending** (a runner bug): ")
          .append(
              pending.stream()
                  .map(r -> String.format(
                      Locale.ROOT, "%d threads #%d: %d", r.ceilingThreads(), r.repetition(), r.pending()))
                  .collect(Collectors.joining(", ")))
          .append(".\n");
    }
    out.append('\n');
  }

  /** The ratio of the medians, as "0.93×". */
  static String ratio(List<RunResult> a, List<RunResult> b, ToDoubleFunction<RunResult> metric) {
    return String.format(Locale.ROOT, "%.2f×", median(a, metric) / median(b, metric));
  }

  static double median(List<RunResult> rows, ToDoubleFunction<RunResult> metric) {
    var values = rows.stream().mapToDouble(metric).sorted().toArray();
    if (values.length == 0) {
      return Double.NaN;
    }
    int mid = values.length / 2;
    return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }

  private static String f0(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String f1(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
  }
}
