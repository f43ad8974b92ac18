#!/bin/bash
# Call 3 (twenty-fifth session): pairs and keys in larger tiles now that the scratch shares the tile's
# room (24 pairs a work-item fit), pairs at 64 registers; uint64 tiles of 16 against 8 at 2^18, 2^20;
# test_sort under the 24-item tuning.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O/tile $O/u64 $O/t
OUT=$O/tile OPS=sort TYPES=uint32 LOGS="26 28" ROUNDS=1 KERNEL=clscan_sort_onesweep \
  timeout 200 bash bench/probes/kernel-variants.sh tuning:wg_size=256,items=24 \
  tuning:wg_size=256,items=32,max_regs=80 tuning:max_regs=64 > $O/tile/kv.txt 2>&1
BUILD=/tmp/kv/build OUT=$O/u64 OPS=sort TYPES=uint64 LOGS="18 20" ROUNDS=2 CLSCAN_TUNING=sort_onesweep=1 \
  timeout 45 bash bench/probes/kernel-variants.sh tuning:sort_onesweep=1,wg_size=256,items=16 \
  tuning:sort_onesweep=1,wg_size=256,items=8 > $O/u64/kv.txt 2>&1
rm -rf /tmp/cm && mkdir -p /tmp/cm && for f in .deps/*.deb; do dpkg -x "$f" /tmp/cm; done
export LD_LIBRARY_PATH=/tmp/cm/usr/lib/x86_64-linux-gnu
lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1* /usr/local/cuda/lib64/libOpenCL.so* 2>/dev/null | head -1)
(cmake -S . -B /tmp/tb -DCMAKE_PREFIX_PATH=/tmp/cm/usr -DOpenCL_LIBRARY="$lib" > $O/t/cfg.log 2>&1 &&
  cmake --build /tmp/tb -j16 --target test_sort > $O/t/build.log 2>&1) || tail -5 $O/t/build.log
(cd /tmp/tb && CLSCAN_DEVICE=gpu CLSCAN_TUNING=wg_size=256,items=24 timeout 170 ctest -R "test_sort_(quick|full)" -j2 \
  --output-on-failure > $O/t/ctest.log 2>&1); tail -5 $O/t/ctest.log
tar -czf $OUT/o.tgz -C /tmp o
for f in $O/tile/kv-*.txt $O/u64/kv-*.txt; do echo "$(basename $f): $(grep -E ' sort |sort_by_key' $f | grep -v qsort | awk '{printf "%s %s %s | ", $2, substr($3,1,7), $(NF-3)}')"; done
grep -E '==|Used|spill' $O/tile/kv.txt | tail -12
