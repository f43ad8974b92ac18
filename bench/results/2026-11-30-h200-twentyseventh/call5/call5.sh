#!/bin/bash
# Call 5: uint64 sorts against the tree before (both orders skipped: these sizes are not latency-bound),
# then clscan-bench of the uint32 sorts at 2^24 .. 2^28 for the record.
mkdir -p /tmp/o
t0=$(date +%s)
SKIP_TESTS=1 OUT=/tmp/o/build timeout 150 bash scripts/gpu-run.sh > /tmp/o/build.txt 2>&1
echo "build rc=$? after $(( $(date +%s) - t0 )) s"
BUILD=/tmp/build OPS=sort TYPES=uint64 LOGS="24 26" ROUNDS=2 OUT=/tmp/o/kv64 \
  timeout 150 bash bench/probes/kernel-variants.sh .exp/before.patch > /tmp/o/kv64.txt 2>&1
echo "kv64 rc=$? after $(( $(date +%s) - t0 )) s"
for f in /tmp/o/kv64/kv-*.txt; do echo "== ${f#/tmp/o/}"; grep -E "  sort" $f | cut -c13-90; done
CLSCAN_DEVICE=gpu CLSCAN_CACHE_DIR=/tmp/kv/cache-cl timeout 100 /tmp/build/clscan-bench --auto-only --ops sort \
  --types uint32 --min-log 24 --max-log 28 > /tmp/o/bench.txt 2>&1
echo "bench rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "  sort|roof" /tmp/o/bench.txt | cut -c1-100
tar -czf $OUT/o.tgz -C /tmp o
