#!/bin/bash
# Call 1 (twenty-fifth session): the sort's scratch in the tile's room (uint64 keys at 16 a
# work-item), the place step computing digits again (pairs), both by turns.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O/room $O/cap $O/cmp
ROOT=$(pwd)
rm -rf /tmp/room && mkdir /tmp/room && tar --exclude=./.git -cf - . | tar -xf - -C /tmp/room
(cd /tmp/room && patch -p1 -s < bench/next/sort-scratch-in-room.patch) || { echo patch failed; exit 1; }
cd /tmp/room
OUT=$O/room OPS=sort TYPES=uint64,uint32 LOGS="16 22 26 28" ROUNDS=2 KERNEL=clscan_sort_onesweep \
  timeout 260 bash bench/probes/kernel-variants.sh tuning:sort_onesweep=1,wg_size=256,items=16 \
  bench/next/sort-rank-recompute.patch > $O/room/kv.txt 2>&1
BUILD=/tmp/kv/build OUT=$O/cap CLSCAN_TUNING=max_regs=80 OPS=sort TYPES=uint32 LOGS="26 28" ROUNDS=2 \
  KERNEL=clscan_sort_onesweep timeout 100 bash bench/probes/kernel-variants.sh \
  bench/next/sort-rank-recompute.patch > $O/cap/kv.txt 2>&1
cd "$ROOT"
OUT=$O/cmp SIDES="head=$ROOT room=/tmp/room" OPS=sort TYPES=uint32,uint64,float LOGS="22 28" ROUNDS=2 \
  timeout 150 bash scripts/gpu-compare.sh > $O/cmp/cmp.txt 2>&1
tar -czf $OUT/o.tgz -C /tmp o
for d in room cap; do echo "== $d"; grep -A40 '  n type' $O/$d/kv.txt | grep -E 'sort|  n type' | cut -c1-220; grep -E '==|Used|spill|fail|WRONG' $O/$d/kv.txt | tail -12; done
echo "== cmp"; tail -30 $O/cmp/cmp.txt | cut -c1-200
