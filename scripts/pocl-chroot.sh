#!/usr/bin/env bash
# The suite on another Debian release's PoCL (docs/reliability.md, "PoCL 5 and 6"): makes a minimal
# chroot of that release (default trixie, Debian 13, PoCL 6.0) with debootstrap, binds /proc, /sys
# (PoCL reads the CPU's topology there), /dev and this checkout into it, builds in the chroot and runs
# ctest there with the arguments given (default: the whole suite, two at a time). Needs root and
# Debian's mirror; the chroot stays for the next run. RELEASE=... picks the release, CHROOT=... the folder.
set -eu -o pipefail
release=${RELEASE:-trixie}
root=${CHROOT:-/tmp/clscan-$release}
src=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$root/usr/bin/cmake" ]; then
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
  debootstrap --variant=minbase \
    --include=pocl-opencl-icd,ocl-icd-opencl-dev,opencl-c-headers,cmake,gcc,make,libcmocka-dev \
    "$release" "$root" http://deb.debian.org/debian >"$root.log" 2>&1 || { tail -5 "$root.log"; exit 1; }
fi
mkdir -p "$root/src"
mounts=(proc sys dev src)
cleanup() { for m in "${mounts[@]}"; do umount "$root/$m" 2>/dev/null || true; done; }
trap cleanup EXIT
for m in proc sys dev; do mount --bind "/$m" "$root/$m"; done
mount --bind "$src" "$root/src"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-j2 --output-on-failure)
# shellcheck disable=SC2016   # expanded inside the chroot
chroot "$root" bash -c 'cmake -S /src -B /build -DCLSCAN_WERROR=ON >/build.log 2>&1 &&
  cmake --build /build -j"$(nproc)" >>/build.log 2>&1 || { tail -20 /build.log; exit 1; }
  /build/clscan-info 2>&1 | grep -m1 " platform: "
  cd /build && ctest "$@"' ctest "${args[@]}"
