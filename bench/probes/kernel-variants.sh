#!/bin/bash
# On the GPU machine, from the repository root: time kernel-only variants of the library under one
# build. Each argument is a patch of cl/ (diff -ru a/cl b/cl); cl itself is the base. The trees take
# turns ROUNDS times (clscan-bench --auto-only, every output verified, CLSCAN_KERNEL_DIR picking the
# tree, a binary cache each); then NVIDIA's register counts of each (regs.sh). OPS, TYPES, LOGS as
# in scripts/gpu-compare.sh; output under $OUT/kv-*.
set -u -o pipefail
OUT=${OUT:-/tmp/clscan-gpu-out}
OPS=${OPS:-scan}; TYPES=${TYPES:-int32,float}; LOGS=${LOGS:-24 28}; ROUNDS=${ROUNDS:-2}
mkdir -p "$OUT" /etc/OpenCL/vendors /tmp/kv
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1* /usr/local/cuda/lib64/libOpenCL.so* 2>/dev/null | head -1)
cmake -S . -B /tmp/kv/build -DCLSCAN_TESTS=OFF -DOpenCL_LIBRARY="$lib" >"$OUT/kv-configure.log" 2>&1 &&
  cmake --build /tmp/kv/build -j16 --target clscan-bench >"$OUT/kv-build.log" 2>&1 || { tail -20 "$OUT/kv-build.log"; exit 1; }
trees=("$(pwd)/cl")
for p in "$@"; do
  name=$(basename "$p" .patch)
  rm -rf "/tmp/kv/$name" && cp -r cl "/tmp/kv/$name" && (cd "/tmp/kv/$name" && patch -p2 -s <"$OLDPWD/$p") || exit 1
  trees+=("/tmp/kv/$name")
done
export CLSCAN_DEVICE=${CLSCAN_DEVICE:-gpu}
for r in $(seq "$ROUNDS"); do
  for k in $LOGS; do
    for t in "${trees[@]}"; do
      name=$(basename "$t")
      CLSCAN_KERNEL_DIR=$t CLSCAN_CACHE_DIR=/tmp/kv/cache-$name /tmp/kv/build/clscan-bench --auto-only --ops "$OPS" \
        --types "$TYPES" --min-log "$k" --max-log "$k" >"$OUT/kv-$name-$k-$r.txt" 2>&1 || echo "$name 2^$k round $r failed"
    done
  done
done
sides=$(for t in "${trees[@]}"; do basename "$t"; done | paste -sd,)
python3 "$(dirname "$0")/../../scripts/bench-table.py" --sides "$sides" "$OUT"/kv-*-*-*.txt
grep -l WRONG "$OUT"/kv-*.txt && echo "WRONG results above"
bash bench/probes/regs.sh $(for t in "${trees[@]}"; do echo /tmp/kv/cache-$(basename "$t"); done)
