#!/usr/bin/env bash
# Packs the end-to-end benchmark for a larger machine without a JDK, Go or network: ../shared/bench16/pack.sh
# (the runner's jar, a trimmed Java runtime, kube-scheduler, kube-apiserver, etcd, clusterutil in .bench16/A
# and B), plus what it leaves out and test-cluster/cluster.sh needs since the preemption workloads:
# kube-controller-manager, into part B. Then on that machine, from the checkout's root (this script's
# companion travels with the working tree):
#
#   call 1, carrying .bench16/A and .bench16/remote-unpack.sh:  bash .bench16/remote-unpack.sh
#   call 2, at once, carrying .bench16/B and .bench16/remote-unpack.sh:
#     bash .bench16/remote-unpack.sh && bash scripts/bench16-run.sh 5000-nodes 500-nodes
#
# Run it after a build of the runner's jar and kube-scheduler (scripts/e2e-benchmark.sh --workloads smoke ...).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
../shared/bench16/pack.sh
bin=$(dirname "$(test-cluster/cluster.sh build-scheduler)")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$bin/kube-controller-manager" "$tmp/"; strip "$tmp/kube-controller-manager"
xz -T0 -9 -c "$tmp/kube-controller-manager" > .bench16/B/kube-controller-manager.xz
du -sh .bench16/A .bench16/B
