#!/bin/bash
# Call 1 (twenty-sixth session): the GPU subset with bench/next/sort-larger-tiles.patch applied (the
# long tests first, from the last run's times), then one round of the sorts against HEAD without it.
mkdir -p /tmp/o
t0=$(date +%s)
CTEST_JOBS=8 CTEST_ARGS="-E oclgrind|cl_targets|test_fault_(context|scan|compact|reduce_sat|build|user|calls)" \
  COSTS=bench/results/2026-11-29-h200-twentyfifth/call2/ctest.log \
  OUT=/tmp/o timeout 430 bash scripts/gpu-run.sh > /tmp/o/run.txt 2>&1
echo "rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/o/run.txt
tail -40 /tmp/o/run.txt
left=$(( 560 - ($(date +%s) - t0) ))
echo "== compare, $left s left"
mkdir -p /tmp/o/cmp
ROUNDS=1 OPS=sort TYPES=uint32 LOGS="28 26 25 22 16" SIDES="base=.exp/base tiles=." OUT=/tmp/o/cmp \
  timeout $left bash scripts/gpu-compare.sh > /tmp/o/cmp/table.txt 2>&1
echo "rc=$?" >> /tmp/o/cmp/table.txt
cat /tmp/o/cmp/table.txt | cut -c1-130 | tail -40
tar -czf $OUT/o.tgz -C /tmp o
