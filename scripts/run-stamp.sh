# Sourced by the measuring scripts (e2e-benchmark.sh, drills.sh, jmh.sh): names a run the same way in each.
#   revision  the code measured: git's short commit, with -dirty for uncommitted changes to tracked files
#   stamp     the run's data file name without .json: UTC start time, then the revision
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then revision="$revision-dirty"; fi
stamp="$(date -u +%Y-%m-%dT%H%MZ)-$revision"
