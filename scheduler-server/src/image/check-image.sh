#!/usr/bin/env bash
# Runs the image that `-Pimage` built, without a container runtime: unpacks its layers into a directory, checks
# its OCI labels and SBOM, and runs its entrypoint there as a container runtime would (chroot into it, /proc
# mounted, its working directory, its user, its environment only). Checks that the usage is printed,
# that a bad configuration exits 1 with one line, and that a server pointed at an unreachable cluster serves
# /healthz (200) and /readyz (503) and exits 0 on SIGTERM.
#
# Usage: check-image.sh [TARBALL]   (default scheduler-server/target/kubesched-server-image.tar; as root with
# CAP_SYS_ADMIN to run it, else only its layers, user and entrypoint are checked)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tarball=$(realpath "${1:-$here/../../target/kubesched-server-image.tar}")
work=$(mktemp -d)
server=
root="$work/root"
cleanup() {
  [ -z "$server" ] || kill -9 "$server" 2>/dev/null || true
  umount "$root/proc" 2>/dev/null || true
  mountpoint -q "$root/proc" || rm -rf "$work" # never remove through a mounted /proc
}
trap cleanup EXIT
mkdir -p "$root" "$work/image"
tar -xf "$tarball" -C "$work/image"

# The image's layers in order, and its entrypoint, user and environment.
read_config() {
  python3 - "$work/image" "$1" <<'PY'
import json, sys
image, what = sys.argv[1:]
manifest = json.load(open(f"{image}/manifest.json"))[0]
config = json.load(open(f"{image}/{manifest['Config']}"))["config"]
if what == "layers":
    print("\n".join(manifest["Layers"]))
elif what == "entrypoint":
    print("\0".join(config["Entrypoint"]), end="")
elif what == "user":
    print(config["User"])
elif what == "workdir":
    print(config.get("WorkingDir") or "/")
elif what == "labels":
    print("\n".join(f"{k}={v}" for k, v in sorted(config.get("Labels", {}).items()) if "\n" not in v))
else:
    print("\0".join(config.get("Env", [])), end="")
PY
}
while read -r layer; do
  tar --warning=no-unknown-keyword -xzf "$work/image/$layer" -C "$root"
done < <(read_config layers)
# The dynamic linker finds the runtime's own libraries through $ORIGIN, which it reads from /proc.
mapfile -d '' entrypoint < <(read_config entrypoint)
mapfile -d '' environment < <(read_config env)
user=$(read_config user)
workdir=$(read_config workdir)
[ "$user" = 65532:65532 ] || { echo "the image runs as '$user', not nonroot 65532:65532" >&2; exit 1; }
[ -x "$root${entrypoint[0]}" ] || { echo "the entrypoint ${entrypoint[0]} is not an executable in the image" >&2; exit 1; }
echo "ok    the image's layers unpack; it runs ${entrypoint[0]} as $user"
labels=$(read_config labels)
for label in version revision source licenses; do
  grep -Eq "^org\.opencontainers\.image\.$label=.+" <<<"$labels" \
    || { echo "the image has no org.opencontainers.image.$label label; its labels: $labels" >&2; exit 1; }
done
[ -s "$root/app/sbom/kubesched-server.cdx.json" ] || { echo "the image carries no SBOM at /app/sbom/" >&2; exit 1; }
echo "ok    the image's OCI labels (version, revision, source, licenses) and its CycloneDX SBOM at /app/sbom/"
mkdir -p "$root/proc"
if [ "$(id -u)" != 0 ] || ! mount -t proc proc "$root/proc" 2>/dev/null; then
  # A machine that gives no CAP_SYS_ADMIN cannot run the image this way: say so rather than fail the build.
  echo "SKIPPED running the image: chroot and mounting /proc need root with CAP_SYS_ADMIN, not given here" >&2
  exit 0
fi

# chroot(8) starts in the new root's /; a container runtime starts in the image's working directory, which the
# entrypoint's class path is relative to (app-cds.sh). So the image is entered as a runtime does: chroot, chdir,
# the user's ids, exec.
python=$(python3 -c 'import sys; print(sys.executable)') # the interpreter itself, not a shim that needs a PATH
# shellcheck disable=SC2016
enter='import os, sys
root, workdir, user = sys.argv[1:4]
uid, gid = (int(i) for i in user.split(":"))
os.chroot(root)
os.chdir(workdir)
os.setgroups([])
os.setgid(gid)
os.setuid(uid)
os.execv(sys.argv[4], sys.argv[4:])'
extra_environment=()
run() { # runs the entrypoint with ARGS in the image's root, as its user, with its environment only (and extra_environment)
  env -i "${environment[@]}" ${extra_environment[@]+"${extra_environment[@]}"} \
    "$python" -c "$enter" "$root" "$workdir" "$user" "${entrypoint[@]}" "$@"
}
run_in_background() { # as run, in the background, with $server the server's own pid (env and python exec)
  (exec env -i "${environment[@]}" "$python" -c "$enter" "$root" "$workdir" "$user" "${entrypoint[@]}" "$@") &
  server=$!
}

out=$(run --help 2>&1) || { echo "--help failed: $out" >&2; exit 1; }
grep -q '^usage: kubesched-server --config FILE' <<<"$out" || { echo "no usage from --help: $out" >&2; exit 1; }
echo "ok    --help prints the usage"

# -Xshare:on makes a JVM that cannot map its archive exit instead of running without it.
out=$(extra_environment=(JAVA_TOOL_OPTIONS=-Xshare:on) && run --help 2>&1) \
  || { echo "the image's class-data-sharing archive does not map (-Xshare:on): $out" >&2; exit 1; }
grep -q '^usage: kubesched-server --config FILE' <<<"$out" || { echo "no usage with -Xshare:on: $out" >&2; exit 1; }
echo "ok    the class-data-sharing archive maps (-Xshare:on) from the working directory $workdir"

printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n  - schedulerName: a\n    plugins: {score: {enabled: [{name: NoSuchPlugin}]}}\n' >"$root/tmp/bad.yaml"
status=0
out=$(run --config /tmp/bad.yaml 2>&1) || status=$?
if [ "$status" != 1 ] || [ "$(wc -l <<<"$out")" != 1 ] || ! grep -q NoSuchPlugin <<<"$out"; then
  echo "a bad configuration should exit 1 with one line naming the plugin; status $status, output: $out" >&2
  exit 1
fi
echo "ok    a bad configuration exits 1: $out"

# A cluster that does not answer: the server serves its endpoints while it tries to list it.
printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection: {leaderElect: false}\nprofiles:\n  - schedulerName: a\n' >"$root/tmp/good.yaml"
printf 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n' >"$root/tmp/kubeconfig"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run_in_background --config /tmp/good.yaml --kubeconfig /tmp/kubeconfig --secure-port "$port" >"$work/server.log" 2>&1
# HTTPS with the self-signed certificate made at start: -k.
code() { curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port$1" || true; }
for _ in $(seq 100); do
  [ "$(code /healthz)" = 200 ] && break
  sleep 0.2
done
[ "$(code /healthz)" = 200 ] || { echo "/healthz did not answer 200; log:" >&2; cat "$work/server.log" >&2; exit 1; }
[ "$(code /readyz)" = 503 ] || { echo "/readyz should be 503 while listing" >&2; exit 1; }
[ "$(code /metrics)" = 401 ] || { echo "/metrics without a token did not answer 401" >&2; exit 1; }
echo "ok    HTTPS: /healthz 200, /readyz 503 while listing, /metrics 401 without a token"
kill -TERM "$server"
status=0
wait "$server" || status=$?
server=
[ "$status" = 0 ] || { echo "SIGTERM: exit status $status; log:" >&2; cat "$work/server.log" >&2; exit 1; }
echo "ok    SIGTERM: exit status 0"
