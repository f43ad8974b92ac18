#!/usr/bin/env bash
# Speed of this checkout against an older one, side by side on the GPU test machine: both built in
# /tmp, then clscan-bench --auto-only (every output verified) at each size of LOGS for TYPES, the
# builds taking turns ROUNDS times, so that all see the same card in the same state. Prints each
# primitive's time under each and the ratio to the first (median over rounds). BASE: the older source
# tree (say, `git archive REV | tar -x -C .base`, carried). SIDES="name=dir name=dir ..." compares
# more than two trees instead (the first is the reference; default "base=$BASE new=."). OPS:
# clscan-bench's --ops list (default: every group). Needs scripts/gpu-run.sh's setup (ICD, cmocka not).
set -u -o pipefail
OUT=${OUT:-/tmp/clscan-gpu-out}
BASE=${BASE:-.base}
LOGS=${LOGS:-26 28}
TYPES=${TYPES:-uint32,float,int64}
ROUNDS=${ROUNDS:-2}
ops=()
[[ -n ${OPS:-} ]] && ops=(--ops "$OPS")
mkdir -p "$OUT" /etc/OpenCL/vendors
rm -f "$OUT"/cmp-*.txt
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
extra=()
if ! ls /usr/lib/x86_64-linux-gnu/libOpenCL.so >/dev/null 2>&1; then
  lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1* /usr/local/cuda/lib64/libOpenCL.so* 2>/dev/null | head -1)
  extra+=("-DOpenCL_LIBRARY=$lib")
fi
read -r -a sides <<<"${SIDES:-base=$BASE new=.}"
names=()
for pair in "${sides[@]}"; do
  side=${pair%%=*} src=$(cd "${pair#*=}" && pwd)
  names+=("$side")
  rm -rf "/tmp/cmp-$side" "/tmp/cmp-cache-$side"   # a warm machine keeps the last call's: its objects may
  # look newer than sources copied with their old times, so a stale build would be timed
  { cmake -S "$src" -B /tmp/cmp-$side -DCLSCAN_TESTS=OFF "${extra[@]}" >"$OUT/cmp-$side-configure.log" 2>&1 &&
      cmake --build /tmp/cmp-$side -j16 --target clscan-bench >"$OUT/cmp-$side-build.log" 2>&1; } &
done
wait   # the sides build at once; each must have built
for side in "${names[@]}"; do
  [[ -x /tmp/cmp-$side/clscan-bench ]] || { echo "the $side build failed"; tail -20 "$OUT/cmp-$side-build.log"; exit 1; }
done
export CLSCAN_DEVICE=gpu
rc=0
for r in $(seq "$ROUNDS"); do
  for k in $LOGS; do
    for side in "${names[@]}"; do
      CLSCAN_CACHE_DIR=/tmp/cmp-cache-$side /tmp/cmp-$side/clscan-bench --auto-only --types "$TYPES" "${ops[@]}" \
        --min-log "$k" --max-log "$k" >"$OUT/cmp-$side-$k-$r.txt" 2>&1 || { echo "$side 2^$k round $r failed"; rc=1; }
    done
  done
done
python3 "$(dirname "$0")/bench-table.py" --sides "$(IFS=,; echo "${names[*]}")" "$OUT"/cmp-*-*-*.txt
grep -l WRONG "$OUT"/cmp-*.txt && rc=1
exit $rc
