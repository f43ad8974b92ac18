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
python3 - "$OUT" <<'PY'
import glob, re, statistics, sys
rows = {}
for path in glob.glob(sys.argv[1] + "/kv-*-*-*.txt"):
    m = re.search(r"kv-(.+)-\d+-\d+\.txt$", path)
    if not m:
        continue
    tree = m.group(1)
    for line in open(path):
        f = re.match(r"(\d+)\s+(\w+)\s+(.+?)\s+(\d+\.\d+)\s+\d+\.\d+\s+\d+\.\d+\s+\S+$", line)
        if f and "C " not in f.group(3):
            rows.setdefault((int(f.group(1)), f.group(2), f.group(3).strip()), {}).setdefault(tree, []).append(float(f.group(4)))
trees = sorted({t for r in rows.values() for t in r}, key=lambda t: (t != "cl", t))
print(f"{'n':>10} {'type':6} {'what':32} " + " ".join(f"{t[:22]:>22}" for t in trees))
for key in sorted(rows):
    print(f"{key[0]:>10} {key[1]:6} {key[2][:32]:32} " +
          " ".join(f"{statistics.median(rows[key][t]):22.4f}" if t in rows[key] else f"{'-':>22}" for t in trees))
PY
grep -l WRONG "$OUT"/kv-*.txt && echo "WRONG results above"
bash bench/probes/regs.sh "${trees[@]}"
