#!/bin/bash
# GPU subset at head
mkdir -p /tmp/o
CTEST_JOBS=8 CTEST_ARGS="-E oclgrind|cl_targets|test_fault_(context|scan|compact|reduce_sat|build|user|calls)" \
  OUT=/tmp/o timeout 555 bash scripts/gpu-run.sh > /tmp/o/run.txt 2>&1
echo "rc=$?" >> /tmp/o/run.txt
tail -60 /tmp/o/run.txt
tar -czf $OUT/o.tgz -C /tmp o
