#!/usr/bin/env bash
# Makes classes.lst, the classes that the image's class-data-sharing archive holds (app-cds.sh): those the server
# loads while it starts, schedules and serves on a real API server. ServerIT's server processes write them
# (-XX:DumpLoadedClassList, one file each); they are merged here in the order first loaded.
#
# Run it after a change that loads other classes at start (a dependency upgraded, a plugin added). A stale list
# is never wrong, only slower: a class it names that no longer exists is skipped when the archive is made, and a
# class it misses loads from its jar as without an archive.
#
# Usage: scheduler-server/src/image/class-list.sh   (what the end-to-end suite needs: Linux, a JDK 17, Go)
set -euo pipefail
cd "$(dirname "$0")/../../.."
lists=$(mktemp -d)
trap 'rm -rf "$lists"' EXIT
./mvnw -B -q verify -Pe2e -pl tools/e2e -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ServerIT -Dfailsafe.failIfNoSpecifiedTests=false -Dkubesched.classLists="$lists"
out=scheduler-server/src/image/classes.lst
{
  echo "# The classes of the image's class-data-sharing archive: made by class-list.sh from ServerIT's servers"
  echo "# (-XX:DumpLoadedClassList), read by app-cds.sh. Do not edit by hand."
  cat "$lists"/*.classlist | grep -v '^#' | awk '!seen[$0]++'
} >"$out"
echo "class-list.sh: $(grep -c '^[^#@]' "$out") classes in $out"
