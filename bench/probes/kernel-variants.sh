#!/bin/bash
# On the GPU machine, from the repository root: time kernel-only variants of the library under one
# build. Each argument is a patch of cl/ (diff -ru a/cl b/cl), or tuning:KEYS (cl/ under
# CLSCAN_TUNING=KEYS, say tuning:sp_fold=1); cl itself is the base. The variants take turns ROUNDS
# times (clscan-bench --auto-only, every output verified, CLSCAN_KERNEL_DIR picking the tree, a binary
# cache each); then NVIDIA's register counts of each (regs.sh; KERNEL as there). OPS, TYPES, LOGS as
# in scripts/gpu-compare.sh; output under $OUT/kv-*. KT=1 also times every kernel of each run by its
# profiling event (kernel-times.c under LD_PRELOAD: its table ends each kv file; profiling queues may
# move the figures a little, so time without it for records).
set -u -o pipefail
OUT=${OUT:-/tmp/clscan-gpu-out}
OPS=${OPS:-scan}; TYPES=${TYPES:-int32,float}; LOGS=${LOGS:-24 28}; ROUNDS=${ROUNDS:-2}
mkdir -p "$OUT" /etc/OpenCL/vendors /tmp/kv
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1* /usr/local/cuda/lib64/libOpenCL.so* 2>/dev/null | head -1)
bench=${BUILD:-/tmp/kv/build}/clscan-bench   # BUILD: a build that already has it (scripts/gpu-run.sh's)
if [[ -z ${BUILD:-} ]]; then
  cmake -S . -B /tmp/kv/build -DCLSCAN_TESTS=OFF -DOpenCL_LIBRARY="$lib" >"$OUT/kv-configure.log" 2>&1 &&
    cmake --build /tmp/kv/build -j16 --target clscan-bench >"$OUT/kv-build.log" 2>&1 ||
    { tail -20 "$OUT/kv-build.log"; exit 1; }
fi
trees=("$(pwd)/cl") names=(cl) tunings=("${CLSCAN_TUNING:-}")
for p in "$@"; do
  if [[ $p == tuning:* ]]; then
    trees+=("$(pwd)/cl") names+=("tuning-$(tr -c "A-Za-z0-9_.\n-" _ <<<"${p#tuning:}")") tunings+=("${p#tuning:}")
    continue
  fi
  name=$(basename "$p" .patch)
  rm -rf "/tmp/kv/$name" && cp -r cl "/tmp/kv/$name" && (cd "/tmp/kv/$name" && patch -p2 -s <"$OLDPWD/$p") || exit 1
  trees+=("/tmp/kv/$name") names+=("$name") tunings+=("${CLSCAN_TUNING:-}")
done
export CLSCAN_DEVICE=${CLSCAN_DEVICE:-gpu}
preload=
if [[ -n ${KT:-} ]]; then
  cc -O2 -shared -fPIC bench/probes/kernel-times.c -o /tmp/kv/kernel-times.so -ldl || exit 1
  preload=/tmp/kv/kernel-times.so
fi
for r in $(seq "$ROUNDS"); do
  for k in $LOGS; do
    for i in "${!trees[@]}"; do
      name=${names[$i]}
      LD_PRELOAD=$preload CLSCAN_TUNING=${tunings[$i]} CLSCAN_KERNEL_DIR=${trees[$i]} CLSCAN_CACHE_DIR=/tmp/kv/cache-$name \
        "$bench" --auto-only --ops "$OPS" --types "$TYPES" --min-log "$k" --max-log "$k" \
        >"$OUT/kv-$name-$k-$r.txt" 2>&1 || echo "$name 2^$k round $r failed"
    done
  done
done
sides=$(IFS=,; echo "${names[*]}")
python3 "$(dirname "$0")/../../scripts/bench-table.py" --sides "$sides" "$OUT"/kv-*-*-*.txt
grep -l WRONG "$OUT"/kv-*.txt && echo "WRONG results above"
bash bench/probes/regs.sh "${names[@]/#//tmp/kv/cache-}"
