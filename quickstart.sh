#!/usr/bin/env bash
# Sets clscan up on a fresh Debian or Ubuntu machine and runs it:
#   ./quickstart.sh        install what is missing, build, list devices, run the scan demo
#   ./quickstart.sh test   install what is missing (plus the test tools), build, run the quick tier of the
#                          suite (ctest -L quick; about 3 minutes on 2 cores; tests/CMakeLists.txt says what
#                          it covers). The full tier: cd build && ctest -L full.
# Packages come from the distribution (PoCL gives a CPU OpenCL device where there is no GPU; Open MPI
# is for clscan_mpi); sudo is used when not root.
# Extra CMake arguments: CLSCAN_CMAKE_ARGS="-DCLSCAN_WERROR=ON".
set -euo pipefail
mode=${1:-run}
case "$mode" in run|test) ;; *) echo "usage: $0 [run|test]" >&2; exit 2 ;; esac
cd "$(dirname "$0")"

packages=(build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo gnuplot-nox
          libopenmpi-dev openmpi-bin)
[[ $mode == test ]] && packages+=(libcmocka-dev clang oclgrind)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  echo "quickstart: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# shellcheck disable=SC2086  # CLSCAN_CMAKE_ARGS is a list of words on purpose
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${CLSCAN_CMAKE_ARGS:-}
cmake --build build -j"$(nproc)"

if [[ $mode == run ]]; then
  ./build/clscan-info
  ./build/clscan-demo
else
  cd build && ctest -L quick --output-on-failure -j"$(nproc)"
fi
