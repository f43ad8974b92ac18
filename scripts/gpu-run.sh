#!/usr/bin/env bash
# One full run on the GPU test machine (see shared/GPU.md): register the NVIDIA ICD, unpack the
# carried cmocka packages (.deps/*.deb), build in /tmp, list devices, run the whole suite on the GPU
# and the demo, and print a short table. Logs go to $OUT when it is set. SKIP_TESTS=1 skips ctest,
# CTEST_JOBS=k runs k tests at a time (default 1);
# BENCH_ARGS="..." runs clscan-bench with those arguments afterwards (several runs: separate them
# with '|'; CSV and JSON into $OUT). MPI_RUNS="np:args|np:args" runs mpirun -np np clscan-bench --mpi
# args afterwards, each rank on its own GPU (CLSCAN_DEVICE unset for them), into $OUT/mpi-*.txt.
# PEERS="..." builds the peer programs (Boost.Compute from a carried libboost*-dev package, CUB with
# the machine's nvcc) and runs bench/peers/compare.sh with those arguments last, into $OUT/peers.
# BUILD_DIR=... builds there instead of /tmp/build (a path the repository ignores, such as
# build-gpu, outlives the call while the machine stays warm). COSTS=an earlier run's ctest.log gives
# ctest each test's time from there, so that the longest start first (with CTEST_JOBS=8 the subset took
# 455 s in declared order, its longest test, the sort's fault walk, 326 s of it, started last).
set -u -o pipefail
OUT=${OUT:-/tmp/clscan-gpu-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
rm -rf /tmp/cm && mkdir -p /tmp/cm
for f in .deps/*.deb; do dpkg -x "$f" /tmp/cm; done
export LD_LIBRARY_PATH=/tmp/cm/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

extra=()
[[ -d /usr/local/cuda/bin ]] && export PATH=$PATH:/usr/local/cuda/bin
[[ -n ${PEERS+set} ]] && extra+=(-DCLSCAN_PEERS=ON)
if ! ls /usr/lib/x86_64-linux-gnu/libOpenCL.so >/dev/null 2>&1; then   # only the runtime .so.1 is there
  lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1* /usr/local/cuda/lib64/libOpenCL.so* 2>/dev/null | head -1)
  extra+=("-DOpenCL_LIBRARY=$lib")
fi
src=$(pwd)
build=${BUILD_DIR:-/tmp/build}
cmake -S "$src" -B "$build" -DCMAKE_PREFIX_PATH=/tmp/cm/usr -DCLSCAN_WERROR=ON "${extra[@]}" >"$OUT/configure.log" 2>&1 \
  || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$build" -j16 >"$OUT/build.log" 2>&1 || { grep -E 'error|warning' "$OUT/build.log" | head -30; exit 1; }
grep -c warning "$OUT/build.log" | sed 's/^/build warnings: /'

cd "$build"
./clscan-info >"$OUT/info.txt" 2>&1; cat "$OUT/info.txt" | head -40
export CLSCAN_DEVICE=${CLSCAN_DEVICE:-gpu}
export CLSCAN_CACHE_DIR=/tmp/clscan-cache
./clscan-info --check 2>&1 | tee "$OUT/check.txt" | tail -6
start=$(date +%s)
rc=0
if [[ -n ${COSTS:-} ]]; then   # CTestCostData.txt: "name runs seconds" a line
  mkdir -p Testing/Temporary
  sed -nE 's/^.*Test +#[0-9]+: ([A-Za-z0-9_.-]+) .* ([0-9.]+) sec$/\1 1 \2/p' "$src/$COSTS" \
    >Testing/Temporary/CTestCostData.txt
fi
if [ -z "${SKIP_TESTS:-}" ]; then
  ctest --output-on-failure -j${CTEST_JOBS:-1} ${CTEST_ARGS:-} >"$OUT/ctest.log" 2>&1; rc=$?
  echo "ctest exit $rc after $(( $(date +%s) - start )) s"
  grep -E 'tests passed|Test +#|\(Failed\)|\(Timeout\)|fallback \]' "$OUT/ctest.log" | tail -30
  ./clscan-demo gpu $((1 << 26)) 2>&1 | tee "$OUT/demo.txt"
fi
# BENCH_ARGS may hold several runs separated by '|': bench-1.*, bench-2.*, ... in $OUT.
IFS='|' read -r -a bench_runs <<<"${BENCH_ARGS:-}"
k=0
for args in "${bench_runs[@]}"; do
  k=$((k + 1))
  echo "== clscan-bench $args"
  # shellcheck disable=SC2086
  ./clscan-bench $args --csv "$OUT/bench-$k.csv" --json "$OUT/bench-$k.json" >"$OUT/bench-$k.txt" 2>&1 || rc=1
  grep -E '^clscan|^trivial|copy roof|auto|single-pass/sub|WRONG|FAILED|tuning|wg |policy|    \{|took' "$OUT/bench-$k.txt" |
    cut -c1-100 | tail -${BENCH_LINES:-60}
done
IFS='|' read -r -a mpi_runs <<<"${MPI_RUNS:-}"
k=0
for run in "${mpi_runs[@]}"; do
  k=$((k + 1))
  echo "== mpirun -np ${run%%:*} clscan-bench --mpi ${run#*:}"
  # shellcheck disable=SC2086
  env -u CLSCAN_DEVICE mpirun --allow-run-as-root --oversubscribe -np "${run%%:*}" ./clscan-bench --mpi ${run#*:} \
    >"$OUT/mpi-$k.txt" 2>&1 || rc=1
  tail -${BENCH_LINES:-12} "$OUT/mpi-$k.txt"
done
if [[ -n ${PEERS+set} ]]; then
  echo "== bench/peers/compare.sh $PEERS"
  # shellcheck disable=SC2086
  (cd "$src" && bench/peers/compare.sh --build "$build" --out "$OUT/peers" $PEERS) 2>&1 | tail -24 || rc=1
fi
exit $rc
