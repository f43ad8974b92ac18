#!/bin/bash
# Call 4: the table's uint64 one sweep at head: sort tests (fault walk included), then the sort rows.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
CTEST_JOBS=8 CTEST_ARGS="-R test_sort_quick|test_sort_full|test_race_quick|test_large|example_segmented_sort|test_fault_sort|test_user_types_full" \
  OUT=$O timeout 470 bash scripts/gpu-run.sh > $O/run.txt 2>&1
echo "gpu-run rc=$?" >> $O/run.txt
CLSCAN_DEVICE=gpu timeout 80 /tmp/build/clscan-bench --auto-only --ops sort --types uint64 --min-log 16 --max-log 28 > $O/bench.txt 2>&1
tar -czf $OUT/o.tgz -C /tmp o
grep -E "Test +#|tests passed|rc=" $O/run.txt | tail -12; grep -E "sort|roof" $O/bench.txt | cut -c1-110
