#!/usr/bin/env bash
# Packs the end-to-end benchmark for a larger machine without a JDK, Go or network, in two parts of under
# 64 MiB each: .bench16/A holds a trimmed Java runtime, the runner's jar, tools/test-cluster's script and Go
# module files, and kube-scheduler; .bench16/B kube-apiserver, etcd, clusterutil and kube-controller-manager
# (stripped, xz-compressed). It follows ../shared/bench16/pack.sh, with this checkout's paths (the runner and
# the test cluster live under tools/), and copies that folder's remote-unpack.sh beside the parts. Then on
# that machine, from the checkout's root (this script's companion travels with the working tree):
#
#   call 1, carrying .bench16/A and .bench16/remote-unpack.sh:  bash .bench16/remote-unpack.sh
#   call 2, at once, carrying .bench16/B and .bench16/remote-unpack.sh:
#     bash .bench16/remote-unpack.sh && bash scripts/bench16-run.sh 5000-nodes 500-nodes
#
# Run it after a build of the runner's jar and kube-scheduler (scripts/e2e-benchmark.sh --workloads smoke ...).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
jar=tools/e2e-benchmark/target/e2e-benchmark.jar
[ -f "$jar" ] || { echo "no $jar: build it first (scripts/e2e-benchmark.sh --workloads smoke --reps 1)" >&2; exit 1; }
bin=$(dirname "$(tools/test-cluster/cluster.sh build-scheduler)")
out=.bench16; rm -rf "$out"; mkdir -p "$out/A" "$out/B"
grep -qx '/.bench16/' .git/info/exclude 2>/dev/null || echo '/.bench16/' >> .git/info/exclude
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
jlink --add-modules "$(jdeps --ignore-missing-deps --print-module-deps --multi-release 17 "$jar"),jdk.crypto.ec,jdk.unsupported,java.management,jdk.management,jdk.jfr,java.logging,java.naming" \
  --strip-debug --no-header-files --no-man-pages --output "$tmp/jre"
tar -C "$tmp" -cf - jre | xz -T0 -9 > "$out/A/jre.tar.xz"
cp "$jar" "$out/A/"
# remote-unpack.sh extracts this tar in /tmp/kb; scripts/bench16-run.sh reads tools/test-cluster there (the runner
# makes kubesched's class-data-sharing archive there too, from a training run, for the packed runtime).
tar -cf "$out/A/test-cluster.tar" tools/test-cluster/cluster.sh tools/test-cluster/go.mod tools/test-cluster/go.sum \
  tools/test-cluster/tools.go tools/test-cluster/cmd
for n in kube-scheduler:A kube-apiserver:B etcd:B clusterutil:B kube-controller-manager:B; do
  f=${n%%:*}; cp "$bin/$f" "$tmp/$f"; strip "$tmp/$f"; xz -T0 -9 -c "$tmp/$f" > "$out/${n##*:}/$f.xz"
done
cp ../shared/bench16/remote-unpack.sh "$out/"
du -sh "$out"/A "$out"/B
