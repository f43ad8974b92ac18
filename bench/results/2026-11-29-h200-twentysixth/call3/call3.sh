#!/bin/bash
# Call 3 (twenty-sixth session): the sort tests and figures at the final table (keys alone one sweep
# from 2^24 in tiles of 32 under 64 registers, pairs in tiles of 24 from 2^22); then the runs program
# and the compaction's selections held to 48 registers against the table, at 2^28 int32.
mkdir -p /tmp/o/c48
t0=$(date +%s)
CTEST_JOBS=5 CTEST_ARGS="-R test_sort|test_large|example_segmented_sort|test_race_quick|test_user_types_full" \
  BENCH_ARGS="--auto-only --ops sort --types uint32 --min-log 24 --max-log 28" \
  OUT=/tmp/o timeout 330 bash scripts/gpu-run.sh > /tmp/o/run.txt 2>&1
echo "rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/o/run.txt
tail -30 /tmp/o/run.txt | cut -c1-120
grep -E ' sort|sort_' /tmp/o/bench-1.txt | grep -v qsort | cut -c1-110
left=$(( 520 - ($(date +%s) - t0) ))
echo "== caps at 48, $left s left"
BUILD=/tmp/build OPS=family,compact TYPES=int32 LOGS="28" ROUNDS=2 OUT=/tmp/o/c48 \
  timeout $left bash bench/probes/kernel-variants.sh tuning:max_regs=48 > /tmp/o/c48/table.txt 2>&1
echo "rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/o/c48/table.txt
cut -c1-130 /tmp/o/c48/table.txt | grep -v "copy roof" | tail -40
tar -czf $OUT/o.tgz -C /tmp o
