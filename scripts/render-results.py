#!/usr/bin/env python3
"""Renders the current tables of docs/performance.md and docs/reliability.md from the data under results/.

Every invocation of scripts/e2e-benchmark.sh or scripts/drills.sh leaves one JSON file there (the machine, the
code's revision, the command and every figure). The pages show the current table: this script picks it and
writes it between the page's markers

    <!-- rendered by scripts/render-results.py: NAME -->
    ...
    <!-- end of rendered: NAME -->

so that a figure in the docs is always one of the data's. Which file is current:

- e2e-benchmark: the newest file (names start with the UTC time) of a full run, one whose command names no
  --workloads and in which both kube-scheduler and kubesched ran: a partial run never replaces the table.
- e2e-dra: the newest file in which both kube-scheduler and kubesched ran a DRA workload (one whose shape has
  devicesPerNode; they run only when named); until there is one, the block gives the command that makes it.
- e2e-never-fitting: the same for the workloads with pods that fit no node (whose shape has neverFitting:
  unschedulable, mixed-churn, label-patch-flood), with each scheduler's attempts.
- e2e-start: the newest file in which kube-scheduler and kubesched both started on 500-nodes, with the time to
  their first binding.
- drills: per fault, the newest file that ran it (the drills are run fault by fault).
- soak: the newest file.

- jmh: the newest file.

    scripts/render-results.py            rewrite the pages
    scripts/render-results.py --check    exit 1, naming the page, if a page differs from what the data renders (CI)
    scripts/render-results.py --print FILE...  render data files as the pages would, to standard output (CI checks
                                         that the runners' own output renders)
    scripts/render-results.py keep-jmh RAW OUT --revision R --started T --command C --java V
                                         wrap JMH's JSON result RAW with the machine, revision and command into OUT
                                         (scripts/jmh.sh does this)
"""

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
SCHEMA = 1

CONTESTANTS = [
    ("kube-scheduler", "kube-scheduler"),
    ("kube-scheduler-same-plugins", "kube-scheduler (same plugins)"),
    ("kubesched", "kubesched"),
    ("ceiling", "bind ceiling"),
]
SHORT = {
    "5000-nodes-affinity": "affinity",
    "5000-nodes-anti-affinity": "anti-affinity",
    "5000-nodes-spreading": "spreading",
    "5000-nodes-preemption": "preemption",
    "5000-nodes-gangs": "gangs",
    "500-nodes-dra-template": "claim template",
    "500-nodes-dra-steady-state": "steady state",
    "mixed-churn": "mixed churn",
    "label-patch-flood": "label-patch flood",
}
VIOLATIONS = [
    ("LOST", "lost"), ("MOVED", "moved"), ("BOUND_TWICE", "bound twice"), ("REPORTED_TWICE", "reported twice"),
    ("OVER_ALLOCATABLE", "over allocatable"), ("ANTI_AFFINITY", "anti-affinity"), ("SPREAD", "spread"),
    ("NO_REASON", "no reason"), ("CACHE_MISMATCH", "cache mismatch"), ("NO_RELIST", "no relist"),
]


def load(kind, files=None):
    files = sorted((RESULTS / kind).glob("*.json")) if files is None else files
    data = []
    for f in files:
        f = Path(f).resolve()
        d = json.loads(f.read_text())
        if d.get("schema") != SCHEMA or d.get("kind") != kind:
            sys.exit(f"{f.relative_to(ROOT)}: schema {d.get('schema')} kind {d.get('kind')}; this script reads "
                     f"schema {SCHEMA} kind {kind}")
        d["_file"] = f.relative_to(ROOT).as_posix() if f.is_relative_to(ROOT) else f.as_posix()
        data.append(d)
    return data


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def f0(v):
    return "–" if v is None else f"{v:,.0f}"


def f1(v):
    return "–" if v is None else f"{v:.1f}"


def percent(share):
    return "–" if share is None else f"{100 * share:.0f} %"


def ratio(a, b):
    return "–" if a is None or b is None or b == 0 else f"{a / b:.2f}×"


def date_of(d):
    started = d.get("started")
    return started[:10] if started else Path(d["_file"]).name[:10]


def machine_text(m):
    parts = [f"{m['cpus']} CPUs" + (f" ({m['cpu']})" if m.get("cpu") else "")]
    if m.get("memoryGiB"):
        parts.append(f"{m['memoryGiB']} GiB")
    if m.get("java"):
        parts.append(f"Java {m['java'].split(' ')[0]}")
    if m.get("kubernetes"):
        parts.append(f"Kubernetes {m['kubernetes']}")
    return ", ".join(parts)


def link(d):
    return f"[{Path(d['_file']).name}](../{d['_file']})"


# ---- the end-to-end benchmark ---------------------------------------------------------------------------------

def current_e2e(data):
    full = [d for d in data
            if "--workloads" not in d["command"]
            and {"kube-scheduler", "kubesched"} <= {r["contestant"] for r in d["runs"]}]
    if not full:
        sys.exit("results/e2e-benchmark: no full run (a command without --workloads, kube-scheduler and kubesched)")
    return full[-1]


DRA_COMMAND = ("scripts/e2e-benchmark.sh --workloads 500-nodes-dra-template,500-nodes-dra-steady-state --reps 3 "
               "--stream-rate 20 --contestants kube-scheduler,kubesched")


def newest_where_both_ran(data, counts):
    """The newest run in which kube-scheduler and kubesched both have a run that counts(d, run) accepts, or None."""
    ran = [d for d in data
           if {"kube-scheduler", "kubesched"} <= {r["contestant"] for r in d["runs"] if counts(d, r)}]
    return ran[-1] if ran else None


def dra_workloads(d):
    return [w for w, shape in d["workloads"].items() if "devicesPerNode" in shape]


def current_e2e_dra(data):
    """The newest run in which kube-scheduler and kubesched both ran a DRA workload, or None."""
    return newest_where_both_ran(data, lambda d, r: r["workload"] in dra_workloads(d))


def only_workloads(d, names):
    """The run d with only the workloads named and their runs."""
    only = dict(d, workloads={w: d["workloads"][w] for w in names})
    only["runs"] = [r for r in d["runs"] if r["workload"] in only["workloads"]]
    return only


def render_e2e_dra(d):
    if d is None:
        return [f"No run yet. `{DRA_COMMAND}` makes one (about 25 minutes on 2 CPUs); then "
                "`python3 scripts/render-results.py` renders it here."]
    return render_e2e(only_workloads(d, dra_workloads(d))) + [
        "", "The bind ceiling binds each pod without allocating its claim (it decides nothing), so its row is how "
        "fast this API server takes the bindings beside the same claims, not a bound on allocating them."]


NEVER_FITTING_COMMAND = ("scripts/e2e-benchmark.sh --workloads unschedulable,mixed-churn,label-patch-flood --reps 3 "
                         "--contestants kube-scheduler,kubesched")


def never_fitting_workloads(d):
    return [w for w, shape in d["workloads"].items() if shape.get("neverFitting")]


def current_e2e_never_fitting(data):
    """The newest run in which kube-scheduler and kubesched both ran a workload with pods that fit no node, or None."""
    return newest_where_both_ran(data, lambda d, r: r["workload"] in never_fitting_workloads(d))


def measured_attempts(r):
    """A run's attempts on the measured pods (scheduled and error), or None where not counted."""
    a = r["attempts"]
    return None if a["scheduled"] is None else a["scheduled"] + a["error"]


def render_e2e_never_fitting(d):
    if d is None:
        return [f"No run yet. `{NEVER_FITTING_COMMAND}` makes one (about 40 minutes on 2 CPUs); then "
                "`python3 scripts/render-results.py` renders it here."]
    only = only_workloads(d, never_fitting_workloads(d))
    out = render_e2e(only) + [
        "", "Scheduling attempts over the stream and the backlog, as each scheduler counts them (kube-scheduler's "
        "`scheduler_schedule_attempts_total`), medians: per measured pod bound, its `scheduled` and `error` attempts; "
        "on the pods that fit no node, its `unschedulable` ones (the measured pods always fit). For the flood, the "
        "attempts of any pod from its first label patch to 15 s after the last. Pods that fit no node bound: the "
        "worst run.", "",
        "| workload | contestant | attempts per measured pod | attempts on pods that fit no node | pods that fit no "
        "node | bound | attempts by the label patches |",
        "|---|---|---:|---:|---:|---:|---:|"]
    for w in only["workloads"]:
        shape = only["workloads"][w]
        for key, label in CONTESTANTS[:3]:
            rows = runs_of(only, w, key)
            if not rows:
                continue
            per_pod = median([measured_attempts(r) / r["bound"] for r in rows
                              if measured_attempts(r) is not None and r["bound"]])
            patches = (f"{f0(med(rows, 'patchAttempts', 'neverFitting'))} ({shape['labelPatches']} patches, "
                       f"{shape['floodPods']:,} pods pending)" if shape.get("floodPods") else "–")
            out.append(
                f"| {w} | {label} | {'–' if per_pod is None else f'{per_pod:.2f}'} | "
                f"{f0(median([r['attempts']['unschedulable'] for r in rows]))} | "
                f"{f0(med(rows, 'created', 'neverFitting'))} | {max(r['neverFitting']['bound'] for r in rows)} | "
                f"{patches} |")
    return out


START_WORKLOAD = "500-nodes"
START_COMMAND = "scripts/e2e-benchmark.sh --workloads 500-nodes --reps 3 --contestants kube-scheduler,kubesched"


def current_e2e_500(data):
    """The newest run in which kube-scheduler and kubesched both ran 500-nodes (a full run or its own)."""
    return newest_where_both_ran(data, lambda d, r: r["workload"] == START_WORKLOAD)


def render_e2e_500(d):
    if d is None:
        return [f"No run yet. `{START_COMMAND}` makes one; then `python3 scripts/render-results.py` renders it here."]
    return render_e2e(only_workloads(d, [START_WORKLOAD]))


def current_e2e_start(data):
    """The newest run in which kube-scheduler and kubesched both started on 500-nodes (a full run or its own)."""
    return newest_where_both_ran(data, lambda d, r: r["workload"] == START_WORKLOAD and started(r))


def started(r):
    """Whether the run measured its start (older data files have none)."""
    return (r.get("start") or {}).get("firstBoundSeconds") is not None


def archive_text(flags):
    """Which class-data-sharing archive kubesched started with: the runner names a trained one kubesched-trained.jsa
    (ClassDataSharing.java); older data files hold the image's list's."""
    archives = [f for f in flags if f.startswith("-XX:SharedArchiveFile=")]
    if not archives:
        return "without a class-data-sharing archive"
    if archives[0].endswith("/kubesched-trained.jsa"):
        return "with a class-data-sharing archive of the classes it loaded in a training run"
    return "with the image's class-data-sharing archive"


def render_e2e_start(d):
    if d is None:
        return [f"No run yet. `{START_COMMAND}` makes one; then `python3 scripts/render-results.py` renders it here."]
    out = [f"Measured {date_of(d)} with the code of `{d['revision']}` on {machine_text(d['machine'])}: "
           f"`{d['command']}`. Data: {link(d)}. Kubesched {archive_text(d['settings']['kubeschedJvmFlags'])}.", "",
           f"{START_WORKLOAD}: from the process's launch to the first pod bound, and the one-by-one latency (created "
           "to bound) of the next 9 pods, each created once the one before is bound, and of 9 such pods at the end "
           "of the run; medians over the repetitions, the range in brackets:", "",
           "| contestant | first pod bound, s after launch | one by one after the start, p50 ms | at the end, p50 ms | "
           "after the start / at the end |",
           "|---|---:|---:|---:|---:|"]
    for key, label in CONTESTANTS[:3]:
        rows = [r for r in runs_of(d, START_WORKLOAD, key) if started(r)]
        if not rows:
            continue
        first = [r["start"]["firstBoundSeconds"] for r in rows]
        after = med(rows, "afterStartP50Ms", "start")
        end = med(rows, "atEndP50Ms", "start")
        out.append(f"| {label} | {median(first):.2f} ({min(first):.2f}–{max(first):.2f}) | {f1(after)} | {f1(end)} | "
                   f"{ratio(after, end)} |")
    answers = [r["start"]["firstAnswerSeconds"] for r in runs_of(d, START_WORKLOAD, "kubesched")
               if started(r) and r["start"].get("firstAnswerSeconds") is not None]
    if answers:
        kube = [r["start"]["firstBoundSeconds"] for r in runs_of(d, START_WORKLOAD, "kube-scheduler") if started(r)]
        than_kube = (f", {median(answers) / median(kube):.1f}× kube-scheduler's whole time to its first binding"
                     if kube else "")
        out += ["", "The floor under kubesched's first binding: before each of its runs, a JVM with the same flags, class "
                    "path and archive that only trusts the kubeconfig's certificate authority and asks the API server "
                    f"for its version with the JDK's HTTP client (`FirstAnswer`) had its answer {median(answers):.2f} s "
                    f"({min(answers):.2f}–{max(answers):.2f}) after its launch{than_kube}."]
    return out


def runs_of(d, workload, contestant):
    rows = [r for r in d["runs"] if r["workload"] == workload and r["contestant"] == contestant]
    if contestant != "ceiling" or not rows:
        return rows
    # The bind ceiling's row is its best concurrency: the highest median backlog pods/s, the fewest threads first.
    by_threads = {}
    for r in rows:
        by_threads.setdefault(r["ceilingThreads"], []).append(r)
    best = max(sorted(by_threads), key=lambda t: median([r["backlogPodsPerSecond"] for r in by_threads[t]]))
    return by_threads[best]


def med(rows, key, sub=None):
    return median([(r.get(sub) or {}).get(key) if sub else r.get(key) for r in rows])


def render_e2e(d):
    workloads = list(d["workloads"])
    out = [
        f"Measured {date_of(d)} with the code of `{d['revision']}` on {machine_text(d['machine'])}: "
        f"`{d['command']}`. Data: {link(d)}.",
        "",
        "Kubesched over kube-scheduler's default profile, ratios of the medians over the repetitions (below 1× is "
        "better for memory, latency and CPU; above for throughput):",
        "",
        "| | " + " | ".join(SHORT.get(w, w) for w in workloads) + " |",
        "|---|" + "---:|" * len(workloads),
    ]

    def row(label, cell):
        out.append(f"| {label} | " + " | ".join(cell(w) for w in workloads) + " |")

    def throughput(w):
        ours, kube = runs_of(d, w, "kubesched"), runs_of(d, w, "kube-scheduler")
        if "groupSize" in d["workloads"][w]:
            a, b = med(ours, "groupsPerSecond", "gangs"), med(kube, "groupsPerSecond", "gangs")
            return f"{ratio(a, b)} ({f1(a)} against {f1(b)} groups/s)"
        a, b = med(ours, "backlogPodsPerSecond"), med(kube, "backlogPodsPerSecond")
        return f"{ratio(a, b)} ({f0(a)} against {f0(b)} pods/s)"

    def versus(key, unit, fmt=f0):
        def cell(w):
            a, b = med(runs_of(d, w, "kubesched"), key), med(runs_of(d, w, "kube-scheduler"), key)
            return f"{ratio(a, b)} ({fmt(a)} against {fmt(b)}{unit})"
        return cell

    row("throughput", throughput)
    row("peak RSS", versus("peakRssMiB", " MiB"))
    row("stream p99", versus("p99Ms", " ms"))
    row("stream p50", versus("p50Ms", " ms"))
    row("CPU", versus("cpuSeconds", " s", f1))
    row("of the bind ceiling", lambda w: ratio(med(runs_of(d, w, "kubesched"), "backlogPodsPerSecond"),
                                               med(runs_of(d, w, "ceiling"), "backlogPodsPerSecond")))
    if any(r.get("hostSteal") is not None for r in d["runs"]):
        # Not a ratio: how much of the machine was elsewhere while each placed its backlogs (HostSteal.java).
        row("host steal in the backlog", lambda w: f"{percent(med(runs_of(d, w, 'kubesched'), 'hostSteal'))} "
                                                   f"against {percent(med(runs_of(d, w, 'kube-scheduler'), 'hostSteal'))}")
    out += ["", "Medians per workload and contestant (backlog pods/s; stream latency from created to bound; the "
            "scheduler's CPU over stream and backlog; peak resident set; pods left pending, the worst run):", "",
            "| workload | contestant | backlog pods/s | p50 ms | p99 ms | CPU s | peak RSS MiB | pending |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for w in workloads:
        shape = d["workloads"][w]
        for key, label in CONTESTANTS:
            rows = runs_of(d, w, key)
            if not rows:
                continue
            if key == "ceiling":
                label += f" ({rows[0]['ceilingThreads']} threads)"
            out.append(
                f"| {w} | {label} | {f0(med(rows, 'backlogPodsPerSecond'))} | {f0(med(rows, 'p50Ms'))} | "
                f"{f0(med(rows, 'p99Ms'))} | {f1(med(rows, 'cpuSeconds'))} | {f0(med(rows, 'peakRssMiB'))} | "
                f"{max(r['pending'] for r in rows)} |")
    checks = []
    schedulers = [r for r in d["runs"] if r["contestant"] != "ceiling"]
    pending = sum(r["pending"] for r in schedulers)
    checks.append("every pod placed" if pending == 0 else f"**{pending} pods left pending**")
    for key, label in CONTESTANTS[:3]:
        pre = [r["preemption"] for r in schedulers if r["contestant"] == key and r.get("preemption")]
        if pre:
            checks.append(f"{label} bound {sum(p['bound'] for p in pre)} of {sum(p['created'] for p in pre)} "
                          f"preemptors")
        gangs = [r["gangs"] for r in schedulers if r["contestant"] == key and r.get("gangs")]
        if gangs:
            whole, groups = sum(g["whole"] for g in gangs), sum(g["groups"] for g in gangs)
            early = sum(g["boundEarly"] for g in gangs)
            checks.append(f"{label} bound {whole} of {groups} groups whole, {early} members before their group")
        never = [r["neverFitting"] for r in schedulers if r["contestant"] == key and r.get("neverFitting")]
        if never:
            bound = sum(n['bound'] for n in never)
            text = f"{label} bound {bound} of {sum(n['created'] for n in never):,} pods that fit no node"
            checks.append(text if bound == 0 else f"**{text}**")
        claims = [r["claims"] for r in schedulers if r["contestant"] == key and r.get("claims")]
        if claims:
            broken = sum(c["unallocated"] + c["elsewhere"] + c["sharedDevices"] for c in claims)
            text = f"{label} allocated {sum(c['claims'] for c in claims):,} claims of {sum(c['pods'] for c in claims):,} pods"
            checks.append(text + (" on their nodes, no device twice" if broken == 0 else
                                  f", **{broken} unallocated, on another node or sharing a device**"))
    out += ["", "Checks over every run: " + "; ".join(checks) + "."]
    if d.get("convertedFrom"):
        out += ["", f"Note: converted from {d['convertedFrom']}."]
    return out


# ---- the policy engine (JMH) ------------------------------------------------------------------------------------

def proc_machine():
    cpu, mem = None, 0
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = round(int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    import os
    return {"cpus": os.cpu_count(), "cpu": cpu, "memoryGiB": mem, "os": "Linux " + os.uname().release}


def keep_jmh(argv):
    raw, out = Path(argv[0]), Path(argv[1])
    opts = dict(zip(argv[2::2], argv[3::2]))
    machine = proc_machine()
    machine["java"] = opts["--java"]
    doc = {"schema": SCHEMA, "kind": "jmh", "started": opts["--started"], "revision": opts["--revision"],
           "command": opts["--command"], "machine": machine, "benchmarks": json.loads(raw.read_text())}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print(f"kept {out}")


def render_jmh(data):
    d = data[-1]
    out = [f"Measured {date_of(d)} with the code of `{d['revision']}` on {machine_text(d['machine'])}: "
           f"`{d['command']}`. Data: {link(d)}.", "",
           "| benchmark | parameters | decisions/s | µs per decision | allocated per decision |",
           "|---|---|---:|---:|---:|"]
    for b in d["benchmarks"]:
        name = b["benchmark"].rsplit(".", 2)
        params = ", ".join(f"{k}={v}" for k, v in (b.get("params") or {}).items() if v != "none")
        p = b["primaryMetric"]
        alloc = None
        for key, m in (b.get("secondaryMetrics") or {}).items():
            if key.lstrip("·") == "gc.alloc.rate.norm":
                alloc = m["score"]
        error = p.get("scoreError")
        error = "" if error is None or error != error else f" ± {error:,.0f}"
        out.append(f"| `{name[-2]}.{name[-1]}` | {params} | {p['score']:,.0f}{error} | {1e6 / p['score']:,.0f} | "
                   f"{'–' if alloc is None else kilobytes(alloc)} |")
    out += ["", "± is JMH's 99.9 % interval over the iterations; allocation per decision is exact."]
    if d.get("convertedFrom"):
        out += ["", f"Note: converted from {d['convertedFrom']}."]
    return out


def kilobytes(b):
    return f"{b / 1e6:.2f} MB" if b >= 1e6 else f"{b / 1e3:.0f} KB"


# ---- the drills -------------------------------------------------------------------------------------------------

def render_drills(data):
    newest = {}
    for d in data:
        for f in d["faults"]:
            name = f["fault"] + (f", {d['settings']['burst']}" if f["fault"] == "throttle" else "")
            newest[name] = (d, f)
    out = ["| fault | command | date, revision | trials | pods | violations | scheduler LISTs | recovered | "
           "recovery p50 | recovery p99 |",
           "|---|---|---|---:|---:|---|---:|---:|---:|---:|"]
    for name, (d, f) in newest.items():
        counts = f["violations"]
        broken = [f"{counts[k]} {label}" for k, label in VIOLATIONS if counts.get(k)]
        unchecked = [label for k, label in VIOLATIONS if counts.get(k) is None]
        text = ", ".join(broken) if broken else "0"
        if unchecked:
            text += " (" + ", ".join(unchecked) + " not checked)"
        out.append(
            f"| {name} | `{d['command'].removeprefix('scripts/drills.sh ')}` | {date_of(d)}, "
            f"[{d['revision']}](../{d['_file']}) | {f['trials']} | {f['pods']:,} | {text} | {f['relists']} | "
            f"{f['recovered']}/{f['trials']} | {seconds(f['recoveryP50Seconds'])} | "
            f"{seconds(f['recoveryP99Seconds'])} |")
    for d in data[::-1]:
        t = d.get("takeoverSummary")
        if t:
            out += ["", f"Leader killed ({date_of(d)}, {t['trials']} trials): the other replica held the Lease "
                    f"{seconds(t['leaseP50Seconds'])} after the SIGKILL at the median, "
                    f"{seconds(t['leaseP99Seconds'])} at p99 ({t['takenOver']}/{t['trials']} taken over); its first "
                    f"binding came {seconds(t['firstBindingP50Seconds'])} and "
                    f"{seconds(t['firstBindingP99Seconds'])} after it."]
            break
    machines = sorted({machine_text(d["machine"]) for d, _ in newest.values()})
    notes = sorted({d["convertedFrom"] for d, _ in newest.values() if d.get("convertedFrom")})
    out += ["", "Machine: " + "; ".join(machines) + "."]
    out += [f"Note: converted from {n}." for n in notes]
    return out


def seconds(v):
    return "–" if v is None else f"{v:.1f} s"


def theil_sen(values):
    slopes = [(values[j] - values[i]) / (j - i) for i in range(len(values)) for j in range(i + 1, len(values))]
    return statistics.median(slopes) if slopes else 0.0


def render_soak(data):
    d = data[-1]
    s = d["settings"]
    samples = d["samples"]
    measured = samples[s["warmupSamples"]:]
    heap = [x["heapMiB"] for x in measured]
    threads = [x["threads"] for x in measured]
    p99 = [x["p99Ms"] for x in measured if x["p99Ms"] is not None]
    p50 = [x["p50Ms"] for x in samples if x["p50Ms"] is not None]
    unequal = [x for x in samples if x["viewPods"] != x["boundPods"]]
    out = [
        f"`{d['command']}`, {date_of(d)}, the code of `{d['revision']}`, {machine_text(d['machine'])}: "
        f"{s['nodes']} nodes, {s['podsPerSecond']:g} pods/s each deleted {s['lifetimeSeconds']} s after its creation, "
        f"a sample every {s['intervalSeconds']} s, the first {s['warmupSamples']} left out of the trends. "
        f"Data: {link(d)}.",
        "",
        "| | value |",
        "|---|---|",
        "| verdict | " + ("; ".join(d["verdicts"]) if d["verdicts"] else "no growth") + " |",
        f"| pods created, bound | {sum(x['created'] for x in samples):,}, {sum(x['bound'] for x in samples):,} |",
        f"| heap after GC, measured samples | {min(heap)}–{max(heap)} MiB, slope {theil_sen(heap):+.3f} MiB a sample |",
        f"| threads | {min(threads)}–{max(threads)}, slope {theil_sen(threads):+.3f} a sample |",
        f"| p50 latency | {min(p50)}–{max(p50)} ms |",
        f"| p99 latency | {min(p99)}–{max(p99)} ms (median {statistics.median(p99):.0f}), slope "
        f"{theil_sen(p99):+.2f} ms a sample |",
        f"| late pods (fit, waited over 10 s) | {sum(x['late'] for x in samples)} |",
        f"| scheduler's view / bound pods | equal in {len(samples) - len(unequal)} of {len(samples)} samples |",
        f"| left in the scheduler's view after every pod was deleted | {d['leftInView']} |",
    ]
    if d["grown"]:
        total = sum(g["bytes"] for g in d["grown"])
        top = ", ".join(f"`{g['class']}` {g['bytes'] / 1000:.0f} KB" for g in d["grown"][:3])
        out.append(f"| what grew (class histogram, warm-up to end) | {total / 1000:.0f} KB in all: {top} |")
    if d.get("convertedFrom"):
        out += ["", f"Note: converted from {d['convertedFrom']}."]
    return out


# ---- the pages --------------------------------------------------------------------------------------------------

def splice(text, name, lines, page):
    begin = f"<!-- rendered by scripts/render-results.py: {name} -->"
    end = f"<!-- end of rendered: {name} -->"
    if begin not in text or end not in text:
        sys.exit(f"{page}: no markers for {name} ({begin} ... {end})")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + "\n".join(lines) + "\n" + end + tail


def main(argv):
    if argv and argv[0] == "keep-jmh":
        keep_jmh(argv[1:])
        return 0
    if argv and argv[0] == "--print":
        renderers = {"e2e-benchmark": lambda d: render_e2e(d[0]), "drills": render_drills, "soak": render_soak,
                     "jmh": render_jmh}
        for f in argv[1:]:
            kind = json.loads(Path(f).read_text()).get("kind")
            if kind not in renderers:
                sys.exit(f"{f}: kind {kind}; known: {', '.join(renderers)}")
            print("\n".join(renderers[kind](load(kind, [f]))) + "\n")
        return 0
    check = "--check" in argv
    pages = {
        "docs/performance.md": [("e2e-benchmark", render_e2e(current_e2e(load("e2e-benchmark")))),
                                ("e2e-dra", render_e2e_dra(current_e2e_dra(load("e2e-benchmark")))),
                                ("e2e-never-fitting",
                                 render_e2e_never_fitting(current_e2e_never_fitting(load("e2e-benchmark")))),
                                ("e2e-500", render_e2e_500(current_e2e_500(load("e2e-benchmark")))),
                                ("e2e-start", render_e2e_start(current_e2e_start(load("e2e-benchmark")))),
                                ("jmh", render_jmh(load("jmh")))],
        "docs/reliability.md": [("drills", render_drills(load("drills"))), ("soak", render_soak(load("soak")))],
    }
    stale = []
    for page, parts in pages.items():
        path = ROOT / page
        text = path.read_text()
        new = text
        for name, lines in parts:
            new = splice(new, name, lines, page)
        if new != text:
            if check:
                stale.append(page)
            else:
                path.write_text(new)
                print(f"rendered {page}")
    if stale:
        print("not what results/ renders (run scripts/render-results.py and commit): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
