/* What each tier of the suite runs (tests/CMakeLists.txt registers the tiers; docs/reliability.md, "The
 * suite in two tiers", says why). $CLSCAN_TEST_TIER=full: every type x operator x configuration a test
 * lists, at every size it lists (the passes over other paths: every type with add, each other operator
 * at one or two types, tier_path_op). Unset or quick: every type on each primitive's main path (what
 * AUTO runs), every operator there at one or more types, and every other configuration (strategy,
 * work-group algorithm, portable path, forced fallback, item mode, shape) at one type, all at every tile
 * boundary (ref_quick() leaves out only the sizes past 3 tiles and the large random ones). On PoCL each
 * OpenCL program costs seconds of compiling, all of its kernels included, and the quick tier builds a
 * few dozen where the full one builds hundreds. */
#ifndef CLSCAN_TEST_TIER_H
#define CLSCAN_TEST_TIER_H
#include "ref.h"

/* The operators besides add that the quick tier runs on a primitive's main path, each at one or two
 * types: min at int32 (signed) and int16 (the widened sub-group scans' identity), max at uint64
 * (unsigned, 64-bit) and float, mul at float (the products' tolerance) and uint16 (products past int,
 * where 16-bit values would be promoted). Not at int8: Mesa rusticl 25.0 on llvmpipe stops with SIGFPE
 * on int8 mul, min and max (docs/reliability.md), and CI runs the quick tier there; the full tier
 * takes them. */
static inline int tier_picked_op(clscan_type type, clscan_op op)
{
    return (op == CLSCAN_MIN && type == CLSCAN_INT32) || (op == CLSCAN_MAX && type == CLSCAN_UINT64) ||
           (op == CLSCAN_MAX && type == CLSCAN_FLOAT) || (op == CLSCAN_MUL && type == CLSCAN_FLOAT) ||
           (op == CLSCAN_MIN && type == CLSCAN_INT16) || (op == CLSCAN_MUL && type == CLSCAN_UINT16);
}

/* The operators a configuration runs at type. The quick tier runs add, and on a primitive's main path
 * (main_path) also the picked ones (tier_picked_op); the full tier every operator. */
static inline int tier_op(clscan_type type, clscan_op op, int main_path)
{
    return !ref_quick() || op == CLSCAN_ADD || (main_path && tier_picked_op(type, op));
}

/* The operators a pass over another path than the main one (portable, forced fallback, the other item
 * mode) runs at type: add, and in the full tier the picked ones too, so that every operator runs on
 * every path at a type or two. Each (type, operator) is a program of its own on each path, and
 * building programs is most of the full tier's time on PoCL (CI's 45 minutes). */
static inline int tier_path_op(clscan_type type, clscan_op op)
{
    return op == CLSCAN_ADD || (!ref_quick() && tier_picked_op(type, op));
}

/* The operators a scan runs at type (tier_op), but for the quick tier's adds under AUTO (main_path) at
 * uint16, uint32 and uint64: an unsigned add has its signed twin's bits, and each is a program less to
 * build on PoCL, where building programs is most of the tier's time. The unsigned types keep their
 * other operators there. */
static inline int tier_scan_op(clscan_type type, clscan_op op, int main_path)
{
    const int unsigned_add =
        op == CLSCAN_ADD && (type == CLSCAN_UINT16 || type == CLSCAN_UINT32 || type == CLSCAN_UINT64);
    return tier_op(type, op, main_path) && !(ref_quick() && main_path && unsigned_add);
}

/* Whether a primitive that only adds (summed-area tables) runs type: the quick tier takes int8, int32,
 * uint64 (a signed and an unsigned add give the same bits) and float (double's tables are float's at
 * another width); the full tier every 32- and 64-bit type, and int8 and uint16. */
static inline int tier_add_type(clscan_type type)
{
    if (type == CLSCAN_UINT8 || type == CLSCAN_INT16)
        return 0;
    return !ref_quick() || type == CLSCAN_INT8 || type == CLSCAN_INT32 || type == CLSCAN_UINT64 || type == CLSCAN_FLOAT;
}

/* The quick tier leaves uint8 to the full one: at 8 bits its add has int8's bits, and the quick tier
 * runs the other operators at wider types. */
static inline int tier_type_narrow(clscan_type type)
{
    return !ref_quick() || type != CLSCAN_UINT8;
}

/* Whether a configuration that the quick tier runs at quick_type alone runs type. Each test spreads
 * its configurations over types of both widths. */
static inline int tier_type(clscan_type type, clscan_type quick_type)
{
    return !ref_quick() || type == quick_type;
}
#endif
