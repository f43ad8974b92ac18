#!/bin/bash
# Call 2 (twenty-fifth session): the GPU subset at head (sort's scratch in the room, the place step's
# digits computed again, the table's uint64 tiles and pairs' cap), then the sorts' figures.
mkdir -p /tmp/o
CTEST_JOBS=8 CTEST_ARGS="-E oclgrind|cl_targets|test_fault_(context|scan|compact|reduce_sat|build|user|calls)" \
  BENCH_ARGS="--auto-only --ops sort --types uint32,uint64 --min-log 26 --max-log 28" \
  OUT=/tmp/o timeout 570 bash scripts/gpu-run.sh > /tmp/o/run.txt 2>&1
echo "rc=$?" >> /tmp/o/run.txt
tail -45 /tmp/o/run.txt
grep -E ' sort|sort_' /tmp/o/bench-1.txt | grep -v qsort | cut -c1-110
tar -czf $OUT/o.tgz -C /tmp o
