#!/bin/bash
# Call 4: small sizes, both orders (kernel-variants runs the tree's cl first): the candidate as cl
# against .exp/before.patch, then the tree put back to before with the candidate as .exp/after.patch.
mkdir -p /tmp/o
t0=$(date +%s)
SKIP_TESTS=1 OUT=/tmp/o/build timeout 150 bash scripts/gpu-run.sh > /tmp/o/build.txt 2>&1
echo "build rc=$? after $(( $(date +%s) - t0 )) s"
BUILD=/tmp/build OPS=sort TYPES=uint32 LOGS="16 18 20" ROUNDS=2 OUT=/tmp/o/kvA \
  timeout 120 bash bench/probes/kernel-variants.sh .exp/before.patch > /tmp/o/kvA.txt 2>&1
echo "kvA rc=$? after $(( $(date +%s) - t0 )) s"
(cd cl && patch -p2 -s < ../.exp/before.patch)
BUILD=/tmp/build OPS=sort TYPES=uint32 LOGS="16 18 20" ROUNDS=2 OUT=/tmp/o/kvB \
  timeout 120 bash bench/probes/kernel-variants.sh .exp/after.patch > /tmp/o/kvB.txt 2>&1
echo "kvB rc=$? after $(( $(date +%s) - t0 )) s"
for f in /tmp/o/kv[AB]/kv-*.txt; do echo "== ${f#/tmp/o/}"; grep -E "  sort" $f | cut -c13-90; done
tar -czf $OUT/o.tgz -C /tmp o
