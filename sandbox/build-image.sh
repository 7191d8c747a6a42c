#!/usr/bin/env bash
# Build the docker sandbox image (tag optimus-sandbox:<inputs hash> and :latest).
# Online: base python:3.11-slim. Offline (no registry reachable): base = `debootstrap --variant=minbase
# bookworm` imported with `docker import`. Either way the Python wheels are fetched on the host with
# `pip download`, so the build itself never needs network (dockerd may run with --bridge=none).
# Rebuilds only when Dockerfile, requirements.txt or this script change; --force rebuilds anyway.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$here/.build"
image="${OPTIMUS_SANDBOX_IMAGE_NAME:-optimus-sandbox}"
base="${OPTIMUS_SANDBOX_BASE:-python:3.11-slim}"
python="${PYTHON:-$(command -v python3)}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

log() { echo "build-image: $*" >&2; }

inputs_hash="$(cat "$here/Dockerfile" "$here/requirements.txt" "$here/build-image.sh" | sha256sum | cut -c1-16)"
tag="$image:$inputs_hash"

if [[ "${1:-}" != "--force" ]] && docker image inspect "$tag" >/dev/null 2>&1; then
    docker tag "$tag" "$image:latest"
    log "up to date: $tag"
    exit 0
fi

mkdir -p "$build/wheels"
ctx="$build/context"
rm -rf "$ctx"
mkdir -p "$ctx/wheels"
cp "$here/Dockerfile" "$here/requirements.txt" "$ctx/"

if docker image inspect "$base" >/dev/null 2>&1; then
    log "base $base present"
elif timeout 60 docker pull "$base" >/dev/null 2>&1; then
    log "pulled $base"
else
    log "no registry reachable: using a debootstrapped bookworm base"
    packages="python3,python3-venv"
    rootfs_key="$(echo "bookworm minbase $packages" | sha256sum | cut -c1-12)"
    rootfs_tar="$build/rootfs-$rootfs_key.tar"
    if [[ ! -f "$rootfs_tar" ]]; then
        command -v debootstrap >/dev/null || { log "install debootstrap: apt-get install debootstrap"; exit 1; }
        rm -rf "$build/rootfs"
        debootstrap --variant=minbase --include="$packages" bookworm "$build/rootfs" "$mirror" >"$build/debootstrap.log" 2>&1 \
            || { tail -20 "$build/debootstrap.log" >&2; exit 1; }
        # Apt lists and caches are dead weight in the image.
        rm -rf "$build/rootfs/var/cache/apt/archives/"*.deb "$build/rootfs/var/lib/apt/lists/"*
        tar -C "$build/rootfs" --numeric-owner -cf "$rootfs_tar.tmp" .
        mv "$rootfs_tar.tmp" "$rootfs_tar"
        rm -rf "$build/rootfs"
    fi
    base="optimus-sandbox-base:bookworm-$rootfs_key"
    docker image inspect "$base" >/dev/null 2>&1 || docker import "$rootfs_tar" "$base" >/dev/null
    log "base $base"
fi

# cp311 manylinux wheels: both bases are bookworm (glibc 2.36) with Python 3.11.
log "downloading wheels into $build/wheels"
"$python" -m pip download --quiet --only-binary=:all: --dest "$build/wheels" \
    --python-version 3.11 --implementation cp --abi cp311 --abi abi3 --abi none \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_34_x86_64 --platform any \
    -r "$here/requirements.txt" 2> >(grep -v "^WARNING: Location" >&2)
ln "$build/wheels/"*.whl "$ctx/wheels/" 2>/dev/null || cp "$build/wheels/"*.whl "$ctx/wheels/"

log "building $tag"
docker build --quiet --build-arg BASE="$base" --label "org.optimus.sandbox.inputs=$inputs_hash" \
    -t "$tag" -t "$image:latest" "$ctx" >/dev/null
rm -rf "$ctx"
# Drop what earlier builds left: the untagged build stage and images of older inputs.
docker image prune -f --filter "label=org.optimus.sandbox.stage=build" >/dev/null
# (grep finds nothing on a first build: that is no failure under pipefail.)
docker images "$image" --format '{{.Tag}}' | { grep -vx -e latest -e "$inputs_hash" || true; } \
    | while read -r old; do docker rmi "$image:$old" >/dev/null || true; done
log "built $tag"
