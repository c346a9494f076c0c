#!/usr/bin/env bash
# The end-to-end benchmark: this library's scheduler beside kube-scheduler and the bind ceiling on the same
# real kube-apiserver (docs/performance.md). Builds what it needs (the runner's jar; kube-apiserver, etcd
# and kube-scheduler from the Go module proxy, cached as for the end-to-end tests), then runs every workload
# three times. The figures are kept as data, one file per invocation, in results/e2e-benchmark/ (rendered into
# docs/performance.md by scripts/render-results.py); the Markdown report beside it is for reading at once.
#
#   scripts/e2e-benchmark.sh                       the published table (about 70 minutes on 2 CPUs)
#   scripts/e2e-benchmark.sh --workloads smoke --reps 1 --out /tmp/smoke.md    a one-minute check
#   scripts/e2e-benchmark.sh --help                the runner's options
#
# Options are the runner's. Without --out, the data goes to results/e2e-benchmark/DATE-REVISION.json and the
# report to target/e2e-benchmark/; with --out FILE.md, the data goes beside it (FILE.json) unless --data says.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

./mvnw -q -B -pl tools/e2e-benchmark -am package -DskipTests
kube_scheduler=$(tools/test-cluster/cluster.sh build-scheduler)
kube_version=$(awk '$1 == "k8s.io/kubernetes" {print $2}' tools/test-cluster/go.mod)

. scripts/run-stamp.sh
defaults=(--out "target/e2e-benchmark/$stamp.md" --data "results/e2e-benchmark/$stamp.json")
for arg in "$@"; do
  if [ "$arg" = --out ]; then defaults=(); fi
done
# The runner with the quick (C1) compiler only: it is the instrument, and with C2 its own compilations took
# a sixth of the 2 CPUs during the first measured phases, slowing the API server under whichever scheduler
# ran then (the benchmark's notes, docs/performance.md#measurement-notes).
exec java -XX:TieredStopAtLevel=1 -jar tools/e2e-benchmark/target/e2e-benchmark.jar \
  --project . --kube-scheduler "$kube_scheduler" --kube-version "$kube_version" \
  --revision "$revision" ${defaults[@]+"${defaults[@]}"} "$@"
