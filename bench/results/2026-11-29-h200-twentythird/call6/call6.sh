#!/bin/bash
# Call 6: the GPU tests of what this session changed (sort ranking, register caps), then the family at
# 2^28 with the tables' caps against none (max_regs=-1).
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
CTEST_JOBS=8 CTEST_ARGS="-R ^(test_sort_quick|test_sort_full|example_segmented_sort|test_race_quick|test_segscan_quick|test_segscan_full|test_host|example_csr_spmv)$" \
  OUT=$O timeout 300 bash scripts/gpu-run.sh > $O/run.txt 2>&1
OUT=$O BUILD=/tmp/build OPS=family TYPES=int32 LOGS=28 ROUNDS=1 KERNEL=clscan_seg_scan_single_pass \
  timeout 170 bash bench/probes/kernel-variants.sh tuning:max_regs=-1 > $O/kv.txt 2>&1
tar -czf $OUT/o.tgz -C /tmp o
grep -E 'ctest exit|tests passed|Test +#|Failed' $O/run.txt | head -20; grep -A30 '  n type' $O/kv.txt | cut -c1-160
