#!/bin/bash
# Call 4: the onesweep kernel of the 'all' variant capped by a PTX .maxnreg directive in its cached binary.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
OUT=$O KT=1 OPS=sort TYPES=uint32 LOGS=26 ROUNDS=1 KERNEL=clscan_sort_onesweep \
  timeout 200 bash bench/probes/kernel-variants.sh .exp/all.patch > $O/kv.txt 2>&1
for r in 80 64; do
  rm -rf /tmp/kv/cache-all-r$r; cp -r /tmp/kv/cache-all /tmp/kv/cache-all-r$r
  python3 .exp/ptx-maxnreg.py clscan_sort_onesweep $r /tmp/kv/cache-all-r$r/*.bin >> $O/cap.txt 2>&1
done
cc -O2 -shared -fPIC bench/probes/kernel-times.c -o /tmp/kt.so -ldl
for round in 1 2; do
  for c in all all-r80 all-r64; do
    LD_PRELOAD=/tmp/kt.so CLSCAN_DEVICE=gpu CLSCAN_KERNEL_DIR=/tmp/kv/all CLSCAN_CACHE_DIR=/tmp/kv/cache-$c \
      timeout 100 /tmp/kv/build/clscan-bench --auto-only --ops sort --types uint32 --min-log 26 --max-log 26 \
      > $O/cap-$c-26-$round.txt 2>&1
  done
done
KERNEL=clscan_sort_onesweep timeout 60 bash bench/probes/regs.sh /tmp/kv/cache-all /tmp/kv/cache-all-r80 /tmp/kv/cache-all-r64 > $O/regs.txt 2>&1
tar -czf $OUT/o.tgz -C /tmp o
cat $O/cap.txt | sed 's#.*/##' ; cat $O/regs.txt
for f in $O/cap-*.txt; do echo "== $f"; grep -E 'sort \(|sort_by_key|sort_ex|onesweep|WRONG|rror' $f | cut -c1-120; done
