#!/usr/bin/env bash
# The suite in a minimal chroot of another Debian release, on an OpenCL stack the host does not have
# (docs/reliability.md, "PoCL 5 and 6" and "Mesa rusticl"): makes the chroot with debootstrap (default
# trixie, Debian 13), binds /proc, /sys (PoCL reads the CPU's topology there), /dev and this
# checkout into it, builds there and runs ctest with the arguments given. Needs root (sudo otherwise) and
# Debian's mirror; the chroot stays for the next run. scripts/pocl-chroot.sh and scripts/rusticl-chroot.sh
# are the ways in:
#   STACK=pocl     PoCL (6.0 on trixie); ctest's default arguments: the whole suite, two at a time.
#   STACK=rusticl  Mesa's rusticl on llvmpipe, the only ICD ocl-icd sees (OCL_ICD_VENDORS); SHAPE=cpu
#                  offers it as a CPU without fp64, SHAPE=gpu as a GPU with fp64 (RUSTICL_DEVICE_TYPE,
#                  RUSTICL_FEATURES), so that it gets the GPU policy (and test_race a CPU's 200 runs a
#                  case, CLSCAN_RACE_RUNS); default arguments: the quick tier.
# RELEASE=... picks the release, CHROOT=... the folder (one per stack and release by default).
# Exits 77 (ctest: skipped) where the machine cannot host the chroot (no root, no mirror, no bind
# mounts), saying why, or 1 with CLSCAN_CHROOT_REQUIRED=1 (.ci/run: a skip there would pass unseen);
# anything that fails inside the chroot fails the run.
set -eu -o pipefail
cannot() {
  echo "debian-chroot: this machine cannot host the chroot: $*" >&2
  [ "${CLSCAN_CHROOT_REQUIRED:-0}" = 1 ] && exit 1
  exit 77
}
stack=${STACK:-pocl}
shape=${SHAPE:-cpu}
release=${RELEASE:-trixie}
case "$stack:$shape" in pocl:*|rusticl:cpu|rusticl:gpu) ;; *) echo "STACK=pocl|rusticl, SHAPE=cpu|gpu" >&2; exit 2 ;; esac
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || cannot "not root and no sudo"
  exec sudo STACK="$stack" SHAPE="$shape" RELEASE="$release" ${CHROOT:+CHROOT="$CHROOT"} \
    CLSCAN_CHROOT_REQUIRED="${CLSCAN_CHROOT_REQUIRED:-0}" "$0" "$@"
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=/build
env=()
args=("$@")
if [ "$stack" = pocl ]; then
  root=${CHROOT:-/tmp/clscan-$release}
  icd=pocl-opencl-icd
  [ ${#args[@]} -gt 0 ] || args=(-j2 --output-on-failure)
else
  root=${CHROOT:-/tmp/clscan-$release-rusticl}
  icd=mesa-opencl-icd
  build=/build-rusticl-$shape   # one a shape: the program caches of the two devices stay apart
  env=(OCL_ICD_VENDORS=/etc/clscan-icd RUSTICL_ENABLE=llvmpipe)
  # As a GPU: test_race would take a GPU's 1000 runs a case, over 600 s on 2 cores; the CPU's 200.
  [ "$shape" = cpu ] || env+=(RUSTICL_DEVICE_TYPE=gpu RUSTICL_FEATURES=fp64 CLSCAN_RACE_RUNS="${CLSCAN_RACE_RUNS:-200}")
  [ ${#args[@]} -gt 0 ] || args=(-L quick -j2 --output-on-failure)
fi
if [ ! -x "$root/usr/bin/cmake" ]; then
  command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; } ||
    cannot "debootstrap could not be installed"
  debootstrap --variant=minbase \
    --include=$icd,libc6-dev,ocl-icd-opencl-dev,opencl-c-headers,cmake,gcc,make,libcmocka-dev \
    "$release" "$root" http://deb.debian.org/debian >"$root.log" 2>&1 || { tail -5 "$root.log"; cannot "debootstrap failed"; }
fi
if [ "$stack" = rusticl ]; then   # a folder with rusticl's .icd alone (Mesa's clover is installed too)
  mkdir -p "$root/etc/clscan-icd"
  cp "$root/etc/OpenCL/vendors/rusticl.icd" "$root/etc/clscan-icd/"
fi
mkdir -p "$root/src"
mounts=()
cleanup() { for m in "${mounts[@]}"; do umount "$root/$m" 2>/dev/null || true; done; }
trap cleanup EXIT
for m in proc sys dev src; do
  mountpoint -q "$root/$m" && continue   # left by a run that was killed: used as it is
  if [ "$m" = src ]; then from=$src; else from=/$m; fi
  mount --bind "$from" "$root/$m" || cannot "bind mount of $from failed"
  mounts+=("$m")
done
# shellcheck disable=SC2016   # expanded inside the chroot
chroot "$root" env "${env[@]}" bash -c 'b=$1; shift
  mkdir -p "$b" && cmake -S /src -B "$b" -DCLSCAN_WERROR=ON >"$b.log" 2>&1 &&
  cmake --build "$b" -j"$(nproc)" >>"$b.log" 2>&1 || { tail -20 "$b.log"; exit 1; }
  "$b/clscan-info" 2>&1 | grep -m2 -e " platform: " -e "sub-groups"
  cd "$b" && ctest "$@"' ctest "$build" "${args[@]}"
