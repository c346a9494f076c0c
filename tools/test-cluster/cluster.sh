#!/usr/bin/env bash
# A real Kubernetes control plane for the end-to-end tests: kube-apiserver and etcd, and on request
# kube-controller-manager with the PersistentVolume, disruption, PodGroup protection and resource claim controllers only, built from the Go module proxy at the
# versions go.mod pins, cached by version outside the repository, run on loopback.
#
#   tools/test-cluster/cluster.sh build               build (or reuse) the binaries (etcd, kube-apiserver,
#                                               kube-controller-manager); prints their directory
#   tools/test-cluster/cluster.sh build-scheduler     also build (or reuse) kube-scheduler from the same
#                                               k8s.io/kubernetes version (end-to-end benchmark, parity test);
#                                               prints the path of the binary
#   tools/test-cluster/cluster.sh start DIR           start etcd and kube-apiserver with all state in DIR (new
#                                               or empty); writes DIR/admin.kubeconfig (system:masters)
#                                               and DIR/scheduler.kubeconfig (the service account
#                                               kube-system/kubesched, with no permissions until RBAC
#                                               grants some); stops everything again if it fails
#   tools/test-cluster/cluster.sh start-controller-manager DIR
#                                               start kube-controller-manager on a started cluster, as
#                                               admin, leader election off, running only the controllers
#                                               named in $controllers below: the PersistentVolume binder
#                                               (binds claims and volumes, hands claims of a class with an
#                                               external provisioner to it), the two protection
#                                               controllers (without them deleted claims and volumes stay
#                                               Terminating) and the ephemeral volume controller (creates
#                                               the claims of pods' generic ephemeral volumes) and the
#                                               disruption controller (computes PodDisruptionBudgets'
#                                               status, which preemption reads: without it
#                                               disruptionsAllowed stays 0) and the PodGroup
#                                               protection controller (a deleted PodGroup goes away
#                                               once no pod names it) and the resource claim controller
#                                               (makes the ResourceClaims of pods' claim templates); log in
#                                               DIR/kube-controller-manager.log; KUBESCHED_CONTROLLER_MANAGER_ARGS,
#                                               when set, adds flags after the script's (such as
#                                               --kube-api-qps=5000)
#   tools/test-cluster/cluster.sh restart-apiserver DIR   stop kube-apiserver and start it again (etcd and
#                                               kube-controller-manager stay; the latter reconnects)
#   tools/test-cluster/cluster.sh restart-etcd DIR    stop etcd and start it again on the same data (kube-apiserver
#                                               stays and reconnects)
#   tools/test-cluster/cluster.sh stop DIR            stop everything started in DIR and delete DIR
#
# Needs Go (the version go.mod names or newer) and about 2 GB of disk for the module and build caches.
# The cache directory is $KUBESCHED_CLUSTER_CACHE, else ~/.cache/kubesched/test-cluster.
# kube-apiserver always runs with $apiserver_defaults below (the GenericWorkload API: scheduling.k8s.io/v1beta1
# PodGroups and the pods' spec.schedulingGroup). KUBESCHED_APISERVER_ARGS, when set at start, adds flags after
# them (kept for restart-apiserver); a repeated --feature-gates or --runtime-config adds its entries to the
# defaults', and an entry given again there wins.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
export GOTOOLCHAIN=local GOFLAGS=-mod=readonly
k8s_version=$(awk '$1 == "k8s.io/kubernetes" {print $2}' "$here/go.mod")
etcd_version=$(awk '$1 == "go.etcd.io/etcd/server/v3" {print $2}' "$here/go.mod")
cache="${KUBESCHED_CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubesched/test-cluster}"
bin="$cache/k8s-$k8s_version-etcd-$etcd_version-$(cat "$here/go.sum" "$here/cmd/clusterutil/main.go" | sha256sum | cut -c1-12)"

# The controllers of kube-controller-manager that start-controller-manager runs (1.37's names).
# podgroup-protection-controller (needs the GenericWorkload gate, given to it below as to the API server) takes
# the finalizer the API server puts on every Workload API PodGroup off once no pod names the group: without it a
# deleted PodGroup stays Terminating for ever. resourceclaim-controller makes the ResourceClaims of pods'
# spec.resourceClaims that name a ResourceClaimTemplate and reports them in status.resourceClaimStatuses
# (dynamic resource allocation; resource.k8s.io/v1 is served by default in 1.37, DeviceTaintRules included).
controllers=persistentvolume-binder-controller,persistentvolumeclaim-protection-controller,persistentvolume-protection-controller,ephemeral-volume-controller,disruption-controller,podgroup-protection-controller,resourceclaim-controller

# GenericWorkload is beta but off by default in 1.37: without it the API server serves no PodGroup storage and
# drops spec.schedulingGroup from the pods it creates. scheduling.k8s.io/v1beta1 is a beta group version that
# is off by default too; both are needed for the Workload API's PodGroups (gang scheduling).
apiserver_defaults="--feature-gates=GenericWorkload=true --runtime-config=scheduling.k8s.io/v1beta1=true"

log() { echo "cluster: $*" >&2; }
die() { log "$*"; exit 1; }

build() {
  if [ -x "$bin/kube-apiserver" ] && [ -x "$bin/etcd" ] && [ -x "$bin/kube-controller-manager" ] &&
    [ -x "$bin/clusterutil" ]; then
    echo "$bin"
    return
  fi
  command -v go >/dev/null || die "Go is needed to build kube-apiserver and etcd, and is not on the PATH"
  mkdir -p "$cache"
  exec 9>"$cache/.build.lock"
  flock 9 # one build at a time; a second caller reuses the first one's result
  if [ ! -x "$bin/clusterutil" ] || [ ! -x "$bin/kube-controller-manager" ]; then
    local tmp="$bin.tmp.$$" started=$SECONDS
    rm -rf "$tmp" && mkdir -p "$tmp"
    log "building kube-apiserver $k8s_version, kube-controller-manager and etcd $etcd_version with $(go version | cut -d' ' -f3) (first time: 10-35 min)"
    (cd "$here" &&
      go build -trimpath -o "$tmp/etcd" go.etcd.io/etcd/server/v3 &&
      go build -trimpath -o "$tmp/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver &&
      go build -trimpath -o "$tmp/kube-controller-manager" k8s.io/kubernetes/cmd/kube-controller-manager &&
      go build -trimpath -o "$tmp/clusterutil" ./cmd/clusterutil) >&2 || die "building the binaries failed (see above)"
    rm -rf "$bin" && mv "$tmp" "$bin"
    log "built in $((SECONDS - started)) s into $bin"
  fi
  # Closed, so that the lock is not held on by etcd and kube-apiserver, which this shell starts next and which
  # would inherit the descriptor: a build-scheduler run beside them would wait for as long as they run.
  exec 9>&-
  echo "$bin"
}

build_scheduler() {
  build >/dev/null
  if [ ! -x "$bin/kube-scheduler" ]; then
    exec 9>"$cache/.build.lock"
    flock 9
    if [ ! -x "$bin/kube-scheduler" ]; then
      local started=$SECONDS
      log "building kube-scheduler $k8s_version (a few minutes; reuses the kube-apiserver build's cache)"
      (cd "$here" && go build -trimpath -o "$bin/kube-scheduler.tmp.$$" k8s.io/kubernetes/cmd/kube-scheduler) >&2 ||
        die "building kube-scheduler failed (see above)"
      mv "$bin/kube-scheduler.tmp.$$" "$bin/kube-scheduler"
      log "built kube-scheduler in $((SECONDS - started)) s"
    fi
    exec 9>&- # as in build
  fi
  echo "$bin/kube-scheduler"
}

start_etcd() { # dir; returns once etcd answers ready
  local dir=$1
  # shellcheck disable=SC1091
  . "$dir/ports"
  "$bin/etcd" --name=test --data-dir="$dir/etcd" \
    --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
    --listen-peer-urls="http://127.0.0.1:$peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$peer_port" \
    --initial-cluster="test=http://127.0.0.1:$peer_port" \
    --unsafe-no-fsync --log-level=warn >>"$dir/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"
  "$bin/clusterutil" wait-ready "http://127.0.0.1:$etcd_port/readyz" none 60 "$!" ||
    { tail -20 "$dir/etcd.log" >&2; return 1; }
}

start_apiserver() { # dir
  local dir=$1
  # shellcheck disable=SC1091
  . "$dir/ports"
  "$bin/kube-apiserver" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
    --etcd-servers="http://127.0.0.1:$etcd_port" \
    --cert-dir="$dir/pki" \
    --token-auth-file="$dir/tokens.csv" \
    --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$dir/sa.key" --service-account-signing-key-file="$dir/sa.key" \
    --service-cluster-ip-range=10.96.0.0/24 --endpoint-reconciler-type=none \
    --disable-admission-plugins=ServiceAccount \
    --profiling=false \
    $apiserver_defaults \
    $(cat "$dir/apiserver.args") \
    >"$dir/kube-apiserver.log" 2>&1 &
  echo $! >"$dir/kube-apiserver.pid"
  "$bin/clusterutil" wait-ready "https://127.0.0.1:$api_port/readyz" "$(cat "$dir/admin.token")" 90 "$!" ||
    { tail -20 "$dir/kube-apiserver.log" >&2; return 1; }
}

start_controller_manager() { # dir
  local dir=$1
  # shellcheck disable=SC1091
  . "$dir/ports"
  [ ! -f "$dir/kube-controller-manager.pid" ] || die "kube-controller-manager is already running in $dir"
  local port
  port=$("$bin/clusterutil" ports 1)
  echo "controller_manager_port=$port" >>"$dir/ports"
  # As admin (system:masters, one identity for every controller); its own serving certificate in memory;
  # /healthz needs no authorization (the default always-allow paths), and bearer tokens are checked with
  # the API server (no client CA to look up: the API server has none). A short resync: a claim the
  # controller could not bind yet is looked at again within 2 s instead of 15. The extra flags are split at
  # white space.
  # shellcheck disable=SC2086
  "$bin/kube-controller-manager" \
    --kubeconfig="$dir/admin.kubeconfig" \
    --authentication-kubeconfig="$dir/admin.kubeconfig" --authorization-kubeconfig="$dir/admin.kubeconfig" \
    --authentication-skip-lookup \
    --bind-address=127.0.0.1 --secure-port="$port" \
    --leader-elect=false \
    --controllers="$controllers" \
    --feature-gates=GenericWorkload=true \
    --pvclaimbinder-sync-period=2s \
    --profiling=false \
    ${KUBESCHED_CONTROLLER_MANAGER_ARGS:-} \
    >"$dir/kube-controller-manager.log" 2>&1 &
  echo $! >"$dir/kube-controller-manager.pid"
  "$bin/clusterutil" wait-ready "https://127.0.0.1:$port/healthz" "$(cat "$dir/admin.token")" 60 "$!" ||
    { tail -20 "$dir/kube-controller-manager.log" >&2; stop_pid "$dir/kube-controller-manager.pid"; return 1; }
  log "kube-controller-manager ($controllers) running, log in $dir/kube-controller-manager.log"
}

stop_pid() { # pidfile
  [ -f "$1" ] || return 0
  local pid
  pid=$(cat "$1")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$1"
}

kubeconfig() { # file user token port
  cat >"$1" <<KC
apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: https://127.0.0.1:$4
    certificate-authority: $(dirname "$1")/pki/apiserver.crt
contexts:
- name: $2
  context:
    cluster: test
    user: $2
current-context: $2
users:
- name: $2
  user:
    token: $3
KC
}

start() { # dir
  local dir=$1
  [ -n "$dir" ] || die "usage: cluster.sh start DIR"
  mkdir -p "$dir"
  [ -z "$(ls -A "$dir")" ] || die "$dir is not empty"
  dir=$(cd "$dir" && pwd)
  build >/dev/null
  trap 'log "start failed; stopping"; stop "$dir" keep' ERR
  local ports
  ports=$("$bin/clusterutil" ports 3 | tr '\n' ' ')
  read -r api_port etcd_port peer_port <<<"$ports"
  printf 'api_port=%s\netcd_port=%s\npeer_port=%s\n' "$api_port" "$etcd_port" "$peer_port" >"$dir/ports"
  echo "${KUBESCHED_APISERVER_ARGS:-}" >"$dir/apiserver.args"
  "$bin/clusterutil" keygen "$dir/sa.key"
  local admin scheduler
  admin=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  scheduler=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  echo "$admin" >"$dir/admin.token"
  {
    echo "$admin,admin,admin,system:masters"
    # The username of the service account kube-system/kubesched: RBAC bindings to that account apply.
    echo "$scheduler,system:serviceaccount:kube-system:kubesched,kubesched,\"system:serviceaccounts,system:serviceaccounts:kube-system\""
  } >"$dir/tokens.csv"

  start_etcd "$dir"
  start_apiserver "$dir"
  kubeconfig "$dir/admin.kubeconfig" admin "$admin" "$api_port"
  kubeconfig "$dir/scheduler.kubeconfig" kubesched "$scheduler" "$api_port"
  trap - ERR
  log "kube-apiserver $k8s_version ready at https://127.0.0.1:$api_port (state in $dir)"
}

stop() { # dir [keep]
  local dir=$1
  stop_pid "$dir/kube-controller-manager.pid"
  stop_pid "$dir/kube-apiserver.pid"
  stop_pid "$dir/etcd.pid"
  [ "${2:-}" = keep ] || rm -rf "$dir"
}

case "${1:-}" in
  build) build ;;
  build-scheduler) build_scheduler ;;
  start) start "${2:-}" ;;
  start-controller-manager)
    [ -f "${2:-}/ports" ] || die "usage: cluster.sh start-controller-manager DIR (of a started cluster)"
    build >/dev/null
    start_controller_manager "$(cd "$2" && pwd)" ;;
  restart-apiserver)
    [ -f "${2:-}/ports" ] || die "usage: cluster.sh restart-apiserver DIR (of a started cluster)"
    build >/dev/null
    stop_pid "$2/kube-apiserver.pid"
    start_apiserver "$2"
    log "kube-apiserver restarted" ;;
  restart-etcd)
    [ -f "${2:-}/ports" ] || die "usage: cluster.sh restart-etcd DIR (of a started cluster)"
    build >/dev/null
    stop_pid "$2/etcd.pid"
    start_etcd "$2"
    log "etcd restarted" ;;
  stop) stop "${2:?usage: cluster.sh stop DIR}" ;;
  *) sed -n '2,40p' "$0" >&2; exit 2 ;;
esac
