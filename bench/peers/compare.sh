#!/usr/bin/env bash
# clscan next to its peers on this machine's device, in one run: clscan-bench's rows of the operations
# the peers also have, clscan-peer-boost (Boost.Compute, any OpenCL device) and clscan-peer-cub (CUB,
# NVIDIA GPUs), all on the same data; then one CSV per operation and, where gnuplot is installed, one
# plot per operation and a summary of them all. bench/peers/README.md says what is timed and how.
set -euo pipefail
usage() {
  cat <<'EOF'
Usage: bench/peers/compare.sh [--out DIR] [--build DIR] [--min-log K] [--max-log K] [--runs N]
                              [--device SPEC] [--replot]
Times clscan (clscan-bench --auto-only, int32 and uint32 rows) and every peer program built in the
build tree on the same device, n = 2^min-log .. 2^max-log (default 10..28, 10..22 on a CPU device),
median of N runs (default 20). Writes into DIR (default peers-out): clscan-bench.csv/.txt, boost.csv,
cub.csv, one OP.csv per operation (library,n,ms,G elements/s,copy roof in G elements/s,verified),
and with gnuplot OP.png and summary.png; without gnuplot a note says how to draw them later
(--replot DIR redraws from the CSVs). --build DIR uses a configured tree (it must have
-DCLSCAN_PEERS=ON for the peers); by default the tree build-peers is configured and built here.
--device takes CLSCAN_DEVICE's forms for clscan; the peers take the device clscan used (by name).
Exit status 1 when any row did not verify or a program failed.
EOF
}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=peers-out build="" min=10 max="" runs=20 device="${CLSCAN_DEVICE:-}" replot=0
while (($#)); do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --min-log) min=$2; shift 2 ;;
    --max-log) max=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --replot) replot=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The operations, as clscan-bench names their rows (type|algorithm) and as the peers name them.
ops="scan reduce compact partition sort sort_by_key sort_descending sort_bits_0_16 scan_by_key reduce_by_key
run_length_encode unique segmented_reduce histogram_uint8_256"
declare -A title=(
  [scan]="inclusive scan, int32 add" [reduce]="reduce, int32 add (result to the host)"
  [compact]="compaction by flags, half kept, int32" [partition]="partition by flags, half, int32"
  [sort]="sort, uint32 keys" [sort_by_key]="sort by key, uint32 keys and values"
  [sort_descending]="sort descending, uint32 keys" [sort_bits_0_16]="sort by bits [0, 16), uint32 keys"
  [scan_by_key]="inclusive scan by key, uint32 keys (runs of 8), int32 add"
  [reduce_by_key]="reduce by key, uint32 keys (runs of 8), int32 add"
  [run_length_encode]="run-length encoding, uint32 (runs of 8)" [unique]="unique, uint32 (runs of 8)"
  [segmented_reduce]="segmented reduce, n/256 segments, int32 add"
  [histogram_uint8_256]="histogram, uint8 over 256 bins")
declare -A color=([clscan]="#1b9e77" [CUB]="#d95f02" [Boost.Compute]="#7570b3")

run_all() {
  if [[ -z $build ]]; then
    build=$root/build-peers
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLSCAN_PEERS=ON -DCLSCAN_TESTS=OFF >"$out/configure.log" 2>&1 ||
      { tail -20 "$out/configure.log"; exit 1; }
    cmake --build "$build" -j"$(nproc)" >"$out/build.log" 2>&1 || { grep -E 'error' "$out/build.log" | head -20; exit 1; }
  fi
  local bench=$build/clscan-bench rc=0 args=()
  [[ -x $bench ]] || { echo "compare.sh: no clscan-bench in $build" >&2; exit 1; }
  [[ -n $max ]] && args+=(--max-log "$max")
  [[ -n $device ]] && args+=(--device "$device")
  if [[ -z $max ]] && CLSCAN_DEVICE=$device "$build/clscan-info" 2>/dev/null |
       awk '/\(default\)/ { f = 1 } f && /type:/ { print $2; exit }' | grep -q CPU; then
    args+=(--max-log 22)
  fi
  echo "== clscan-bench (clscan)"
  "$bench" --types int32,uint32 --auto-only --min-log "$min" --runs "$runs" "${args[@]}" \
    --csv "$out/clscan-bench.csv" >"$out/clscan-bench.txt" 2>"$out/clscan-bench.err" || rc=1
  head -2 "$out/clscan-bench.txt"; echo "   ($SECONDS s so far)"
  local name peer_max
  name=$(awk -F'"' 'NR == 2 { print $2 }' "$out/clscan-bench.csv")
  peer_max=$(awk -F'"' 'NR > 1 { split($5, f, ","); if (f[2] > m) m = f[2] } END { l = 0; while (2 ^ (l + 1) <= m) l++; print l }' \
             "$out/clscan-bench.csv")
  rm -f "$out/boost.csv" "$out/cub.csv"
  if [[ -x $build/clscan-peer-boost ]]; then
    echo "== clscan-peer-boost (Boost.Compute) on $name"
    "$build/clscan-peer-boost" --device "$name" --min-log "$min" --max-log "$peer_max" --runs "$runs" \
      --csv "$out/boost.csv" >"$out/boost.txt" 2>"$out/boost.err" || rc=1
    head -1 "$out/boost.txt"; echo "   ($SECONDS s so far)"
  else
    echo "compare.sh: no clscan-peer-boost (install libboost-dev and build with -DCLSCAN_PEERS=ON)"
  fi
  if [[ -x $build/clscan-peer-cub && $name == *NVIDIA* ]]; then
    echo "== clscan-peer-cub (CUB) on CUDA device 0"
    "$build/clscan-peer-cub" --min-log "$min" --max-log "$peer_max" --runs "$runs" --csv "$out/cub.csv" \
      >"$out/cub.txt" 2>"$out/cub.err" || rc=1
    head -1 "$out/cub.txt"; echo "   ($SECONDS s so far)"
  elif [[ $name == *NVIDIA* ]]; then
    echo "compare.sh: no clscan-peer-cub (needs a CUDA compiler when the tree is configured)"
  fi
  return $rc
}

# One CSV per operation: clscan's rows (with the copy roof of the row's own bytes: ms x roof fraction)
# and the peers' (with clscan's roof at the same n).
split_ops() {
  awk -F'"' -v out="$out" -v ops="$ops" '
    BEGIN {
      m["int32|auto"] = "scan"; m["int32|reduce (bytes read)"] = "reduce"; m["int32|compact (half kept)"] = "compact"
      m["int32|partition (half flagged)"] = "partition"; m["uint32|sort (Gkeys/s)"] = "sort"
      m["uint32|sort_by_key, uint32 values (Gkeys/s)"] = "sort_by_key"
      m["uint32|sort_ex descending (Gkeys/s)"] = "sort_descending"
      m["uint32|sort_ex, bits [0, 16) (Gkeys/s)"] = "sort_bits_0_16"
      m["int32|inclusive scan_by_key (uint32)"] = "scan_by_key"; m["int32|reduce_by_key (uint32 keys)"] = "reduce_by_key"
      m["int32|run_length_encode (uint32)"] = "run_length_encode"; m["int32|unique (uint32)"] = "unique"
      m["int32|segmented_reduce (n/256 segments)"] = "segmented_reduce"
      m["uint8|histogram_even, 256 bins"] = "histogram_uint8_256"
      nops = split(ops, names, /[ \n]+/)
      for (i = 1; i <= nops; i++) print "library,n,ms,g_elements_per_s,roof_g_elements_per_s,verified" > (out "/" names[i] ".csv")
    }
    FILENAME ~ /clscan-bench.csv$/ && FNR > 1 {
      split($5, a, ","); split($7, b, ","); op = m[a[3] "|" $6]
      if (op == "" || b[2] <= 0) next
      roof[op, a[2]] = a[2] / (b[2] * b[4]) / 1e6
      printf "clscan,%s,%s,%.4f,%.4f,%s\n", a[2], b[2], a[2] / b[2] / 1e6, roof[op, a[2]], b[6] > (out "/" op ".csv")
    }
    FILENAME !~ /clscan-bench.csv$/ && FNR > 1 {
      split($1, a, ","); split($5, b, ","); op = b[2]
      if (!((op, b[3]) in roof) || b[4] <= 0) next
      printf "%s,%s,%s,%.4f,%.4f,%s\n", a[1], b[3], b[4], b[3] / b[4] / 1e6, roof[op, b[3]], b[5] > (out "/" op ".csv")
    }' "$out/clscan-bench.csv" $(ls "$out"/boost.csv "$out"/cub.csv 2>/dev/null)
}

# One plot per operation, and all of them in summary.png.
plot_ops() {
  local device driver gp="$out/plots.gp"
  device=$(awk -F'"' 'NR == 2 { print $2 }' "$out/clscan-bench.csv")
  driver=$(awk -F'"' 'NR == 2 { print $4 }' "$out/clscan-bench.csv")
  {
    echo "set datafile separator ','; set logscale x 2; set logscale y 10; set format x '2^{%L}'; set key top left"
    echo "set xlabel 'n'; set ylabel 'G elements/s'; set grid"
    for op in $ops; do
      echo "set terminal pngcairo size 900,560; set output '$out/$op.png'"
      echo "set title \"${title[$op]}\\n$device, driver $driver\" noenhanced"
      plot_line "$op"
    done
    echo "set terminal pngcairo size 1800,1400 font ',9'; set output '$out/summary.png'"
    echo "set multiplot layout 4,4 title 'clscan and its peers on $device (driver $driver): G elements/s against n'"
    echo "unset xlabel; unset ylabel"
    for op in $ops; do
      echo "set title '${title[$op]}' noenhanced"
      plot_line "$op"
    done
    echo "unset multiplot"
  } >"$gp"
  gnuplot "$gp"
}
# One series of a plot: the rows of library $2 in file $1, column $3 against n, style $4, title $5.
series() { echo "'< grep \"^$2,\" $1' using 2:$3 with linespoints $4 title '$5'"; }
# The plot command of operation $1: clscan's copy roof, then each library found in its CSV.
plot_line() {
  local f="$out/$1.csv" parts=() lib
  parts+=("$(series "$f" clscan 5 "dt 2 lc rgb 'gray40' pt -1" 'copy roof')")
  for lib in clscan CUB Boost.Compute; do
    grep -q "^$lib," "$f" && parts+=("$(series "$f" "$lib" 4 "lw 2 lc rgb '${color[$lib]}'" "$lib")")
  done
  local IFS=,
  echo "plot ${parts[*]}"
}

rc=0
if ((!replot)); then
  run_all || rc=1
fi
split_ops
bad=0
for op in $ops; do
  bad=$((bad + $(awk -F, 'FNR > 1 && $6 != 1 { n++ } END { print n + 0 }' "$out/$op.csv")))
done
if [[ -s $out/clscan-bench.csv ]] && ((bad)); then
  echo "compare.sh: $bad rows did not verify (verified column 0): see $out/*.txt" >&2
  rc=1
fi
if command -v gnuplot >/dev/null; then
  plot_ops && echo "compare.sh: plots in $out (summary.png and one per operation)"
else
  echo "compare.sh: gnuplot is not installed: the CSVs are in $out; draw them elsewhere with" \
       "bench/peers/compare.sh --replot --out DIR"
fi
for op in $ops; do
  awk -F, -v op="$op" 'FNR > 1 { last[$1] = $4; n[$1] = $2 } END { s = ""; for (l in last) s = s sprintf("  %s %.2f", l, last[l]);
    if (s != "") printf "%-20s at n=%s G elements/s:%s\n", op, n["clscan"], s }' "$out/$op.csv"
done
exit $rc
