#!/usr/bin/env bash
# helm lint (strict) and helm template of charts/kubesched with its default values and with every optional part on
# (charts/kubesched/ci/all-features-values.yaml), for the Kubernetes version the end-to-end cluster runs; values the
# chart does not know, and wrong settings, must be refused. ChartIT sends the rendered objects to a real API server.
set -euo pipefail
cd "$(dirname "$0")/.."
helm=$(scripts/helm.sh)
kube=1.37.2
chart=charts/kubesched
all=$chart/ci/all-features-values.yaml
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$helm" lint --strict --kube-version "$kube" "$chart"
"$helm" lint --strict --kube-version "$kube" "$chart" -f "$all"
"$helm" template kubesched "$chart" --namespace kubesched --kube-version "$kube" > "$out/default.yaml"
"$helm" template kubesched "$chart" --namespace kubesched --kube-version "$kube" -f "$all" > "$out/all.yaml"

kinds() { grep '^kind: ' "$1" | sort | uniq -c | awk '{print $3 "=" $1}' | tr '\n' ' '; }
expect() {
  [ "$(kinds "$1")" = "$2" ] || { echo "helm template $1: kinds '$(kinds "$1")', expected '$2'" >&2; exit 1; }
}
expect "$out/default.yaml" "ClusterRole=1 ClusterRoleBinding=1 ConfigMap=1 CustomResourceDefinition=1 Deployment=1 PodDisruptionBudget=1 PriorityClass=1 Role=1 RoleBinding=1 Service=1 ServiceAccount=1 "
expect "$out/all.yaml" "ClusterRole=2 ClusterRoleBinding=2 ConfigMap=2 CustomResourceDefinition=1 Deployment=1 PodDisruptionBudget=1 PrometheusRule=1 Role=1 RoleBinding=1 Service=1 ServiceAccount=1 ServiceMonitor=1 "

# The chart's copies equal their sources: the CRD, the alerts' groups and the dashboard (deploy/monitoring/ embeds
# the last two; ServerManifestsTest compares them).
cmp crds/schedulingpolicies.kubesched.io-v1.yml "$chart/files/schedulingpolicies.kubesched.io-v1.yml"

# Settings the chart cannot honour are refused with a message naming them, never rendered without them.
refused() {
  local message=$1; shift
  if err=$("$helm" template kubesched "$chart" --kube-version "$kube" "$@" 2>&1 >/dev/null); then
    echo "helm template $* rendered; it should have refused it" >&2; exit 1
  fi
  grep -qF -- "$message" <<<"$err" || { echo "helm template $*: '$err' does not say '$message'" >&2; exit 1; }
}
refused "additional properties 'replicas' not allowed" --set replicas=3
refused "/logging/format" --set logging.format=xml
refused "profiles replaces schedulerName" --set schedulerName=a --set 'profiles[0].schedulerName=b'
refused "without leaderElection.enabled would all schedule" --set leaderElection.enabled=false
refused "kube-scheduler's own Lease" --set leaderElection.resourceName=kube-scheduler
echo "charts/kubesched: lint and template pass"
