#!/bin/bash
# On the GPU machine, from the repository root: NVIDIA's register count for the single-pass scan
# (int32 add, 256 x 32, NVIDIA defines) from each kernel tree named (default: .base/cl, an older
# tree carried, and cl).
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1* | head -1)
gcc -O2 -o /tmp/regs bench/probes/regs.c $lib || exit 1
for side in ${@:-.base/cl cl}; do   # kernel trees to compare
  for items in 32; do
    { printf '#define CLSCAN_TYPE_INT32\n#define CLSCAN_OP_ADD\n#define CLSCAN_WG_ALGO_SUBGROUP\n#define CLSCAN_WG_SIZE 256\n#define CLSCAN_ITEMS %s\n#define CLSCAN_SG_NVIDIA_PTX\n#define CLSCAN_SP_ATOMIC64\n#define CLSCAN_SP_VOLATILE_READS\n#define CLSCAN_VEC4\n' $items
      for f in core/sizes.clh core/types.clh core/subgroup.clh core/workgroup.clh engine/lookback.clh engine/scan.cl; do cat $side/$f; echo; done; } > /tmp/src.cl
    echo "== $side items $items"; /tmp/regs /tmp/src.cl clscan_scan_single_pass | grep -E "registers|spill|stack" | head -4
  done
done
