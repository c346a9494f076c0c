#!/usr/bin/env bash
# On the larger machine, once both parts of scripts/bench16-pack.sh are unpacked into /tmp/kb: runs each
# workload named in its own invocation of the runner (one repetition; kube-scheduler's default profile, this
# library, the bind ceiling), so that a finished workload's table ($OUT/t-WORKLOAD.md, log beside it) comes
# back even when a later one runs out of time. CONTESTANTS, CEIL (the ceiling's threads, default 16,64) and
# KUBESCHED_JVM_FLAGS (default: the image's) override. It links the binaries where tools/test-cluster/cluster.sh
# looks for them (remote-unpack.sh links them under another hash, and no kube-controller-manager).
set -uo pipefail
[ -x /tmp/kb/jre/bin/java ] && [ -x /tmp/kb/kube-apiserver ] || { echo "unpack both parts first"; exit 3; }
cd /tmp/kb; export KUBESCHED_CLUSTER_CACHE=/tmp/kb/cache
v=$(awk '$1 == "k8s.io/kubernetes" {print $2}' tools/test-cluster/go.mod)
etcdv=$(awk '$1 == "go.etcd.io/etcd/server/v3" {print $2}' tools/test-cluster/go.mod)
bin="$KUBESCHED_CLUSTER_CACHE/k8s-$v-etcd-$etcdv-$(cat tools/test-cluster/go.sum tools/test-cluster/cmd/clusterutil/main.go |
  sha256sum | cut -c1-12)"
mkdir -p "$bin"
for n in kube-apiserver etcd clusterutil kube-scheduler kube-controller-manager; do ln -sf "/tmp/kb/$n" "$bin/$n"; done
echo "$(nproc) CPUs; $(grep MemTotal /proc/meminfo); $(grep -m1 'model name' /proc/cpuinfo)"
flags=(); [ -n "${KUBESCHED_JVM_FLAGS:-}" ] && flags=(--kubesched-jvm-flags "$KUBESCHED_JVM_FLAGS")
for w in "$@"; do
  s=$(date +%s)
  ./jre/bin/java -XX:TieredStopAtLevel=1 -jar e2e-benchmark.jar --project /tmp/kb \
    --kube-scheduler /tmp/kb/kube-scheduler --kube-version "$v" --work "/tmp/kb/work-$w-$s" --workloads "$w" --reps 1 \
    --contestants "${CONTESTANTS:-kube-scheduler,kubesched,ceiling}" --ceiling-threads "${CEIL:-16,64}" "${flags[@]}" \
    --out "${OUT:-/tmp}/t-$w.md" > "${OUT:-/tmp}/run-$w.log" 2>&1
  echo "$w: rc=$? in $(( $(date +%s) - s )) s"; grep -E "backlog:|stream:" "${OUT:-/tmp}/run-$w.log" | cut -c1-300
done
