#!/usr/bin/env bash
# Every name the kernels define must start with clscan_ or CLSCAN_: a program is the library's
# kernels together with the user's type and operator code, which must never collide with them
# (docs/design.md). Lists each name in cl/ (any depth, *.cl and *.clh) that a #define, a kernel or
# other function, a typedef, a struct tag or a local-memory variable of a kernel introduces, or that
# an #if asks about (the host's defines; not the compiler's extension and feature macros), without the
# prefix, and fails if there is one.
#   scripts/check-cl-names.sh [cl-folder]
set -euo pipefail
dir=${1:-"$(cd "$(dirname "$0")/.." && pwd)/cl"}
mapfile -t files < <(find "$dir" -type f \( -name '*.cl' -o -name '*.clh' \) | LC_ALL=C sort)
if ((${#files[@]} == 0)); then
  echo "check-cl-names: no .cl or .clh files under $dir" >&2
  exit 2
fi

# One line per name: file:line: kind name. Comments are blanked first.
found=$(awk '
  FNR == 1 { in_comment = 0 }
  {
    line = $0; code = ""
    while (length(line) > 0) {
      if (in_comment) {
        end = index(line, "*/")
        if (end == 0) { line = ""; break }
        line = substr(line, end + 2); in_comment = 0
      } else {
        start = index(line, "/*"); slash = index(line, "//")
        if (slash > 0 && (start == 0 || slash < start)) { code = code substr(line, 1, slash - 1); line = ""; break }
        if (start == 0) { code = code line; line = ""; break }
        code = code substr(line, 1, start - 1) " "; line = substr(line, start + 2); in_comment = 1
      }
    }
    where = FILENAME ":" FNR ": "
    if (match(code, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
      s = substr(code, RSTART, RLENGTH); sub(/^[ \t]*#[ \t]*define[ \t]+/, "", s)
      print where "define " s
      next
    }
    if (match(code, /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)[^A-Za-z0-9_]/)) {   # what the kernels ask the host for
      rest = substr(code, RLENGTH + 1)
      while (match(rest, /[A-Za-z_][A-Za-z0-9_]*/)) {
        s = substr(rest, RSTART, RLENGTH)
        # Not the compiler macros: OpenCL extension (cl_khr_subgroups) and feature (__opencl_c_...) macros, and
        # the byte order (__ENDIAN_LITTLE__).
        if (s != "defined" && substr(rest, RSTART - 1, 1) !~ /[0-9]/ && s !~ /^(cl_(khr|intel|ext|amd|nv)_|__opencl_c_|__ENDIAN_LITTLE__$)/)
          print where "tested " s
        rest = substr(rest, RSTART + RLENGTH)
      }
    }
    if (code ~ /^[ \t]*#/)
      next
    # A function (kernel or not, defined or declared): a type at the start of the line, then name(.
    if (match(code, /^[A-Za-z_][A-Za-z0-9_ \t*]*[ \t*][A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
      s = substr(code, RSTART, RLENGTH); sub(/[ \t]*\($/, "", s); sub(/^.*[ \t*]/, "", s)
      if (s != "__attribute__")
        print where "function " s
    }
    if (match(code, /^[ \t]*typedef[^;{]*[^A-Za-z0-9_][A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {
      s = substr(code, RSTART, RLENGTH); sub(/[ \t]*;$/, "", s); sub(/^.*[^A-Za-z0-9_]/, "", s)
      print where "typedef " s
    }
    if (match(code, /^[ \t]*}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {   # typedef struct { ... } name;
      s = substr(code, RSTART, RLENGTH); gsub(/[ \t}; ]/, "", s)
      print where "typedef " s
    }
    rest = code
    while (match(rest, /struct[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
      s = substr(rest, RSTART, RLENGTH); sub(/^struct[ \t]+/, "", s)
      if (substr(rest, RSTART - 1, 1) !~ /[A-Za-z0-9_]/)
        print where "struct " s
      rest = substr(rest, RSTART + RLENGTH)
    }
    # Local memory declared in a kernel: __local [const] type name[...], name2; (pointers are not)
    if (match(code, /^[ \t]+__local[ \t]+(const[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t]+[^;]*;/)) {
      s = substr(code, RSTART, RLENGTH); sub(/^[ \t]+__local[ \t]+(const[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t]+/, "", s)
      sub(/;$/, "", s)
      n = split(s, parts, ",")
      depth = 0
      for (i = 1; i <= n; i++) {
        p = parts[i]
        if (depth == 0 && match(p, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*/))
          print where "local " substr(p, RSTART, RLENGTH)
        depth += gsub(/[[(]/, "&", p) - gsub(/[])]/, "&", p)
      }
    }
  }' "${files[@]}" | sed 's/: local[ \t]*/: local /')

bad=$(printf '%s\n' "$found" | awk 'NF && $NF !~ /^(clscan_|CLSCAN_)/')
count=$(printf '%s\n' "$found" | awk 'NF' | wc -l)
if [[ -n $bad ]]; then
  echo "check-cl-names: names in $dir without the clscan_/CLSCAN_ prefix:" >&2
  printf '%s\n' "$bad" >&2
  exit 1
fi
echo "check-cl-names: $count names in ${#files[@]} files under $dir, every one prefixed"
