#!/bin/bash
# Call 1: sort pass diagnostics (kernel-only variants under one build) and the reduce 2^16 lead.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1* /usr/local/cuda/lib64/libOpenCL.so* 2>/dev/null | head -1)
# the 3d6d426 tree built meanwhile, for the reduce probe
( cmake -S .filed -B /tmp/filed -DCLSCAN_TESTS=OFF -DOpenCL_LIBRARY="$lib" >$O/filed-cfg.log 2>&1 &&
  cmake --build /tmp/filed -j8 --target clscan-bench >$O/filed-build.log 2>&1 ) &
OUT=$O KT=1 OPS=sort TYPES=uint32 LOGS=26 ROUNDS=2 KERNEL=clscan_sort_onesweep \
  timeout 330 bash bench/probes/kernel-variants.sh .exp/d1.patch .exp/d2.patch .exp/asm.patch .exp/bms.patch > $O/kv.txt 2>&1
wait
KERNEL=clscan_sort_onesweep LIVE=$O/sass timeout 60 bash bench/probes/regs.sh /tmp/kv/cache-cl /tmp/kv/cache-asm > $O/live.txt 2>&1
cc -O2 -shared -fPIC bench/probes/kernel-times.c -o /tmp/kt.so -ldl
for s in filed kv/build; do
  for r in 1 2 3; do
    echo "== $s round $r"
    rm -rf /tmp/kc; LD_PRELOAD=/tmp/kt.so CLSCAN_CACHE_DIR=/tmp/kc CLSCAN_DEVICE=gpu timeout 60 /tmp/$s/clscan-bench --auto-only \
      --types uint32 --min-log 16 --max-log 16 2>&1 | grep -E 'kernel-times|reduce|copy roof|launch'
  done
done > $O/reduce16.txt 2>&1
tar -czf $O/sass.tgz -C $O sass 2>/dev/null; rm -rf $O/sass
tar -czf $OUT/o.tgz -C /tmp o
tail -40 $O/kv.txt
