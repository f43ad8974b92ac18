#!/usr/bin/env bash
# The suite on Mesa's rusticl over llvmpipe (docs/reliability.md, "Mesa rusticl"): a minimal Debian 13
# chroot with mesa-opencl-icd, rusticl the only ICD ocl-icd sees, the build and ctest there with the
# arguments given (default: the quick tier, two at a time). SHAPE=cpu (default) offers llvmpipe as a CPU
# without fp64; SHAPE=gpu as a GPU with fp64, the policy AMD and Intel GPUs get. scripts/debian-chroot.sh
# says how. Needs root and Debian's mirror; the chroot stays for the next run (/tmp/clscan-trixie-rusticl).
STACK=rusticl exec "$(dirname "$0")/debian-chroot.sh" "$@"
