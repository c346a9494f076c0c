package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The arithmetic and the shape of the table the benchmark publishes. */
class ReportTest {

  private static RunResult run(Contestant contestant, int rep, double podsPerSecond, double p50, double cpu) {
    return new RunResult(
        Workload.SMOKE, contestant, rep, contestant == Contestant.CEILING ? 16 : 0, 150, 0, podsPerSecond, podsPerSecond / 2, 100, p50, p50 * 2, p50 * 3,
        cpu, cpu + 1, 100, 1.5, 0.5, RunResult.Preemption.NONE, RunResult.Gangs.NONE,
        new RunResult.Start(rep, 4 * p50, p50, contestant == Contestant.KUBESCHED && rep < 3 ? rep / 4.0 : Double.NaN));
  }

  @Test
  void the_start_table_has_the_schedulers_medians_and_the_cold_over_warm_ratio_but_no_ceiling() {
    var results = List.of(
        run(Contestant.KUBESCHED, 1, 100, 5, 1), run(Contestant.KUBESCHED, 2, 100, 10, 1),
        run(Contestant.KUBESCHED, 3, 100, 20, 1), run(Contestant.CEILING, 1, 500, 1, 0));
    var table = Report.markdown("Machine: test.\n", "x", results, List.of(Workload.SMOKE));
    assertTrue(
        table.lines().anyMatch(l -> l.equals("| kubesched | 2.00 | 40.0 | 10.0 | 4.0× | 0.38 |")),
        "the floor's median over the runs that measured it: " + table);
    int header = table.lines().toList().indexOf(
        "| | first pod bound, s after launch | one by one after the start, p50 ms | at the end, p50 ms | "
            + "after the start / at the end | a bare JVM's first answer, s after launch |");
    assertTrue(header > 0, table);
    assertTrue(table.lines().skip(header).takeWhile(l -> !l.isEmpty()).noneMatch(l -> l.startsWith("| bind ceiling")),
        table);
  }

  @Test
  void the_median_is_the_middle_value_or_the_mean_of_the_two_middle_values() {
    var odd = List.of(run(Contestant.KUBESCHED, 1, 30, 1, 1), run(Contestant.KUBESCHED, 2, 10, 1, 1),
        run(Contestant.KUBESCHED, 3, 20, 1, 1));
    assertEquals(20, Report.median(odd, RunResult::podsPerSecond));
    assertEquals(15, Report.median(odd.subList(1, 3), RunResult::podsPerSecond));
    assertTrue(Double.isNaN(Report.median(List.of(), RunResult::podsPerSecond)));
  }

  @Test
  void percentiles_are_nearest_rank() {
    double[] sorted = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    assertEquals(50, PodTimes.percentile(sorted, 50));
    assertEquals(90, PodTimes.percentile(sorted, 90));
    assertEquals(100, PodTimes.percentile(sorted, 99));
    assertEquals(10, PodTimes.percentile(sorted, 1));
    assertTrue(Double.isNaN(PodTimes.percentile(new double[0], 50)));
  }

  @Property
  void a_nearest_rank_percentile_is_a_value_with_at_least_p_percent_at_or_below_it(
      @ForAll @Size(min = 1, max = 200) List<@DoubleRange(min = 0, max = 1e6) Double> values,
      @ForAll @DoubleRange(min = 1, max = 100) double p) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double result = PodTimes.percentile(sorted, p);
    long atOrBelow = Arrays.stream(sorted).filter(v -> v <= result).count();
    long below = Arrays.stream(sorted).filter(v -> v < result).count();
    assertTrue(Arrays.stream(sorted).anyMatch(v -> v == result));
    assertTrue(atOrBelow >= Math.ceil(p / 100 * sorted.length), "at or below: " + atOrBelow);
    assertTrue(below < Math.ceil(p / 100 * sorted.length), "below: " + below);
  }

  @Test
  void the_spread_is_the_population_standard_deviation() {
    assertEquals(2.0, BenchmarkRun.Spread.stddev(List.of(2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0)), 1e-12);
    assertEquals(0.0, BenchmarkRun.Spread.stddev(List.of(3.0, 3.0)));
    assertEquals(0.0, BenchmarkRun.Spread.stddev(List.of()));
  }

  @Test
  void the_table_has_a_row_per_contestant_with_medians_and_the_ratios_of_the_medians() {
    var results = List.of(
        run(Contestant.KUBE_SCHEDULER, 1, 100, 200, 10), run(Contestant.KUBESCHED, 1, 150, 100, 20),
        run(Contestant.CEILING, 1, 300, 50, Double.NaN), run(Contestant.KUBE_SCHEDULER, 2, 120, 400, 12),
        run(Contestant.KUBESCHED, 2, 130, 300, 30), run(Contestant.CEILING, 2, 280, 60, Double.NaN));

    var table = Report.markdown("Machine: test.\n", "scripts/e2e-benchmark.sh", results, List.of(Workload.SMOKE));

    assertTrue(table.contains("| kube-scheduler | 110 | 300 | 600 | 900 | 11.0 (12.0) | 100 |"), table);
    assertTrue(table.contains("| kubesched | 140 | 200 | 400 | 600 | 25.0 (26.0) | 100 |"), table);
    assertTrue(table.contains("| bind ceiling | 290 | 55 | 110 | 165 | – | 100 |"), table);
    assertTrue(table.contains("| kubesched / kube-scheduler | 1.27× | 0.67× | 0.67× | 0.67× | 2.27× |"), table);
    assertTrue(table.contains("| kubesched / bind ceiling | 0.48× | 3.64× | 3.64× | 3.64× |"), table);
    assertEquals(6, table.lines().filter(l -> l.startsWith("| smoke | ")).count(), "one line per run");
  }

  @Test
  void workloads_and_contestants_are_named_as_on_the_command_line() {
    assertEquals(5_000, Workload.named("5000-nodes-affinity").nodes());
    assertEquals(PodShape.NODE_AFFINITY, Workload.named("5000-nodes-affinity").shape());
    assertEquals(PodShape.POD_ANTI_AFFINITY, Workload.named("5000-nodes-anti-affinity").shape());
    assertEquals(PodShape.TOPOLOGY_SPREADING, Workload.named("5000-nodes-spreading").shape());
    assertEquals(PodShape.PREEMPTION, Workload.named("5000-nodes-preemption").shape());
    assertEquals(Workload.SMOKE_PREEMPTION, Workload.named("smoke-preemption"));
    assertEquals(Contestant.CEILING, Contestant.parse("ceiling"));
    assertEquals(Contestant.KUBE_SCHEDULER, Contestant.parse("kube-scheduler"));
    var unknown = assertThrows(IllegalArgumentException.class, () -> Workload.named("50-nodes"));
    assertTrue(unknown.getMessage().contains("500-nodes, 5000-nodes"), unknown.getMessage());
    assertTrue(
        unknown.getMessage().endsWith(
            "5000-nodes-gangs, 5000-nodes-50000-pods, 15000-nodes-daemonset, 500-nodes-dra-template,"
                + " 500-nodes-dra-steady-state, unschedulable, mixed-churn, label-patch-flood, smoke,"
                + " smoke-preemption, smoke-gangs, smoke-dra-template, smoke-dra-steady-state, smoke-unschedulable,"
                + " smoke-mixed-churn, smoke-label-patch-flood"),
        unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Contestant.parse("volcano"));
  }

  private static RunResult preemptionRun(Contestant contestant, int rep, int bound, int victims) {
    return new RunResult(
        Workload.SMOKE_PREEMPTION, contestant, rep, contestant == Contestant.CEILING ? 16 : 0, 150, 0, 100, 50, 50, 10, 20, 30, 5, 6, 100, 1.5, 0.5,
        new RunResult.Preemption(12, bound, 1_000 * rep, 2_000 * rep, victims, 2), RunResult.Gangs.NONE, RunResult.Start.NONE);
  }

  @Test
  void a_preemption_workload_has_a_preemptors_table_and_every_run_says_its_preemptors_and_victims() {
    var results = List.of(
        run(Contestant.KUBE_SCHEDULER, 1, 100, 200, 10),
        preemptionRun(Contestant.KUBE_SCHEDULER, 1, 10, 40), preemptionRun(Contestant.KUBESCHED, 1, 0, 0),
        preemptionRun(Contestant.KUBE_SCHEDULER, 2, 12, 48), preemptionRun(Contestant.KUBESCHED, 2, 0, 0));

    var table = Report.markdown(
        "Machine: test.\n", "scripts/e2e-benchmark.sh", results, List.of(Workload.SMOKE, Workload.SMOKE_PREEMPTION));

    assertTrue(table.contains("| | preemptors created | bound | p50 ms | p99 ms | victims deleted | victims terminating |"), table);
    assertTrue(table.contains("| kube-scheduler | 12 | 11 | 1,500 | 3,000 | 44 | 2 |"), table);
    assertTrue(table.contains("| kubesched | 12 | 0 | 1,500 | 3,000 | 0 | 2 |"), table);
    assertEquals(1, table.lines().filter(l -> l.startsWith("| | preemptors created |")).count(), "only the preemption workload");
    assertTrue(table.lines().anyMatch(l -> l.startsWith("| smoke | 1 | kube-scheduler |") && l.endsWith("| – | – |")), table);
    assertTrue(
        table.lines().anyMatch(l -> l.startsWith("| smoke-preemption | 2 | kube-scheduler |") && l.endsWith("| 12 / 12 | 48 |")),
        table);
    var withoutPreemption = Report.markdown("Machine: test.\n", "x", results.subList(0, 1), List.of(Workload.SMOKE));
    assertTrue(withoutPreemption.lines().noneMatch(l -> l.contains("preemptors")), withoutPreemption);
  }

  private static RunResult gangRun(Contestant contestant, int rep, int whole, int partly, int early) {
    return new RunResult(
        Workload.SMOKE_GANGS, contestant, rep, contestant == Contestant.CEILING ? 16 : 0, 60, 0, 100, 50, 50, 10, 20, 30, 5, 6, 100, 1.5, 0.5,
        RunResult.Preemption.NONE,
        new RunResult.Gangs(15, whole, partly, 3 * rep, early, 0, 2.5 * rep, 100 * rep, 300 * rep),
        RunResult.Start.NONE);
  }

  @Test
  void a_gang_workload_has_a_groups_table_with_medians_and_the_worst_run_of_each_check() {
    var results = List.of(
        run(Contestant.KUBE_SCHEDULER, 1, 100, 200, 10),
        gangRun(Contestant.KUBE_SCHEDULER, 1, 15, 0, 0), gangRun(Contestant.CEILING, 1, 15, 0, 40),
        gangRun(Contestant.KUBE_SCHEDULER, 2, 14, 1, 0), gangRun(Contestant.CEILING, 2, 15, 0, 44),
        gangRun(Contestant.KUBE_SCHEDULER, 3, 15, 0, 0));

    var table = Report.markdown(
        "Machine: test.\n", "scripts/e2e-benchmark.sh", results, List.of(Workload.SMOKE, Workload.SMOKE_GANGS));

    assertTrue(table.contains("## smoke-gangs: 20 nodes, 20 bound pods, a stream of 20 and a backlog of 40 pods to"
        + " place in gangs of 4 (gang minCount 4), members created interleaved across groups"), table);
    assertTrue(table.contains("| | groups | bound whole | groups/s | p50 ms | p99 ms | pods bound |"), table);
    // Medians of 15, 14, 15 whole and of 2.5, 5, 7.5 groups/s; the worst of 0, 1, 0 partly bound.
    assertTrue(table.contains("| kube-scheduler | 15 | 15 | 5.0 | 200 | 600 | 60 | 1 | 9 | 0 | 0 |"), table);
    assertTrue(table.contains("| bind ceiling | 15 | 15 | 3.8 | 150 | 450 | 60 | 0 | 6 | 44 | 0 |"), table);
    assertEquals(1, table.lines().filter(l -> l.startsWith("| | groups |")).count(), "only the gang workload");
    assertTrue(table.lines().anyMatch(l -> l.startsWith("| smoke | 1 | kube-scheduler |") && l.endsWith("| – | – | – | – |")), table);
    assertTrue(
        table.lines().anyMatch(l -> l.startsWith("| smoke-gangs | 2 | kube-scheduler |") && l.endsWith("| 14 / 15 | 5.0 | 1 (6) | 0 |")),
        table);
  }

  private static RunResult ceilingRun(int threads, int rep, double podsPerSecond, int pending) {
    return new RunResult(
        Workload.SMOKE, Contestant.CEILING, rep, threads, 150, pending, podsPerSecond, podsPerSecond / 2, 100, 5, 10,
        15, Double.NaN, Double.NaN, Double.NaN, 1.5, 0.5, RunResult.Preemption.NONE, RunResult.Gangs.NONE, RunResult.Start.NONE);
  }

  @Test
  void the_ceiling_row_is_its_best_concurrency_and_the_search_is_listed_under_the_table() {
    var results = List.of(
        run(Contestant.KUBESCHED, 1, 150, 100, 20), run(Contestant.KUBE_SCHEDULER_SAME_PLUGINS, 1, 120, 100, 10),
        ceilingRun(16, 1, 200, 0), ceilingRun(32, 1, 320, 0), ceilingRun(64, 1, 300, 0),
        ceilingRun(16, 2, 220, 0), ceilingRun(32, 2, 300, 0), ceilingRun(64, 2, 340, 0));

    var table = Report.markdown("Machine: test.\n", "x", results, List.of(Workload.SMOKE));

    // Medians: 16 threads 210, 32 threads 310, 64 threads 320.
    assertEquals(64, Report.bestCeilingThreads(results));
    assertTrue(table.contains("| bind ceiling | 320 | 5 | 10 | 15 | – | – |"), table);
    assertTrue(
        table.contains("Bind ceiling: median backlog pods/s by binding threads (clients): 16 (1) 210, 32 (2) 310,"
            + " 64 (4) 320; the row above is 64 threads."),
        table);
    assertTrue(table.contains("| kubesched / bind ceiling | 0.47× |"), table);
    assertTrue(table.contains("| kubesched / kube-scheduler (same plugins) | 1.25× |"), table);
    assertTrue(table.contains("| kube-scheduler (same plugins) | 120 |"), table);
    assertTrue(table.lines().anyMatch(l -> l.startsWith("| smoke | 2 | bind ceiling (32 threads) | 150 | 0 | 300 |")), table);
    assertTrue(table.lines().noneMatch(l -> l.contains("Above the ceiling") || l.contains("left pods pending")), table);
  }

  @Test
  void a_run_faster_than_the_best_ceiling_of_its_repetition_is_flagged_and_so_is_a_ceiling_with_pods_pending() {
    var results = List.of(
        run(Contestant.KUBESCHED, 1, 330, 100, 20), run(Contestant.KUBESCHED, 2, 330, 100, 20),
        run(Contestant.KUBE_SCHEDULER, 1, 100, 100, 20),
        ceilingRun(16, 1, 200, 0), ceilingRun(32, 1, 320, 17), ceilingRun(16, 2, 340, 0), ceilingRun(32, 2, 100, 0));

    var above = Report.aboveCeiling(results);
    var table = Report.markdown("Machine: test.\n", "x", results, List.of(Workload.SMOKE));

    // Repetition 1: the best ceiling 320 < 330; repetition 2: 340 > 330.
    assertEquals(List.of(results.get(0)), above);
    assertTrue(table.contains("**Above the ceiling** (the ceiling was no bound in these runs): kubesched #1 330 pods/s."), table);
    assertTrue(table.contains("**The bind ceiling left pods pending** (a runner bug): 32 threads #1: 17."), table);
  }

  @Test
  void a_ceiling_binds_over_one_client_per_16_threads() {
    assertEquals(List.of(1, 1, 1, 2, 2, 4, 8), List.of(1, 8, 16, 17, 32, 64, 128).stream().map(CeilingBinder::clients).toList());
  }

  @Test
  void contestants_are_parsed_by_option_label_or_name_and_an_unknown_one_lists_the_options() {
    assertEquals(Contestant.KUBE_SCHEDULER_SAME_PLUGINS, Contestant.parse("kube-scheduler-same-plugins"));
    assertEquals(Contestant.KUBE_SCHEDULER_SAME_PLUGINS, Contestant.parse("kube-scheduler (same plugins)"));
    assertEquals(Contestant.CEILING, Contestant.parse("bind ceiling"));
    var unknown = assertThrows(IllegalArgumentException.class, () -> Contestant.parse("volcano"));
    assertEquals(
        "--contestants: unknown contestant 'volcano'; known: kube-scheduler, kube-scheduler-same-plugins, kubesched,"
            + " ceiling",
        unknown.getMessage());
  }
}
