#!/usr/bin/env bash
# Make this machine able to run every sandbox backend: bubblewrap, a running docker engine and the
# sandbox image. Idempotent: each step is skipped when already done. Needs root (or sudo).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sudo=""
[[ $EUID -eq 0 ]] || sudo="sudo"

missing=()
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if ((${#missing[@]})); then
    echo "ci-setup: apt-get install ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null \
        || { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
fi

if ! docker info >/dev/null 2>&1; then
    # No engine answers: start Debian's dockerd by hand. No iptables/bridge: sandbox containers use
    # network "none" anyway, and this keeps dockerd working inside VMs without netfilter.
    log_file="${DOCKERD_LOG:-/var/log/optimus-dockerd.log}"
    echo "ci-setup: starting dockerd (log: $log_file)" >&2
    $sudo setsid nohup dockerd --iptables=false --ip6tables=false --bridge=none >"$log_file" 2>&1 < /dev/null &
    for _ in $(seq 60); do
        docker info >/dev/null 2>&1 && break
        sleep 0.5
    done
    docker info >/dev/null 2>&1 || { echo "ci-setup: dockerd did not answer in 30 s:" >&2; tail -20 "$log_file" >&2; exit 1; }
fi

"$here/build-image.sh"
echo "ci-setup: sandbox backends ready" >&2
