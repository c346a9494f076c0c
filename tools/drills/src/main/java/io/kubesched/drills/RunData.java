package io.kubesched.drills;

import io.kubesched.testcluster.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One invocation of the drills as data: the machine, the code's revision, the command, the settings, every
 * trial (its fault, pods, violations, LISTs, recovery) and the leader-kill takeovers, in the JSON that {@code
 * scripts/render-results.py} turns into the table of {@code docs/reliability.md} ({@code results/drills/}, one
 * file per invocation), after {@link RunRecord}'s header. Durations are in seconds; a recovery or takeover that
 * never came is {@code null}.
 */
final class RunData {

  private RunData() {}

  /**
   * @param settings the drill's knobs as the command gave them (trials, nodes, rate, stall, burst), by name
   * @param trials every trial, in the order run
   * @param growth the violations found across trials (threads, heap)
   * @param takeovers the leader-kill trials' takeovers, in the order run
   */
  static Map<String, Object> record(
      String revision, String command, Map<String, Object> settings, Instant started, Instant finished,
      List<TrialResult> trials, List<Violation> growth, List<Takeover> takeovers) {
    var root = RunRecord.header("drills", revision, command, started, finished, Map.of());
    root.put("settings", settings);
    root.put("faults", summary(trials));
    root.put("trials", trials.stream().map(RunData::trial).toList());
    root.put("growth", growth.stream().map(RunData::violation).toList());
    root.put("takeoverSummary", takeovers.isEmpty() ? null : takeoverSummary(takeovers));
    root.put("takeovers", takeovers.stream().map(RunData::takeover).toList());
    return root;
  }

  /** The leader-kill takeovers' p50 and p99 (nearest rank) to the Lease and to the first binding, as the report's. */
  private static Map<String, Object> takeoverSummary(List<Takeover> takeovers) {
    var leases = takeovers.stream().map(Takeover::lease).flatMap(Optional::stream).sorted().toList();
    var bindings = takeovers.stream().map(Takeover::firstBinding).flatMap(Optional::stream).sorted().toList();
    var m = new LinkedHashMap<String, Object>();
    m.put("trials", takeovers.size());
    m.put("takenOver", leases.size());
    m.put("leaseP50Seconds", seconds(Report.percentile(leases, 50)));
    m.put("leaseP99Seconds", seconds(Report.percentile(leases, 99)));
    m.put("firstBindingP50Seconds", seconds(Report.percentile(bindings, 50)));
    m.put("firstBindingP99Seconds", seconds(Report.percentile(bindings, 99)));
    return m;
  }

  /**
   * The soak as data ({@code results/soak/}): its settings, verdicts, every sample, the classes that grew.
   *
   * @param verdicts what {@link Soak#verdicts} found wrong; empty for none
   */
  static Map<String, Object> soakRecord(
      String revision, String command, Soak.Settings settings, Instant started, Instant finished,
      Soak.Outcome outcome, List<String> verdicts) {
    var root = RunRecord.header("soak", revision, command, started, finished, Map.of());
    var knobs = new LinkedHashMap<String, Object>();
    knobs.put("minutes", settings.length().toMillis() / 60_000.0);
    knobs.put("nodes", settings.nodes());
    knobs.put("podsPerSecond", settings.rate());
    knobs.put("lifetimeSeconds", settings.lifetime().toSeconds());
    knobs.put("intervalSeconds", settings.interval().toSeconds());
    knobs.put("warmupSamples", outcome.warmupSamples());
    root.put("settings", knobs);
    root.put("verdicts", verdicts);
    root.put("leftInView", outcome.leftInView());
    root.put("createFailures", outcome.createFailures());
    root.put("samples", outcome.samples().stream().map(x -> {
      var m = new LinkedHashMap<String, Object>();
      m.put("minute", x.minute());
      m.put("created", x.created());
      m.put("bound", x.bound());
      m.put("p50Ms", x.p50Millis() < 0 ? null : x.p50Millis());
      m.put("p99Ms", x.p99Millis() < 0 ? null : x.p99Millis());
      m.put("late", x.late());
      m.put("heapMiB", x.heapMiB());
      m.put("threads", x.threads());
      m.put("viewPods", x.cachePods());
      m.put("boundPods", x.boundPods());
      return m;
    }).toList());
    root.put("grown", outcome.grown().stream().map(c -> Map.of(
        "class", c.className(), "bytes", c.bytes(), "instances", c.instances())).toList());
    return root;
  }

  /**
   * One entry per fault, in the order first run, as the report's table has it: trials, pods, violations by kind
   * (every kind, 0 included), the scheduler's LISTs, how many trials recovered and the recovery's p50 and p99
   * (nearest rank, as {@link Report#percentile}).
   */
  static List<Map<String, Object>> summary(List<TrialResult> trials) {
    var byFault = new LinkedHashMap<String, List<TrialResult>>();
    trials.forEach(t -> byFault.computeIfAbsent(t.fault(), f -> new ArrayList<>()).add(t));
    return byFault.entrySet().stream().map(e -> {
      var results = e.getValue();
      var counts = new LinkedHashMap<String, Integer>();
      for (var kind : Violation.Kind.values()) {
        counts.put(kind.name(), 0);
      }
      results.forEach(r -> r.violations().forEach(v -> counts.merge(v.kind().name(), 1, Integer::sum)));
      var recoveries = results.stream().map(TrialResult::recovery).flatMap(Optional::stream).sorted().toList();
      var m = new LinkedHashMap<String, Object>();
      m.put("fault", e.getKey());
      m.put("trials", results.size());
      m.put("pods", results.stream().mapToInt(TrialResult::pods).sum());
      m.put("violations", counts);
      m.put("relists", results.stream().mapToInt(TrialResult::relists).sum());
      m.put("recovered", recoveries.size());
      m.put("recoveryP50Seconds", seconds(Report.percentile(recoveries, 50)));
      m.put("recoveryP99Seconds", seconds(Report.percentile(recoveries, 99)));
      return (Map<String, Object>) m;
    }).toList();
  }

  private static Map<String, Object> trial(TrialResult t) {
    var m = new LinkedHashMap<String, Object>();
    m.put("fault", t.fault());
    m.put("pods", t.pods());
    m.put("relists", t.relists());
    m.put("recoverySeconds", seconds(t.recovery()));
    m.put("boundToDeletedNode", t.boundToDeletedNode().isPresent() ? t.boundToDeletedNode().getAsInt() : null);
    m.put("violations", t.violations().stream().map(RunData::violation).toList());
    return m;
  }

  private static Map<String, Object> violation(Violation v) {
    var m = new LinkedHashMap<String, Object>();
    m.put("kind", v.kind().name());
    m.put("subject", v.subject());
    m.put("detail", v.detail());
    return m;
  }

  private static Map<String, Object> takeover(Takeover t) {
    var m = new LinkedHashMap<String, Object>();
    m.put("leaseSeconds", seconds(t.lease()));
    m.put("firstBindingSeconds", seconds(t.firstBinding()));
    m.put("sinceRenewalSeconds", seconds(Optional.of(t.sinceRenewal())));
    m.put("exitStatus", t.exitStatus());
    m.put("bindingsBeforeKill", t.bindingsBeforeKill());
    m.put("listsAtTakeover", t.listsAtTakeover());
    m.put("listsAtStart", t.listsAtStart());
    return m;
  }

  private static @Nullable Double seconds(Optional<Duration> d) {
    return d.map(x -> x.toMillis() / 1000.0).orElse(null);
  }
}
