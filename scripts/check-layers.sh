#!/usr/bin/env bash
# The layering rule of docs/design.md, checked: a file of src/ includes headers of its own layer or
# lower ones, never a higher one; a primitive includes no other primitive's file (only the prims
# layer's shared prims.h and collective.h); the MPI layer reaches the primitives only through
# prims/collective.h. Layers, lowest first: core, tuning, engine, prims, dist. src/registry.def is
# data that any layer may read, and so is cl/core/sizes.clh, the local-memory formulas that the host
# shares with the kernels. The tools (tools/) include the public headers (include/clscan/, the unstable
# clscan_tuning.h among them) and their own files only. Prints every offending include and exits 1 if
# there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
rank() { case "$1" in core) echo 0 ;; tuning) echo 1 ;; engine) echo 2 ;; prims) echo 3 ;; dist) echo 4 ;; *) echo -1 ;; esac; }
bad=0
complain() { echo "$1: includes \"$2\": $3"; bad=1; }
for file in src/*/*.[ch]; do
  layer=$(basename "$(dirname "$file")")
  [[ $(rank "$layer") -ge 0 ]] || { echo "$file: in no layer (src/core, tuning, engine, prims, dist)"; bad=1; continue; }
  while IFS= read -r inc; do
    case "$inc" in
      clscan/*|registry.def|../../cl/core/sizes.clh) continue ;;   # public headers; data shared by all
      */*) target=${inc%%/*}; name=${inc#*/} ;;
      *) target=$layer; name=$inc ;;
    esac
    [[ -e src/$target/$name ]] || { complain "$file" "$inc" "no such file in src/"; continue; }
    if (( $(rank "$target") > $(rank "$layer") )); then
      complain "$file" "$inc" "a higher layer ($target above $layer)"
    elif [[ $target == prims && $layer != dist && $name != prims.h && $name != collective.h ]]; then
      complain "$file" "$inc" "a primitive's own file (share through prims.h)"
    elif [[ $layer == dist && $inc != prims/collective.h && $target != dist ]]; then
      complain "$file" "$inc" "the MPI layer reaches the primitives through prims/collective.h only"
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done
for file in tools/*.[ch]; do
  while IFS= read -r inc; do
    [[ ( $inc == clscan/* && -e include/$inc ) || -e tools/$inc ]] ||
      complain "$file" "$inc" "a tool reaches the library through include/clscan/ only"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done
if ((bad)); then
  echo "check-layers: includes that break the layering (docs/design.md, \"Layers\")"
  exit 1
fi
echo "check-layers: every include of src/ points to its own layer or a lower one; tools/ include public headers"
