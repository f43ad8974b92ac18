#!/bin/bash
# Call 1 (twenty-seventh session): the GPU subset at fb4021c (e6c91bf's sort local memory has not run
# on NVIDIA), the longest tests first from the last subset's times.
mkdir -p /tmp/o
t0=$(date +%s)
CTEST_JOBS=8 CTEST_ARGS="-E oclgrind|cl_targets|test_fault_(context|scan|compact|reduce_sat|build|user|calls)" \
  COSTS=bench/results/2026-11-29-h200-twentysixth/call1/ctest.log \
  OUT=/tmp/o timeout 500 bash scripts/gpu-run.sh > /tmp/o/run.txt 2>&1
echo "rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/o/run.txt
tail -45 /tmp/o/run.txt
tar -czf $OUT/o.tgz -C /tmp o
