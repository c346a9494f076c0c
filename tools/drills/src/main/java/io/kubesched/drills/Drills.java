package io.kubesched.drills;

import io.kubesched.testcluster.RunRecord;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The drill runner's command line. Run it through {@code scripts/drills.sh}, which builds the jar and passes
 * {@code --project}; {@code --help} lists the options. Exits 0 when no invariant was violated, 1 when one
 * was, 2 on a usage error.
 */
public final class Drills {

  private static final String USAGE =
      """
      usage: Drills --project DIR --out FILE [--data FILE] [--revision TEXT] [--faults NAME,...] [--trials N] [--nodes N] [--rate PODS/S]
                    [--stall SECONDS] [--before SECONDS] [--after SECONDS] [--settle SECONDS] [--burst N]
        --out      the Markdown report; --data: the same as data, with the machine, revision and command
                   (default: --out's name with .json), which scripts/render-results.py renders
        --faults   apiserver-restart, hung-connection, etcd-compaction, etcd-restart, deletes, leader-kill (default:
                   these six; leader-kill runs after the others, on a cluster of its own, with the scheduler as
                   two processes), throttle (alone)
        --trials   trials per fault (default 20)
        --nodes    nodes of 4 CPU, 8 GiB, 110 pods (default 4)
        --rate     pods the stream creates per second (default 4)
        --stall    how long hung-connection holds the connections silent (default 30)
        --before   stream before each fault (default 3); --after: after it heals (default 5)
        --settle   the longest wait for the system to settle before the invariants are checked (default 120)
        --burst    pods of each throttle trial's burst (default 2000); throttle runs alone (--faults throttle),
                   its scheduler's client limited to 5 requests a second, and needs room for the burst and
                   the stream at 110 pods per node (--nodes 24 for 2000)
      or: Drills --soak MINUTES ... (the soak, docs/reliability.md; `--soak 1 --help` lists its options)
      """;

  private Drills() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.err));
  }

  /** The options as given, without those that differ from machine to machine (paths) or name the output. */
  static String command(String[] args) {
    return String.join(" ", args)
        .replaceAll("--(project|out|data|revision) \\S+ ?", "")
        .trim();
  }

  static int run(String[] args, PrintStream log) throws Exception {
    if (List.of(args).contains("--soak")) {
      return Soak.command(args, log);
    }
    Path project = null;
    Path out = null;
    Path data = null;
    String revision = "unknown";
    var faultNames = List.of("apiserver-restart", "hung-connection", "etcd-compaction", "etcd-restart", "deletes",
        LeaderKillDrill.NAME);
    int trials = 20;
    int nodes = 4;
    double rate = 4;
    int stall = 30;
    int before = 3;
    int after = 5;
    int settle = 120;
    int burst = 2000;
    for (int i = 0; i < args.length; i++) {
      var flag = args[i];
      if (flag.equals("--help")) {
        log.print(USAGE);
        return 0;
      }
      if (i + 1 >= args.length) {
        log.print("missing value after " + flag + "\n" + USAGE);
        return 2;
      }
      var value = args[++i];
      try {
        switch (flag) {
          case "--project" -> project = Path.of(value);
          case "--out" -> out = Path.of(value);
          case "--data" -> data = Path.of(value);
          case "--revision" -> revision = value;
          case "--faults" -> faultNames = List.of(value.split(","));
          case "--trials" -> trials = Integer.parseInt(value);
          case "--nodes" -> nodes = Integer.parseInt(value);
          case "--rate" -> rate = Double.parseDouble(value);
          case "--stall" -> stall = Integer.parseInt(value);
          case "--before" -> before = Integer.parseInt(value);
          case "--after" -> after = Integer.parseInt(value);
          case "--settle" -> settle = Integer.parseInt(value);
          case "--burst" -> burst = Integer.parseInt(value);
          default -> {
            log.print("unknown option " + flag + "\n" + USAGE);
            return 2;
          }
        }
      } catch (NumberFormatException e) {
        log.print("not a number after " + flag + ": " + value + "\n" + USAGE);
        return 2;
      }
    }
    if (project == null || out == null || trials < 1 || nodes < 2 || rate <= 0) {
      log.print("--project and --out are required; --trials ≥ 1, --nodes ≥ 2, --rate > 0\n" + USAGE);
      return 2;
    }
    if (data == null) {
      data = RunRecord.beside(out);
    }
    var started = Instant.now();
    var stallFor = Duration.ofSeconds(stall);
    int nodesFinal = nodes;
    int burstFinal = burst;
    boolean throttled = faultNames.contains("throttle");
    // Room for the burst and the stream's pods meanwhile (4 a second while a 2,000-pod burst is created, about
    // 50 s): a quarter more than the burst, and 100.
    int room = burst + burst / 4 + 100;
    if (throttled && (faultNames.size() > 1 || burst < 1 || nodes * Throttle.PODS_PER_NODE < room)) {
      log.print("throttle runs alone (--faults throttle), with --burst ≥ 1 and room for it: --nodes ≥ "
          + (int) Math.ceil(Math.max(room, 1) / (double) Throttle.PODS_PER_NODE) + " for --burst " + burst
          + "; got --faults " + String.join(",", faultNames) + " --nodes " + nodes + "\n" + USAGE);
      return 2;
    }
    Map<String, Function<String, Fault>> known = Map.of(
        "apiserver-restart", name -> new ApiServerRestart(),
        "hung-connection", name -> new HungConnection(stallFor),
        "etcd-compaction", name -> new EtcdCompaction(),
        "etcd-restart", name -> new EtcdRestart(),
        "deletes", name -> new Deletes("node-" + (nodesFinal - 1)),
        "throttle", name -> new Throttle(burstFinal));
    var faults = new ArrayList<Fault>();
    for (var name : faultNames) {
      if (name.equals(LeaderKillDrill.NAME)) {
        continue;
      }
      var make = known.get(name);
      if (make == null) {
        log.print("unknown fault " + name + "; known: " + String.join(", ", known.keySet().stream().sorted().toList())
            + ", " + LeaderKillDrill.NAME + "\n");
        return 2;
      }
      faults.add(make.apply(name));
    }
    // A throttled burst takes burst / 5 s to bind: the settle wait must outlast it.
    var settleFor = Duration.ofSeconds(throttled ? Math.max(settle, (long) (burst / Throttle.QPS) + 120) : settle);
    var settings = new DrillRun.Settings(project, faults, trials, nodes, rate, Duration.ofSeconds(before),
        Duration.ofSeconds(after), settleFor, throttled ? Throttle.QPS : 0, throttled ? Throttle.LIMIT_BURST : 0);
    var outcome = faults.isEmpty()
        ? new DrillRun.Outcome(List.of(), List.of(), List.of(), List.of(), List.of())
        : new DrillRun(settings, log).run();
    var kill = faultNames.contains(LeaderKillDrill.NAME)
        ? new LeaderKillDrill(new LeaderKillDrill.Settings(project, trials, nodes, rate, Duration.ofSeconds(before),
            Duration.ofSeconds(after), Duration.ofSeconds(settle)), log).run()
        : new LeaderKillDrill.Outcome(List.of(), List.of());
    var title = String.format(
        "Command: `scripts/drills.sh %s`, %d trial(s) per fault, %d nodes, %s pods/s, hung-connection stall %d s. "
            + "After each trial: threads %s; heap after GC (MiB) %s; the scheduler's connections %s.",
        command(args),
        trials, nodes, rate, stall, outcome.threads(),
        outcome.heap().stream().map(b -> String.valueOf(b >> 20)).toList(), outcome.connections())
        + (throttled ? String.format(" Throttle: bursts of %d pods; the scheduler's client limited to %s requests/s "
            + "(burst %d), bindings and reports each.", burst, Throttle.QPS, Throttle.LIMIT_BURST) : "");
    var trialsRun = new ArrayList<>(outcome.trials());
    trialsRun.addAll(kill.trials());
    var report = Report.markdown(title, trialsRun, outcome.growth()) + Takeover.markdown(kill.takeovers());
    Files.writeString(out, report);
    var knobs = new LinkedHashMap<String, Object>();
    knobs.put("faults", faultNames);
    knobs.put("trials", trials);
    knobs.put("nodes", nodes);
    knobs.put("podsPerSecond", rate);
    knobs.put("stallSeconds", stall);
    knobs.put("settleSeconds", settleFor.toSeconds());
    if (throttled) {
      knobs.put("burst", burst);
    }
    RunRecord.write(data, RunData.record(revision, "scripts/drills.sh " + command(args), knobs, started,
        Instant.now(), trialsRun, outcome.growth(), kill.takeovers()));
    log.println("wrote " + out + " and " + data);
    log.print(report);
    boolean clean = outcome.growth().isEmpty() && trialsRun.stream().allMatch(t -> t.violations().isEmpty());
    return clean ? 0 : 1;
  }
}
