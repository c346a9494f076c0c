#!/usr/bin/env bash
# Proves that each rule the build enforces really fails the build when broken: for every rule, copies the
# project, breaks the rule, runs Maven and expects it to fail with the rule's message. The ArchUnit rules
# are proven by ArchitectureRulesTest instead (a deliberate violation per rule).
#
# Usage: scripts/check-build-rules.sh   (from anywhere; needs what ./mvnw needs)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0

# break NAME GOAL EXPECTED-TEXT EDIT-COMMAND...
# Runs EDIT-COMMAND in a fresh copy of the project, then ./mvnw GOAL; passes if Maven fails saying EXPECTED-TEXT.
break_rule() {
  local name=$1 goal=$2 expected=$3
  shift 3
  local copy="$work/$(echo "$name" | tr -c 'a-z0-9' '-')"
  mkdir -p "$copy"
  (cd "$root" && tar --exclude=./.git --exclude='*/target' --exclude=./target -cf - .) | (cd "$copy" && tar -xf -)
  (cd "$copy" && "$@")
  local log="$copy.log"
  if (cd "$copy" && ./mvnw -B -q $goal) >"$log" 2>&1; then
    echo "FAIL  $name: the build passed, the rule did not catch the violation"
    failures=$((failures + 1))
  elif grep -q -- "$expected" "$log"; then
    echo "ok    $name: the build failed with \"$expected\""
    passed=$((passed + 1))
  else
    echo "FAIL  $name: the build failed, but not with \"$expected\"; its output:"
    tail -20 "$log"
    failures=$((failures + 1))
  fi
}

add_dependency() { # module groupId artifactId
  python3 - "$1/pom.xml" "$2" "$3" <<'PY'
import sys
path, group, artifact = sys.argv[1:]
pom = open(path).read()
dep = f"    <dependency>\n      <groupId>{group}</groupId>\n      <artifactId>{artifact}</artifactId>\n    </dependency>\n"
open(path, "w").write(pom.replace("  <dependencies>\n", "  <dependencies>\n" + dep, 1))
PY
}

use_in_example() { # a module-info 'requires' line to add, a statement to put in main
  python3 - "$1" "$2" <<'PY'
import sys
requires, statement = sys.argv[1:]
mi = "examples/src/main/java/module-info.java"
s = open(mi).read()
if requires:
    s = s.replace("  requires io.kubesched.facade;", "  requires io.kubesched.facade;\n  " + requires)
open(mi, "w").write(s)
main = "examples/src/main/java/io/kubesched/examples/ExampleScheduler.java"
s = open(main).read()
s = s.replace("  public static void main(String[] args) throws InterruptedException {",
              "  public static void main(String[] args) throws InterruptedException {\n    " + statement)
open(main, "w").write(s)
PY
}

unpinned_plugin() {
  python3 - <<'PY'
pom = open("scheduler-api/pom.xml").read()
plugin = """      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-antrun-plugin</artifactId>
      </plugin>
"""
open("scheduler-api/pom.xml", "w").write(pom.replace("    <plugins>\n", "    <plugins>\n" + plugin, 1))
PY
}

break_rule "scheduler-api depends on fabric8" validate "scheduler-api may depend on JSpecify and apiguardian only" \
  add_dependency scheduler-api io.fabric8 kubernetes-model-core
break_rule "scheduler-binder depends on scheduler-api" validate "must not depend on scheduler-api" \
  add_dependency scheduler-binder io.kubesched scheduler-api
break_rule "scheduler-informer depends on scheduler-k8s" validate "only scheduler-facade may depend on it" \
  add_dependency scheduler-informer io.kubesched scheduler-k8s
break_rule "scheduler-engine depends on fabric8" validate "scheduler-engine is pure" \
  add_dependency scheduler-engine io.fabric8 kubernetes-model-core
break_rule "scheduler-engine depends on the binder" validate "scheduler-engine is pure" \
  add_dependency scheduler-engine io.kubesched scheduler-binder
break_rule "scheduler-policy depends on fabric8" validate "scheduler-policy is pure" \
  add_dependency scheduler-policy io.fabric8 kubernetes-model-core
break_rule "scheduler-simulation depends on fabric8" validate "scheduler-simulation is pure" \
  add_dependency scheduler-simulation io.fabric8 kubernetes-model-core
break_rule "a plugin without a version" validate "Every Maven plugin must have a pinned version" \
  unpinned_plugin
break_rule "examples reach into scheduler-k8s" "compile -pl examples -am" "which does not export it to module io.kubesched.examples" \
  use_in_example "requires io.kubesched.k8s;" "io.kubesched.k8s.KubeConnections.fake();"
break_rule "examples reach into scheduler-binder" "compile -pl examples -am" "which does not export it to module io.kubesched.examples" \
  use_in_example "requires io.kubesched.binder;" "io.kubesched.binder.BindMode.class.getName();"
break_rule "examples reach into scheduler-adapter" "compile -pl examples -am" "which does not export it to module io.kubesched.examples" \
  use_in_example "requires io.kubesched.adapter;" "io.kubesched.adapter.PodAdapter.class.getName();"
break_rule "examples reach past the facade" "compile -pl examples -am" "package io.kubesched.informer.watch is not visible" \
  use_in_example "" "io.kubesched.informer.watch.NodeListing.class.getName();"
break_rule "examples require the loop's module" "compile -pl examples -am" "which does not export it to module io.kubesched.examples" \
  use_in_example "requires io.kubesched.informer;" "io.kubesched.informer.watch.NodeListing.class.getName();"

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
