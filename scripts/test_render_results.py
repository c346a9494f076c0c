#!/usr/bin/env python3
"""Tests of scripts/render-results.py: which run is current, what a table shows, and that --check fails on a
stale page. Run: python3 scripts/test_render_results.py (CI does)."""

import copy
import importlib.util
import json
import tempfile
import unittest
from pathlib import Path

_spec = importlib.util.spec_from_file_location("render", Path(__file__).with_name("render-results.py"))
render = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(render)


def run(workload, contestant, rate, threads=0, pending=0):
    return {"workload": workload, "repetition": 1, "contestant": contestant, "ceilingThreads": threads,
            "bound": 100, "pending": pending, "backlogPodsPerSecond": rate, "p50Ms": 4.0, "p99Ms": 10.0,
            "cpuSeconds": None if contestant == "ceiling" else 5.0, "peakRssMiB": None if contestant == "ceiling"
            else 150.0, "start": None}


def e2e(name, command, runs):
    return {"schema": 1, "kind": "e2e-benchmark", "started": name[:10] + "T00:00:00Z", "revision": "abc",
            "command": command, "machine": {"cpus": 2}, "_file": f"results/e2e-benchmark/{name}.json",
            "workloads": {"500-nodes": {"nodes": 500}}, "runs": runs}


def drills(name, fault, lost, burst=None):
    counts = {k: 0 for k, _ in render.VIOLATIONS}
    counts["LOST"] = lost
    settings = {"burst": burst} if burst else {}
    return {"schema": 1, "kind": "drills", "started": None, "revision": name, "command": "scripts/drills.sh x",
            "machine": {"cpus": 2}, "settings": settings, "_file": f"results/drills/{name}.json",
            "faults": [{"fault": fault, "trials": 2, "pods": 10, "violations": counts, "relists": 0,
                        "recovered": 2, "recoveryP50Seconds": 1.0, "recoveryP99Seconds": 2.0}]}


class CurrentRun(unittest.TestCase):

    def test_a_newer_partial_run_does_not_replace_the_full_one(self):
        full = e2e("2026-11-30", "scripts/e2e-benchmark.sh --reps 3",
                   [run("500-nodes", "kube-scheduler", 400), run("500-nodes", "kubesched", 600)])
        partial = e2e("2026-12-01", "scripts/e2e-benchmark.sh --workloads 500-nodes",
                      [run("500-nodes", "kube-scheduler", 1), run("500-nodes", "kubesched", 1)])
        alone = e2e("2026-12-02", "scripts/e2e-benchmark.sh --contestants kubesched", [run("500-nodes", "kubesched", 1)])
        self.assertIs(full, render.current_e2e([full, partial, alone]))

    def test_no_full_run_is_an_error_not_an_empty_table(self):
        with self.assertRaises(SystemExit):
            render.current_e2e([e2e("2026-12-01", "x --workloads smoke", [run("500-nodes", "kubesched", 1)])])

    def test_the_ceiling_row_is_its_best_concurrency(self):
        d = e2e("2026-11-30", "x", [run("500-nodes", "ceiling", 900, 8), run("500-nodes", "ceiling", 950, 16)])
        self.assertEqual([950], [r["backlogPodsPerSecond"] for r in render.runs_of(d, "500-nodes", "ceiling")])

    def test_ratios_and_pending_pods_show(self):
        d = e2e("2026-11-30", "x", [run("500-nodes", "kube-scheduler", 400), run("500-nodes", "kubesched", 600),
                                    run("500-nodes", "ceiling", 1000, 16, pending=3)])
        text = "\n".join(render.render_e2e(d))
        self.assertIn("| throughput | 1.50× (600 against 400 pods/s) |", text)
        self.assertIn("| of the bind ceiling | 0.60× |", text)
        self.assertIn("| 500-nodes | bind ceiling (16 threads) | 1,000 | 4 | 10 | – | – | 3 |", text)

    def test_pods_left_pending_by_a_scheduler_are_called_out(self):
        d = e2e("2026-11-30", "x", [run("500-nodes", "kube-scheduler", 400),
                                    run("500-nodes", "kubesched", 600, pending=7)])
        self.assertIn("**7 pods left pending**", "\n".join(render.render_e2e(d)))

    def test_each_fault_shows_its_newest_run_and_a_violation_by_name(self):
        lines = render.render_drills([drills("old", "deletes", 0), drills("new", "deletes", 2),
                                      drills("t200", "throttle", 0, burst=200), drills("t2000", "throttle", 0, 2000)])
        rows = [l for l in lines if l.startswith("| deletes")]
        self.assertEqual(1, len(rows), lines)
        self.assertIn("[new]", rows[0])
        self.assertIn("| 2 lost |", rows[0])
        self.assertEqual(2, len([l for l in lines if l.startswith("| throttle, ")]), lines)


def dra(name, command, runs):
    d = e2e(name, command, runs)
    d["workloads"] = {"500-nodes-dra-template": {"nodes": 500, "devicesPerNode": 10, "initialClaims": 2500}}
    return d


def dra_run(contestant, rate, unallocated=0):
    r = run("500-nodes-dra-template", contestant, rate)
    r["claims"] = {"pods": 100, "claims": 100, "unallocated": unallocated, "elsewhere": 0, "sharedDevices": 0}
    return r


class DraRun(unittest.TestCase):

    def test_without_a_dra_run_the_block_gives_the_command_that_makes_one(self):
        full = e2e("2026-11-30", "x", [run("500-nodes", "kube-scheduler", 400), run("500-nodes", "kubesched", 600)])
        self.assertIsNone(render.current_e2e_dra([full]))
        self.assertIn(render.DRA_COMMAND, "\n".join(render.render_e2e_dra(None)))

    def test_the_newest_run_with_both_schedulers_on_a_dra_workload_is_current_and_a_full_run_ignores_it(self):
        older = dra("2026-12-01", "x --workloads 500-nodes-dra-template",
                    [dra_run("kube-scheduler", 50), dra_run("kubesched", 60)])
        alone = dra("2026-12-02", "x --workloads 500-nodes-dra-template --contestants kubesched",
                    [dra_run("kubesched", 1)])
        full = e2e("2026-12-03", "x", [run("500-nodes", "kube-scheduler", 400), run("500-nodes", "kubesched", 600)])
        self.assertIs(older, render.current_e2e_dra([older, alone, full]))
        self.assertIs(full, render.current_e2e([older, alone, full]))

    def test_the_dra_table_has_the_ratios_and_the_claims_check(self):
        d = dra("2026-12-01", "x --workloads 500-nodes-dra-template",
                [dra_run("kube-scheduler", 50), dra_run("kubesched", 60, unallocated=2)])
        text = "\n".join(render.render_e2e_dra(d))
        self.assertIn("| | claim template |", text)
        self.assertIn("| throughput | 1.20× (60 against 50 pods/s) |", text)
        self.assertIn("kube-scheduler allocated 100 claims of 100 pods on their nodes, no device twice", text)
        self.assertIn("kubesched allocated 100 claims of 100 pods, **2 unallocated", text)


def never_fitting(name, command, runs):
    d = e2e(name, command, runs)
    d["workloads"] = {"unschedulable": {"nodes": 5000, "neverFitting": True, "churnIntervalMs": 200},
                      "label-patch-flood": {"nodes": 500, "neverFitting": True, "floodPods": 1000, "labelPatches": 5}}
    return d


def never_fitting_run(workload, contestant, rate, scheduled=100, unschedulable=300, bound=0, patch_attempts=None):
    r = run(workload, contestant, rate)
    r["attempts"] = {"scheduled": scheduled, "unschedulable": unschedulable, "error": 0}
    r["neverFitting"] = {"created": 300, "bound": bound, "labelPatches": 5 if patch_attempts is not None else 0,
                         "patchAttempts": patch_attempts}
    return r


class NeverFittingRun(unittest.TestCase):

    def test_without_a_run_the_block_gives_the_command_that_makes_one(self):
        full = e2e("2026-11-30", "x", [run("500-nodes", "kube-scheduler", 400), run("500-nodes", "kubesched", 600)])
        self.assertIsNone(render.current_e2e_never_fitting([full]))
        self.assertIn(render.NEVER_FITTING_COMMAND, "\n".join(render.render_e2e_never_fitting(None)))

    def test_the_newest_run_with_both_schedulers_is_current_and_a_full_run_ignores_it(self):
        older = never_fitting("2026-12-01", "x --workloads unschedulable",
                              [never_fitting_run("unschedulable", "kube-scheduler", 300),
                               never_fitting_run("unschedulable", "kubesched", 600)])
        alone = never_fitting("2026-12-02", "x --workloads unschedulable --contestants kubesched",
                              [never_fitting_run("unschedulable", "kubesched", 1)])
        full = e2e("2026-12-03", "x", [run("500-nodes", "kube-scheduler", 400), run("500-nodes", "kubesched", 600)])
        self.assertIs(older, render.current_e2e_never_fitting([older, alone, full]))
        self.assertIs(full, render.current_e2e([older, alone, full]))

    def test_the_table_has_the_ratios_the_attempts_and_a_bound_pod_that_fits_no_node(self):
        d = never_fitting("2026-12-01", "x --workloads unschedulable,label-patch-flood",
                          [never_fitting_run("unschedulable", "kube-scheduler", 300, scheduled=110),
                           never_fitting_run("unschedulable", "kubesched", 600, unschedulable=290, bound=1),
                           never_fitting_run("label-patch-flood", "kube-scheduler", 400, patch_attempts=0),
                           never_fitting_run("label-patch-flood", "kubesched", 500, patch_attempts=5035)])
        text = "\n".join(render.render_e2e_never_fitting(d))
        self.assertIn("| | unschedulable | label-patch flood |", text)
        self.assertIn("| throughput | 2.00× (600 against 300 pods/s) | 1.25× (500 against 400 pods/s) |", text)
        self.assertIn("| unschedulable | kube-scheduler | 1.10 | 300 | 300 | 0 | – |", text)
        self.assertIn("| unschedulable | kubesched | 1.00 | 290 | 300 | 1 | – |", text)
        self.assertIn("| label-patch-flood | kubesched | 1.00 | 300 | 300 | 0 | 5,035 (5 patches, 1,000 pods pending) |",
                      text)
        self.assertIn("kube-scheduler bound 0 of 600 pods that fit no node;", text)
        self.assertIn("**kubesched bound 1 of 600 pods that fit no node**", text)


def started(workload, contestant, first, after=6.0, end=5.0):
    r = run(workload, contestant, 100)
    r["start"] = {"firstBoundSeconds": first, "afterStartP50Ms": after, "atEndP50Ms": end}
    return r


class StartUp(unittest.TestCase):

    def test_without_a_run_the_block_gives_the_command_that_makes_one(self):
        self.assertIsNone(render.current_e2e_start([e2e("2026-12-01", "x", [started("500-nodes", "kubesched", 2.0)])]))
        self.assertIn(render.START_COMMAND, render.render_e2e_start(None)[0])

    def test_the_newest_run_where_both_started_on_500_nodes_is_current(self):
        both = e2e("2026-12-01", "x", [started("500-nodes", "kube-scheduler", 0.2),
                                       started("500-nodes", "kubesched", 2.0)])
        alone = e2e("2026-12-02", "x", [started("500-nodes", "kubesched", 1.0)])
        unmeasured = e2e("2026-12-03", "x", [run("500-nodes", "kube-scheduler", 1), run("500-nodes", "kubesched", 1)])
        self.assertIs(both, render.current_e2e_start([both, alone, unmeasured]))

    def test_the_table_has_medians_ranges_and_the_archive(self):
        d = e2e("2026-12-01", "x", [started("500-nodes", "kube-scheduler", 0.2, 5.0, 4.0),
                                    started("500-nodes", "kubesched", 2.5, 9.0, 6.0),
                                    started("500-nodes", "kubesched", 1.5, 9.0, 6.0),
                                    started("500-nodes", "kubesched", 1.8, 9.0, 6.0)])
        d["settings"] = {"kubeschedJvmFlags": ["-XX:+UseSerialGC", "-XX:SharedArchiveFile=/tmp/k.jsa"]}
        text = "\n".join(render.render_e2e_start(d))
        self.assertIn("Kubesched with the image's class-data-sharing archive.", text)
        self.assertIn("| kube-scheduler | 0.20 (0.20–0.20) | 5.0 | 4.0 | 1.25× |", text)
        self.assertIn("| kubesched | 1.80 (1.50–2.50) | 9.0 | 6.0 | 1.50× |", text)
        d["settings"] = {"kubeschedJvmFlags": ["-XX:+UseSerialGC"]}
        self.assertIn("Kubesched without a class-data-sharing archive.", "\n".join(render.render_e2e_start(d)))
        d["settings"] = {"kubeschedJvmFlags": ["-XX:SharedArchiveFile=/tmp/w/kubesched-trained.jsa"]}
        self.assertIn("Kubesched with a class-data-sharing archive of the classes it loaded in a training run.",
                      "\n".join(render.render_e2e_start(d)))


class FiveHundredNodes(unittest.TestCase):

    def test_the_newest_run_where_both_ran_500_nodes_is_current_a_full_one_included(self):
        full = e2e("2026-12-01", "scripts/e2e-benchmark.sh", [run("500-nodes", "kube-scheduler", 400),
                                                              run("500-nodes", "kubesched", 500)])
        alone = e2e("2026-12-02", "x", [run("500-nodes", "kubesched", 700)])
        own = e2e("2026-12-03", render.START_COMMAND, [run("500-nodes", "kube-scheduler", 300),
                                                       run("500-nodes", "kubesched", 600)])
        self.assertIs(full, render.current_e2e_500([full, alone]))
        self.assertIs(own, render.current_e2e_500([full, alone, own]))
        self.assertIn(render.START_COMMAND, render.render_e2e_500(None)[0])

    def test_the_table_has_only_500_nodes_and_its_ratios(self):
        d = e2e("2026-12-03", render.START_COMMAND, [run("500-nodes", "kube-scheduler", 300),
                                                     run("500-nodes", "kubesched", 600),
                                                     run("5000-nodes", "kubesched", 900)])
        d["workloads"]["5000-nodes"] = {"nodes": 5000}
        text = "\n".join(render.render_e2e_500(d))
        self.assertIn("2.00× (600 against 300 pods/s)", text)
        self.assertNotIn("5000-nodes", text)
        self.assertNotIn("host steal", text, "older data files have no steal")

    def test_the_hosts_steal_in_the_backlogs_shows_beside_the_ratios(self):
        ours, kube = run("500-nodes", "kubesched", 600), run("500-nodes", "kube-scheduler", 300)
        ours["hostSteal"], kube["hostSteal"] = 0.02, 0.184
        text = "\n".join(render.render_e2e_500(e2e("2026-12-04", render.START_COMMAND, [kube, ours])))
        self.assertIn("| host steal in the backlog | 2 % against 18 % |", text)


class Pages(unittest.TestCase):

    def test_splice_replaces_only_between_the_markers_and_refuses_a_page_without_them(self):
        page = ("a\n<!-- rendered by scripts/render-results.py: x -->\nold\n<!-- end of rendered: x -->\nb\n")
        self.assertEqual("a\n<!-- rendered by scripts/render-results.py: x -->\nnew\n<!-- end of rendered: x -->\nb\n",
                         render.splice(page, "x", ["new"], "page.md"))
        with self.assertRaises(SystemExit):
            render.splice("no markers", "x", ["new"], "page.md")

    def test_check_fails_on_a_stale_page_and_passes_once_rendered(self):
        real_root, real_results = render.ROOT, render.RESULTS
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for page in ("docs/performance.md", "docs/reliability.md"):
                (root / page).parent.mkdir(parents=True, exist_ok=True)
                names = (["e2e-benchmark", "e2e-dra", "e2e-never-fitting", "e2e-500", "e2e-start", "jmh"] if "performance" in page
                         else ["drills", "soak"])
                (root / page).write_text("".join(
                    f"<!-- rendered by scripts/render-results.py: {n} -->\nstale\n<!-- end of rendered: {n} -->\n"
                    for n in names))
            for kind in ("e2e-benchmark", "drills", "soak", "jmh"):
                (root / "results" / kind).mkdir(parents=True)
                for f in (real_results / kind).glob("*.json"):
                    (root / "results" / kind / f.name).write_text(f.read_text())
            render.ROOT, render.RESULTS = root, root / "results"
            try:
                self.assertEqual(1, render.main(["--check"]))
                self.assertEqual(0, render.main([]))
                self.assertEqual(0, render.main(["--check"]))
            finally:
                render.ROOT, render.RESULTS = real_root, real_results


if __name__ == "__main__":
    unittest.main()
