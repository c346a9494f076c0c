#!/usr/bin/env bash
# JMH benchmarks of the policy engine (docs/performance.md, "The policy engine"): builds tools/benchmarks, runs
# JMH with the given options and keeps the figures as data, with the machine, the code's revision and the
# command, in results/jmh/DATE-REVISION.json, from which scripts/render-results.py renders the page's table.
#
#   scripts/jmh.sh                                   the published table: PolicyBenchmark, PodConstraintsBenchmark,
#                                                    DynamicResourcesBenchmark and SimulationBenchmark, -f 1 -wi 3 -i 5 -w 3s -r 3s -prof gc
#                                                    (about 7 minutes)
#   scripts/jmh.sh 'PolicyBenchmark.podThatFits$' -p nodes=5000 -f 1 -wi 2 -i 3 -w 2s -r 2s -prof gc
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -q -B -pl tools/benchmarks -am package -DskipTests
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=('^io.kubesched.benchmarks.(PolicyBenchmark|PodConstraintsBenchmark|DynamicResourcesBenchmark|SimulationBenchmark)\.' -f 1 -wi 3 -i 5 -w 3s -r 3s -prof gc)
fi
. scripts/run-stamp.sh
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mkdir -p target/jmh
java -jar tools/benchmarks/target/benchmarks.jar -rf json -rff "target/jmh/$stamp.json" "${args[@]}"
python3 scripts/render-results.py keep-jmh "target/jmh/$stamp.json" "results/jmh/$stamp.json" \
  --revision "$revision" --started "$started" --command "scripts/jmh.sh ${args[*]}" \
  --java "$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.runtime.version/ {print $2}')"
