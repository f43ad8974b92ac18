#!/bin/bash
# Call 3 (twenty-seventh session): the tree is fb4021c with bench/next/sort-pairs-values-after-place.patch
# applied. Build; the sorts against the tree before it (.exp/before.patch, the reverse diff) at 2^16 ..
# 2^28, two rounds; then the GPU sort tests in the time left.
mkdir -p /tmp/o
t0=$(date +%s)
SKIP_TESTS=1 OUT=/tmp/o/build timeout 150 bash scripts/gpu-run.sh > /tmp/o/build.txt 2>&1
echo "build rc=$? after $(( $(date +%s) - t0 )) s"
BUILD=/tmp/build OPS=sort TYPES=uint32 LOGS="16 20 22 24 28" ROUNDS=2 OUT=/tmp/o/kv \
  timeout 300 bash bench/probes/kernel-variants.sh .exp/before.patch > /tmp/o/kv.txt 2>&1
echo "kv rc=$? after $(( $(date +%s) - t0 )) s"
for f in /tmp/o/kv/kv-*.txt; do echo "== ${f##*/}"; grep -E "  sort" $f | cut -c1-100; done
left=$(( 575 - ($(date +%s) - t0) ))
echo "== tests, $left s left"
CTEST_JOBS=8 CTEST_ARGS="-R test_sort_|test_large|test_user_types_full|example_segmented_sort|test_race_quick" \
  COSTS=bench/results/2026-11-29-h200-twentysixth/call1/ctest.log \
  OUT=/tmp/o timeout $left bash scripts/gpu-run.sh > /tmp/o/run.txt 2>&1
echo "tests rc=$? after $(( $(date +%s) - t0 )) s" | tee -a /tmp/o/run.txt
grep -E "Test +#|tests passed|Failed" /tmp/o/run.txt | tail -12
tar -czf $OUT/o.tgz -C /tmp o
