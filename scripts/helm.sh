#!/usr/bin/env bash
# Prints the path of helm HELM_VERSION (below), built from its Go module with `go install` on first use and kept
# in a cache outside the repository ($KUBESCHED_TOOLS_CACHE, else ~/.cache/kubesched/tools), so that CI and the
# end-to-end suite's ChartIT use the same pinned helm. Needs Go; the first build takes about 2 minutes on 2 cores.
set -euo pipefail
HELM_VERSION=v3.22.0
cache="${KUBESCHED_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubesched/tools}"
bin="$cache/helm-$HELM_VERSION"
if [ ! -x "$bin/helm" ]; then
  command -v go >/dev/null || { echo "scripts/helm.sh: go is not on the PATH; it builds helm $HELM_VERSION" >&2; exit 1; }
  mkdir -p "$cache"
  tmp="$bin.tmp.$$"
  trap 'rm -rf "$tmp"' EXIT
  started=$SECONDS
  GOBIN="$tmp" GOFLAGS="-trimpath -buildvcs=false" go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" >&2
  rm -rf "$bin" && mv "$tmp" "$bin"
  echo "scripts/helm.sh: built helm $HELM_VERSION in $((SECONDS - started)) s into $bin" >&2
fi
echo "$bin/helm"
