#!/bin/bash
# Call 5: the plain compaction alone held to 64 registers: its tests, then by turns against caps off.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
CTEST_JOBS=8 CTEST_ARGS="-R test_compact_quick|test_compact_full|test_runs_quick|test_race_quick|example_mpi_compact" \
  OUT=$O timeout 190 bash scripts/gpu-run.sh > $O/run.txt 2>&1
echo "gpu-run rc=$?" >> $O/run.txt
export CLSCAN_DEVICE=gpu
end=$((SECONDS + 105))
for r in 1 2; do for k in 28 26 24; do for side in cap off; do
  [ $SECONDS -lt $end ] || break 3
  t=; [ $side = off ] && t=max_regs=-1
  CLSCAN_TUNING=$t CLSCAN_CACHE_DIR=/tmp/c-$side timeout 30 /tmp/build/clscan-bench --auto-only --ops compact \
    --types int32 --min-log $k --max-log $k > $O/b-$side-$k-$r.txt 2>&1
done; done; done
KERNEL=clscan_compact_single_pass timeout 20 bash bench/probes/regs.sh /tmp/c-cap /tmp/c-off > $O/regs.txt 2>&1
tar -czf $OUT/o.tgz -C /tmp o
grep -E "Test +#|tests passed|rc=" $O/run.txt | tail -8
for f in $O/b-*.txt; do echo "$(basename $f) $(grep -E 'compact \(|copy roof' $f | awk '{printf "%s %s | ", $3, $6}')"; done
grep -E "==|Used|spill" $O/regs.txt
