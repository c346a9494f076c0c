package io.kubesched.benchmark.e2e;

import static io.kubesched.testcluster.RunRecord.number;

import io.kubesched.testcluster.RunRecord;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One invocation of the runner as data: the machine, the code's revision, the command, the settings and every
 * run's figures, in the JSON that {@code scripts/render-results.py} turns into the tables of {@code
 * docs/performance.md}. The Markdown report is a view of the same figures; this file is what is kept
 * ({@code results/e2e-benchmark/}, one file per invocation). A figure not measured (the bind ceiling's CPU and
 * memory, a workload's preemptors where it has none) is {@code null}, never NaN. The header is {@link
 * RunRecord}'s.
 */
final class RunData {

  private RunData() {}

  /**
   * @param revision the code measured: {@code git describe}-like text from the script, "unknown" if none
   * @param command the command as {@code E2eBenchmark} shows it, without machine-specific paths
   * @param started when the invocation began
   * @param finished when its last run ended (or now, for a file written mid-way)
   * @param results every run so far, in the order run
   */
  static Map<String, Object> record(
      String revision, String command, String kubeVersion, BenchmarkRun.Settings settings, Instant started,
      Instant finished, List<RunResult> results, List<Workload> workloads) {
    var root =
        RunRecord.header("e2e-benchmark", revision, command, started, finished, Map.of("kubernetes", kubeVersion));
    var knobs = new LinkedHashMap<String, Object>();
    knobs.put("qps", settings.qps());
    knobs.put("burst", settings.burst());
    knobs.put("kubeschedJvmFlags", settings.kubeschedJvmFlags());
    knobs.put("runnerJvmFlags", ManagementFactory.getRuntimeMXBean().getInputArguments());
    knobs.put("warmupPods", settings.warmupPods());
    knobs.put("streamRate", settings.streamRate());
    root.put("settings", knobs);
    var shapes = new LinkedHashMap<String, Object>();
    for (var w : workloads) {
      var shape = new LinkedHashMap<String, Object>();
      shape.put("nodes", w.nodes());
      shape.put("initialPods", w.initialPods());
      shape.put("streamPods", w.streamPods());
      shape.put("backlogPods", w.pods());
      shape.put("pods", w.shape().heading().strip());
      if (w.shape().gangs()) {
        shape.put("groupSize", w.groupSize());
      }
      if (w.shape().neverFits()) {
        shape.put("neverFitting", true);
        w.shape().churnInterval().ifPresent(interval -> shape.put("churnIntervalMs", interval.toMillis()));
      }
      if (w.floodPods() > 0) {
        shape.put("floodPods", w.floodPods());
        shape.put("labelPatches", PodShape.FLOOD_PATCHES);
      }
      if (w.shape().claims()) {
        shape.put("devicesPerNode", PodShape.DEVICES_PER_NODE);
        shape.put("initialClaims", w.initialClaims());
        shape.put("deletedOnceBound", w.shape().deletesBound());
      }
      shapes.put(w.name(), shape);
    }
    root.put("workloads", shapes);
    root.put("runs", results.stream().map(RunData::run).toList());
    return root;
  }

  private static Map<String, Object> run(RunResult r) {
    var m = new LinkedHashMap<String, Object>();
    m.put("workload", r.workload().name());
    m.put("repetition", r.repetition());
    m.put("contestant", r.contestant().option());
    m.put("ceilingThreads", r.ceilingThreads());
    m.put("bound", r.bound());
    m.put("pending", r.pending());
    m.put("backlogPodsPerSecond", number(r.podsPerSecond()));
    m.put("hostSteal", number(r.hostSteal()));
    m.put("streamPodsPerSecond", number(r.streamPodsPerSecond()));
    m.put("createdPerSecond", number(r.createdPerSecond()));
    m.put("p50Ms", number(r.p50Millis()));
    m.put("p90Ms", number(r.p90Millis()));
    m.put("p99Ms", number(r.p99Millis()));
    m.put("cpuSeconds", number(r.cpuSeconds()));
    m.put("processCpuSeconds", number(r.processCpuSeconds()));
    m.put("peakRssMiB", number(r.peakRssMiB()));
    m.put("cpuSpread", number(r.cpuSpread()));
    m.put("memorySpread", number(r.memorySpread()));
    var s = r.start();
    if (Double.isNaN(s.firstBoundSeconds())) {
      m.put("start", null);
    } else {
      var sm = new LinkedHashMap<String, Object>();
      sm.put("firstBoundSeconds", s.firstBoundSeconds());
      sm.put("afterStartP50Ms", number(s.coldP50Millis()));
      sm.put("atEndP50Ms", number(s.warmP50Millis()));
      if (!Double.isNaN(s.firstAnswerSeconds())) {
        sm.put("firstAnswerSeconds", number(s.firstAnswerSeconds()));
      }
      m.put("start", sm);
    }
    if (r.workload().shape().preempts()) {
      var p = r.preemption();
      var pm = new LinkedHashMap<String, Object>();
      pm.put("created", p.created());
      pm.put("bound", p.bound());
      pm.put("p50Ms", number(p.p50Millis()));
      pm.put("p99Ms", number(p.p99Millis()));
      pm.put("victimsDeleted", p.victimsDeleted());
      pm.put("victimsTerminating", p.victimsTerminating());
      m.put("preemption", pm);
    }
    if (r.workload().shape().gangs()) {
      var g = r.gangs();
      var gm = new LinkedHashMap<String, Object>();
      gm.put("groups", g.groups());
      gm.put("whole", g.whole());
      gm.put("partlyBoundAtEnd", g.partlyBound());
      gm.put("mostPartlyBound", g.mostPartlyBound());
      gm.put("boundEarly", g.boundEarly());
      gm.put("withoutGroup", g.withoutGroup());
      gm.put("groupsPerSecond", number(g.groupsPerSecond()));
      gm.put("p50Ms", number(g.p50Millis()));
      gm.put("p99Ms", number(g.p99Millis()));
      m.put("gangs", gm);
    }
    if (r.workload().shape().neverFits()) {
      var a = r.attempts();
      var am = new LinkedHashMap<String, Object>();
      am.put("scheduled", number(a.scheduled()));
      am.put("unschedulable", number(a.unschedulable()));
      am.put("error", number(a.error()));
      m.put("attempts", am);
      var n = r.neverFitting();
      var nm = new LinkedHashMap<String, Object>();
      nm.put("created", n.created());
      nm.put("bound", n.bound());
      nm.put("labelPatches", n.patches());
      nm.put("patchAttempts", number(n.patchAttempts()));
      m.put("neverFitting", nm);
    }
    if (r.workload().shape().claims()) {
      var c = r.claims();
      var cm = new LinkedHashMap<String, Object>();
      cm.put("pods", c.pods());
      cm.put("claims", c.claims());
      cm.put("unallocated", c.unallocated());
      cm.put("elsewhere", c.elsewhere());
      cm.put("sharedDevices", c.sharedDevices());
      m.put("claims", cm);
    }
    return m;
  }
}
