#!/usr/bin/env bash
# The fault drills: this library's scheduler on a real kube-apiserver under a steady stream of pods, one fault
# per trial, the invariants checked after each (docs/reliability.md). Builds the runner's jar and
# kubesched-server's (the leader-kill drill runs the scheduler as two processes of it) and, on first use,
# kube-apiserver and etcd as for the end-to-end tests.
#
#   scripts/drills.sh                                                       every fault, 20 trials each, kept
#                                                                           in results/drills/ (docs/reliability.md)
#   scripts/drills.sh --faults apiserver-restart,hung-connection --trials 2 --stall 5 --out /tmp/smoke.md
#   scripts/drills.sh --help                                                the runner's options
#
# Exits 0 when no invariant was violated, 1 when one was.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

./mvnw -q -B -pl tools/drills,scheduler-server -am package -DskipTests
. scripts/run-stamp.sh
# Without --out, the data goes to results/drills/ (the soak's to results/soak/) and the report to target/drills/.
case " $* " in
  *" --out "*|*" --help "*) defaults=() ;;
  *" --soak "*) defaults=(--out "target/drills/$stamp-soak.md" --data "results/soak/$stamp.json") ;;
  *) defaults=(--out "target/drills/$stamp.md" --data "results/drills/$stamp.json") ;;
esac
mkdir -p target/drills
exec java -jar tools/drills/target/drills.jar --project . --revision "$revision" ${defaults[@]+"${defaults[@]}"} "$@"
