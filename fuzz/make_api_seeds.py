#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_api (fuzz/corpus/api): one meaningful input per public function and
per kind of bad argument, in the byte layout LLVMFuzzerTestOneInput in fuzz_api.c decodes. Seeds that
succeed use few kernel configurations (each costs a PoCL build of seconds on a cold cache).
Run from anywhere: python3 fuzz/make_api_seeds.py"""
import os
import struct

# fn values (enum fn in fuzz_api.c)
INCL, EXCL, REDUCE, COMPACT, SORT, SORT_BY_KEY, SAT, INCL_HOST, EXCL_HOST, SET_ALGO, FINISH, CREATE, \
    CREATE_FROM_QUEUE, MISC = range(14)
PARTITION, UNIQUE = 0xF0, 0xF1   # 0.2's: a selector byte from 0xf0 on
INCL_INIT, EXCL_INIT, SEG_INCL, SEG_EXCL, INCL_BY_KEY, EXCL_BY_KEY, SEG_REDUCE, REDUCE_BY_KEY, REDUCE_BY_KEY_ASYNC, \
    RLE, RLE_ASYNC, ARGMIN, ARGMAX = range(0xF2, 0xFF)
# 0xff and a byte (modulo six): 0.2's functions past the fifteenth
HIST_EVEN, HIST_RANGE, REDUCE_ASYNC, COMPACT_ASYNC, PARTITION_ASYNC, UNIQUE_ASYNC = ((0xFF, k) for k in range(6))
NO_OP = (SAT, COMPACT, PARTITION, UNIQUE, RLE, RLE_ASYNC, ARGMIN, ARGMAX, HIST_EVEN, HIST_RANGE, COMPACT_ASYNC,
         PARTITION_ASYNC, UNIQUE_ASYNC)   # no op byte
INT32, UINT32, INT64, UINT64, FLOAT, DOUBLE, INT8, UINT8, INT16, UINT16 = range(10)
ADD, MUL, MIN, MAX = range(4)
# buffer kinds (enum kind): a byte below 0x80 is EXACT; above, the byte modulo 12 picks the kind
EXACT, NULL, LARGER, SHORT, READ_ONLY, WRITE_ONLY, FOREIGN, IMAGE, HOST_PTR, SAME, SUB_APART, SUB_OVER = range(12)
OUT_OF_RANGE = 0xE0   # an enum byte from 0xe0 on: count, count + 1, -1, -2, INT_MIN, INT_MAX, 256, 65536
CTX_NULL, PTR_NULL, VALUE_NULL = 0x1F, 0xE0, 0xC0   # the option byte of a call (VALUE_NULL: argmin's value)


def kind(k, extra=None, back=1, earlier=False):
    """A buffer-kind byte (and the size byte LARGER and SHORT take); SAME and SUB_OVER refer to the
    argument back (1 or 2) places before; SUB_OVER lies an alignment step after it, or before."""
    b = 0 if k == EXACT else next(b for b in range(0x80, 0x100) if b % 12 == k and (b // 12) % 2 == back - 1
                                  and (k != SUB_OVER or (b // 24) % 2 == earlier))
    return bytes([b]) + (bytes([extra]) if k in (LARGER, SHORT) else b"")


def head(calls=1, seed=0x1234):
    return bytes([(calls - 1) << 1]) + struct.pack("<I", seed)


def device(fn, type_, n, *buffers, op=ADD, vtype=INT32, opt=0, extra=b""):
    """extra: what comes between n and the buffers: the shape byte of the scans with init (bit 0: init on
    the host, bit 1: init_buf too), the span of a segmented reduction's input (span()), the bins of the
    histograms (even())."""
    selector = bytes(fn) if isinstance(fn, tuple) else bytes([fn])
    body = selector + bytes([opt, type_, vtype]) + (b"" if fn in NO_OP else bytes([op]))
    body += struct.pack("<H", n) if fn != SAT else bytes(n)   # SAT: n is (width, height) bytes
    return body + extra + b"".join(buffers)


def span(elements):
    return struct.pack("<H", elements)


def bins(count):   # histogram_range's
    return struct.pack("<H", count)


def even(bins, lower, upper, shape=0):
    """histogram_even: bins, then the shape byte (low bits 1 or 2: lower or upper NULL; high bits 1 to 4:
    lower NaN, upper +inf, lower -inf, the type's extremes) and the bounds as signed bytes."""
    return struct.pack("<Hbbb", bins, shape if shape < 128 else shape - 256, lower, upper)


def host(fn, type_, op, n, shape, opt=0):
    # shape: bits 0-1 in (0: NULL), bits 2-3 out (0: NULL), bits 4-5 == 0: out is in (in place)
    return bytes([fn, opt, type_, op]) + struct.pack("<H", n) + bytes([shape]) + struct.pack("<I", 99)


SEEDS = {
    "scan-int32-add": head() + device(INCL, INT32, 1000, kind(EXACT), kind(EXACT)),
    "scan-exclusive-in-place": head() + device(EXCL, INT32, 4096, kind(EXACT), kind(SAME)),
    "scan-float-min-larger": head() + device(INCL, FLOAT, 777, kind(LARGER, 9), kind(HOST_PTR), op=MIN),
    "scan-sub-buffers-apart": head() + device(INCL, INT32, 300, kind(SUB_APART), kind(SUB_APART)),
    "scan-sub-buffer-overlap": head() + device(INCL, INT32, 300, kind(SUB_APART), kind(SUB_OVER)),
    "scan-short-output": head() + device(INCL, INT32, 1000, kind(EXACT), kind(SHORT, 3)),
    "scan-read-only-output": head() + device(EXCL, INT32, 64, kind(READ_ONLY), kind(READ_ONLY)),
    "scan-write-only-input": head() + device(INCL, INT32, 64, kind(WRITE_ONLY), kind(WRITE_ONLY)),
    "scan-foreign-image": head(2) + device(INCL, INT32, 8, kind(FOREIGN), kind(EXACT))
                          + device(EXCL, INT32, 8, kind(EXACT), kind(IMAGE)),
    "scan-enums-out-of-range": head(2) + device(INCL, OUT_OF_RANGE, 8, kind(EXACT), kind(EXACT))
                               + device(INCL, INT32, 8, kind(EXACT), kind(EXACT), op=OUT_OF_RANGE + 4),
    "scan-n-overflows": head() + device(INCL, INT64, 0xF000 + 2, kind(EXACT), kind(EXACT)),
    "scan-null-context": head() + device(INCL, INT32, 16, kind(NULL), kind(EXACT), opt=CTX_NULL),
    "reduce-int32-max": head() + device(REDUCE, INT32, 3000, kind(EXACT), op=MAX),
    "reduce-null-result": head() + device(REDUCE, INT32, 0, kind(NULL), opt=PTR_NULL),
    "compact-int32": head() + device(COMPACT, INT32, 2000, kind(EXACT), kind(EXACT), kind(EXACT)),
    "compact-out-is-in": head() + device(COMPACT, INT32, 100, kind(EXACT), kind(EXACT), kind(SAME, back=2)),
    "compact-out-over-flags": head() + device(COMPACT, INT32, 64, kind(EXACT), kind(SUB_APART),
                                                 kind(SUB_OVER, earlier=True)),
    "partition-int32": head() + device(PARTITION, INT32, 2000, kind(EXACT), kind(EXACT), kind(EXACT)),
    "partition-out-over-flags": head() + device(PARTITION, INT32, 64, kind(EXACT), kind(SUB_APART),
                                                kind(SUB_OVER, earlier=True)),
    "unique-int64": head() + device(UNIQUE, INT64, 3000, kind(EXACT), kind(EXACT)),
    "unique-out-is-in": head() + device(UNIQUE, INT32, 100, kind(EXACT), kind(SAME)),
    "unique-null-count": head() + device(UNIQUE, INT32, 10, kind(EXACT), kind(EXACT), opt=PTR_NULL),
    "scan-init-host": head() + device(INCL_INIT, INT32, 1000, kind(EXACT), kind(EXACT), kind(EXACT), extra=b"\x01"),
    "scan-init-buffer-exclusive": head() + device(EXCL_INIT, INT32, 777, kind(EXACT), kind(EXACT), kind(EXACT),
                                                  extra=b"\x00"),
    "scan-init-buffer-is-in": head() + device(INCL_INIT, INT32, 300, kind(EXACT), kind(EXACT), kind(SAME, back=2),
                                              extra=b"\x00"),
    "scan-init-buffer-over-out": head() + device(EXCL_INIT, INT32, 300, kind(EXACT), kind(EXACT), kind(SUB_OVER),
                                                 extra=b"\x00"),
    "scan-init-both-and-neither": head(2) + device(INCL_INIT, INT32, 64, kind(EXACT), kind(EXACT), kind(EXACT),
                                                   extra=b"\x03")
                                  + device(INCL_INIT, INT32, 64, kind(EXACT), kind(EXACT), kind(NULL), extra=b"\x00"),
    "segscan-heads-int32": head() + device(SEG_INCL, INT32, 2000, kind(EXACT), kind(EXACT), kind(EXACT)),
    "segscan-exclusive-in-place": head() + device(SEG_EXCL, INT32, 1000, kind(EXACT), kind(EXACT), kind(SAME, back=2)),
    "segscan-out-over-heads": head() + device(SEG_INCL, INT8, 1000, kind(EXACT), kind(SUB_APART),
                                              kind(SUB_OVER, earlier=True)),
    "scan-by-key-int64-keys": head() + device(INCL_BY_KEY, INT32, 1500, kind(EXACT), kind(EXACT), kind(EXACT),
                                              vtype=INT64),
    "scan-by-key-out-is-keys": head() + device(EXCL_BY_KEY, INT32, 64, kind(EXACT), kind(EXACT), kind(SAME, back=2)),
    "scan-by-key-bad-key-type": head() + device(EXCL_BY_KEY, INT32, 64, kind(EXACT), kind(EXACT), kind(EXACT),
                                                vtype=OUT_OF_RANGE + 3),
    "segreduce-int32": head() + device(SEG_REDUCE, INT32, 100, kind(EXACT), kind(EXACT), kind(EXACT), extra=span(3000)),
    "segreduce-bad-offsets": head(4, seed=7) + b"".join(
        device(SEG_REDUCE, INT32, 50, kind(EXACT), kind(EXACT), kind(EXACT), extra=span(200)) for _ in range(4)),
    "segreduce-in-write-only": head() + device(SEG_REDUCE, INT32, 10, kind(WRITE_ONLY), kind(EXACT), kind(EXACT),
                                               extra=span(100)),
    "segreduce-out-over-in": head() + device(SEG_REDUCE, INT32, 10, kind(EXACT), kind(EXACT), kind(SUB_OVER, back=2),
                                             extra=span(1000)),
    "segreduce-segments-overflow": head() + device(SEG_REDUCE, INT8, 0xF000, kind(EXACT), kind(EXACT), kind(EXACT),
                                                   extra=span(10)),
    "reduce-by-key-int32": head() + device(REDUCE_BY_KEY, INT32, 2000, kind(EXACT), kind(EXACT), kind(EXACT),
                                           kind(EXACT), vtype=INT32),
    "reduce-by-key-values-are-keys": head() + device(REDUCE_BY_KEY, INT32, 100, kind(EXACT), kind(SAME), kind(EXACT),
                                                     kind(EXACT), vtype=INT32),
    "reduce-by-key-null-runs": head() + device(REDUCE_BY_KEY, INT32, 10, kind(EXACT), kind(EXACT), kind(EXACT),
                                               kind(EXACT), opt=PTR_NULL),
    "reduce-by-key-async": head() + device(REDUCE_BY_KEY_ASYNC, INT16, 1000, kind(EXACT), kind(EXACT), kind(EXACT),
                                           kind(EXACT), kind(EXACT), vtype=INT64),
    "reduce-by-key-async-count-over-values-out": head() + device(REDUCE_BY_KEY_ASYNC, INT32, 100, kind(EXACT),
                                                                 kind(EXACT), kind(EXACT), kind(EXACT),
                                                                 kind(SUB_OVER, earlier=True), vtype=INT32),
    "rle-int16": head() + device(RLE, INT16, 3000, kind(EXACT), kind(EXACT), kind(EXACT)),
    "rle-lengths-are-in": head() + device(RLE, INT64, 100, kind(EXACT), kind(EXACT), kind(SAME, back=2)),
    "rle-async-empty": head() + device(RLE_ASYNC, INT32, 0, kind(NULL), kind(NULL), kind(NULL), kind(EXACT)),
    "rle-async-read-only-count": head() + device(RLE_ASYNC, INT32, 10, kind(EXACT), kind(EXACT), kind(EXACT),
                                                 kind(READ_ONLY)),
    "argmin-float": head() + device(ARGMIN, FLOAT, 3000, kind(EXACT)),
    "argmax-int64-no-value": head() + device(ARGMAX, INT64, 500, kind(EXACT), opt=VALUE_NULL),
    "argmin-empty-and-null-index": head(2) + device(ARGMIN, INT32, 0, kind(EXACT))
                                   + device(ARGMAX, INT32, 10, kind(EXACT), opt=PTR_NULL),
    "histogram-even-int32": head() + device(HIST_EVEN, INT32, 3000, kind(EXACT), kind(EXACT), extra=even(16, -20, 20)),
    "histogram-even-float-extremes": head() + device(HIST_EVEN, FLOAT, 1000, kind(EXACT), kind(EXACT),
                                                     extra=even(7, 0, 0, shape=0x40)),
    "histogram-even-bad-bounds": head(3) + device(HIST_EVEN, FLOAT, 10, kind(EXACT), kind(EXACT),
                                                  extra=even(4, -3, 3, shape=0x10))
                                 + device(HIST_EVEN, INT32, 10, kind(EXACT), kind(EXACT), extra=even(4, -3, 3, shape=2))
                                 + device(HIST_EVEN, INT32, 10, kind(EXACT), kind(EXACT), extra=even(4, 3, -3)),
    "histogram-range-int32": head() + device(HIST_RANGE, INT32, 3000, kind(EXACT), kind(EXACT), kind(EXACT),
                                             extra=bins(40)),
    "histogram-range-counts-over-edges": head() + device(HIST_RANGE, INT32, 100, kind(EXACT), kind(SUB_APART),
                                                         kind(SUB_OVER, earlier=True), extra=bins(40)),
    "histogram-range-empty": head() + device(HIST_RANGE, DOUBLE, 0, kind(EXACT), kind(EXACT), kind(EXACT),
                                             extra=bins(8)),
    # the _async forms of reduce, compact, partition and unique: the value or count in a device buffer
    "reduce-async-int32-max": head() + device(REDUCE_ASYNC, INT32, 3000, kind(EXACT), kind(EXACT), op=MAX),
    "reduce-async-empty-float-min": head() + device(REDUCE_ASYNC, FLOAT, 0, kind(NULL), kind(LARGER, 3), op=MIN),
    "reduce-async-bad-results": head(4) + device(REDUCE_ASYNC, INT32, 10, kind(EXACT), kind(NULL))
                                + device(REDUCE_ASYNC, INT64, 10, kind(EXACT), kind(SHORT, 0))
                                + device(REDUCE_ASYNC, INT32, 10, kind(EXACT), kind(READ_ONLY))
                                + device(REDUCE_ASYNC, INT32, 10, kind(EXACT), kind(FOREIGN)),
    "reduce-async-result-is-in": head(2) + device(REDUCE_ASYNC, INT32, 10, kind(EXACT), kind(SAME))
                                 + device(REDUCE_ASYNC, INT32, 100, kind(SUB_APART), kind(SUB_OVER)),
    "compact-async-int32": head() + device(COMPACT_ASYNC, INT32, 2000, kind(EXACT), kind(EXACT), kind(EXACT),
                                           kind(WRITE_ONLY)),
    "compact-async-count-over-out": head() + device(COMPACT_ASYNC, INT32, 100, kind(EXACT), kind(EXACT),
                                                    kind(SUB_APART), kind(SUB_OVER)),
    "compact-async-empty-bad-count": head(2) + device(COMPACT_ASYNC, INT32, 0, kind(NULL), kind(NULL), kind(NULL),
                                                      kind(EXACT))
                                     + device(COMPACT_ASYNC, INT32, 0, kind(NULL), kind(NULL), kind(NULL),
                                              kind(READ_ONLY)),
    "partition-async-int32": head() + device(PARTITION_ASYNC, INT32, 2000, kind(EXACT), kind(EXACT), kind(EXACT),
                                             kind(EXACT)),
    "partition-async-count-is-flags": head() + device(PARTITION_ASYNC, INT32, 64, kind(EXACT), kind(EXACT),
                                                      kind(EXACT), kind(SAME, back=2)),
    "unique-async-int64": head() + device(UNIQUE_ASYNC, INT64, 3000, kind(EXACT), kind(EXACT), kind(HOST_PTR)),
    "unique-async-count-foreign-or-short": head(2) + device(UNIQUE_ASYNC, INT32, 10, kind(EXACT), kind(EXACT),
                                                            kind(FOREIGN))
                                           + device(UNIQUE_ASYNC, INT32, 10, kind(EXACT), kind(EXACT), kind(SHORT, 2)),
    "unique-async-count-over-in": head() + device(UNIQUE_ASYNC, INT32, 64, kind(SUB_APART), kind(EXACT),
                                                  kind(SUB_OVER, back=2)),
    "sort-int32": head() + device(SORT, INT32, 4096, kind(EXACT)),
    "sort-by-key-overlap": head() + device(SORT_BY_KEY, INT32, 50, kind(EXACT), kind(SAME), vtype=INT32),
    "sat-int32-in-place": head() + device(SAT, INT32, (17, 33), kind(EXACT), kind(SAME)),
    "sat-overflow": head() + device(SAT, INT32, (0xF8, 0xF8 + 2), kind(EXACT), kind(EXACT)),
    "host-scans": head(2) + host(INCL_HOST, INT32, ADD, 100, 0x05) + host(EXCL_HOST, INT32, ADD, 100, 0x01),
    "host-null-output": head() + host(INCL_HOST, INT32, ADD, 10, 0x31),
    "set-algorithm-then-scan": head(3) + bytes([SET_ALGO, 0, 3, 0]) + device(INCL, INT32, 2000, kind(EXACT),
                                                                           kind(EXACT)) + bytes([FINISH, 0]),
    "set-algorithm-out-of-range": head() + bytes([SET_ALGO, 0, OUT_OF_RANGE, 2]),
    "create": head(3) + bytes([CREATE, 0, 0, 4]) + b"pocl" + bytes([CREATE, 0, 0, 7]) + b"no-such"
              + bytes([CREATE, 0, 1, 0]),
    # shape bit 2: spec NULL ($CLSCAN_DEVICE); bits 6-7: an environment variable set from the input meanwhile
    "create-with-environment": head(3) + bytes([CREATE, 0, 0x44, 0, 11]) + b"A B=2 C= D " + bytes([CREATE, 0, 0x84, 0, 3])
                               + b"-17" + bytes([CREATE, 0, 0xC4, 0, 4]) + b"0:0",
    "create-from-queue": head(3) + bytes([CREATE_FROM_QUEUE, 0, 1, CREATE_FROM_QUEUE, 0, 2,
                                          CREATE_FROM_QUEUE, 0, 0]),
    "misc": head(2) + bytes([MISC, 0]) + struct.pack("<i", -7) + bytes([DOUBLE, MISC, 0]) + struct.pack("<i", 5)
            + bytes([OUT_OF_RANGE]),
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "api")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
