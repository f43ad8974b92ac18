#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_register (fuzz/corpus/register): registrations of types and operators
that succeed (then a scan, an exclusive scan or a reduction), that the probe refuses (build failures,
sizes), and that the checks refuse (reserved names, NULLs, flags, types), in the byte layout
LLVMFuzzerTestOneInput in fuzz_register.c decodes. Run from anywhere: python3 fuzz/make_register_seeds.py"""
import os
import struct

INT32, UINT32, INT64, UINT64, FLOAT, DOUBLE, INT8, UINT8, INT16, UINT16 = range(10)
BUILTIN_NAMES = ["float2", "int", "uint4", "ulong8", "uchar", "void", "double", "image2d_t", "max", "b", "undeclared"]
PLAIN_NAMES = ["pair", "my_type", "a", "T2", "x_clscan_y"]
BAD_NAMES = ["", "pair pair", "2x", "a-b", "int*", "clscan_pair", "CLSCAN_T", "Pair\n"]
DECLARATIONS = 7   # m/c struct, float/uint struct, union, packed, array, struct without typedef, no ';'
FORMS = ["add", "xor", "max", "mul", "affine16", "after", "compose"]
SNIPPETS = 14
CTX_NULL, OUT_NULL = 0x1F, 0xE0   # the option byte of an action


def pick(lo, hi, count, index):
    """The byte in [lo, hi) that selects index of count (the decoder takes the byte modulo count)."""
    return next(b for b in range(lo, hi) if b % count == index)


def raw(data):
    return bytes([len(data)]) + data


def vary(kind=0, at=0, extra=b""):
    """As is (0), a snippet spliced in (1, extra: its index), parentheses (2, extra: count; kind | 0x80
    closes them), padding by a comment (3) or blank lines (4) of (extra, 16 bits) << 6 bytes, copies (5)."""
    return bytes([kind]) + struct.pack("<H", at) + extra


def type_action(name, decl, size=0x00, opt=0, raw_name=b"", decl_bytes=b""):
    """name, decl: selector bytes; raw_name / decl_bytes follow where those select raw or varied text."""
    return bytes([0, opt, name, decl, size]) + raw_name + decl_bytes


def builtin(n): return pick(0x00, 0x40, len(BUILTIN_NAMES), BUILTIN_NAMES.index(n))
def plain(n): return pick(0x40, 0x80, len(PLAIN_NAMES), PLAIN_NAMES.index(n))
def bad(n): return pick(0x80, 0xA0, len(BAD_NAMES), BAD_NAMES.index(n))
def decl(k): return pick(0x40, 0xC0, DECLARATIONS, k)


def op_action(type_byte, form, identity=0x00, flags=0x00, opt=0, text=b"", use=b""):
    """form: a selector byte (forms below 0xa0, with noise in bits 4-6); text: the raw or varied combine
    and preamble that a form byte of 0xa0 and more takes, then identity bytes (identity >= 0x80)."""
    return bytes([1, opt, type_byte, form, identity, flags]) + text + use


def form(name, parens=0, comment=False):
    return next(b for b in range(0xA0) if b % len(FORMS) == FORMS.index(name) and (b >> 5) % 3 == parens
                and bool(b & 0x10) == comment)


def head(actions=1, seed=7):
    return bytes([actions - 1, seed])


LAST, ANCHOR, OTHER, NEXT = 0x84, 0x85, 0x80, 0x81   # type bytes: b % 6 == 0, 1, 2, 3
FAR = 0x82                                            # b % 6 == 4: an enum far out of range
RAW, RAW_TEMPLATE, RAW_PREAMBLE = 0xA0, 0xA1, 0xA2    # combine raw / from a template, + a raw preamble
use = lambda how, n: bytes([how, n])                  # 1 inclusive, 2 exclusive, 3 reduce

SEEDS = {
    "type-float2": head() + type_action(builtin("float2"), 0x00),
    "type-uint4-wrong-size": head() + type_action(builtin("uint4"), 0x00, size=0x85),
    "type-pair-struct": head() + type_action(plain("pair"), decl(1)),
    "type-packed": head() + type_action(plain("a"), decl(3)),
    "type-no-typedef": head() + type_action(plain("T2"), decl(5), size=0x08),
    "type-size-max": head() + type_action(plain("my_type"), decl(0), size=0x83),
    "type-reserved-name": head() + type_action(bad("clscan_pair"), decl(0), size=0x08),
    "type-not-identifier": head(2) + type_action(bad("pair pair"), 0x00, size=4) + type_action(bad("2x"), 0x00, size=4),
    "type-long-name": head() + type_action(0xA0, 0x00, size=4),
    "type-raw-name-nul": head() + type_action(0xB0, 0x00, size=8, raw_name=raw(b"float2\0junk")),
    "type-null-name-size-0": head(2) + type_action(0xF0, 0x00, size=4) + type_action(builtin("int"), 0x00, size=0x80),
    "type-raw-declaration": head() + type_action(plain("pair"), 0xC0, size=8,
                                                  decl_bytes=raw(b"typedef struct { int x; int y; } pair;") + vary()),
    "type-declaration-unbalanced": head() + type_action(plain("pair"), 0xC1, size=8, decl_bytes=vary(2, 20, b"\x03")),
    "type-declaration-huge-comment": head() + type_action(plain("pair"), 0xC1, size=8,
                                                           decl_bytes=vary(3, 0, struct.pack("<H", 0x1000))),
    "type-declaration-reserved": head() + type_action(plain("pair"), 0xC1, size=8, decl_bytes=vary(1, 9, b"\x02")),
    "type-null-ctx-null-out": head(2) + type_action(builtin("int"), 0x00, opt=CTX_NULL)
                              + type_action(builtin("int"), 0x00, opt=OUT_NULL),
    "op-affine16-scan": head() + op_action(UINT32, form("affine16"), use=use(1, 100)),
    "op-after-exclusive": head() + op_action(UINT32, form("after", parens=1), use=use(2, 160)),
    "op-max-reduce": head() + op_action(UINT32, form("max", comment=True), use=use(3, 97)),
    "op-add-commutative-int8": head() + op_action(INT8, form("add", parens=2), use=use(1, 64)),
    "op-mul-float": head() + op_action(FLOAT, form("mul"), use=use(2, 33)),
    "op-xor-on-float-fails": head() + op_action(FLOAT, form("xor")),
    "op-on-registered-struct": head(2) + type_action(plain("pair"), decl(0))
                               + op_action(LAST, form("compose"), identity=0x80, text=bytes([1, 0, 0, 0, 0, 0, 0, 0])),
    "op-on-anchor-float2": head() + op_action(ANCHOR, form("add")),
    "op-raw-scan": head() + op_action(UINT32, RAW, identity=0x80, text=raw(b"a - b + 1u") + vary() + bytes(4),
                                      use=use(1, 50)),
    "op-raw-nul-cut": head() + op_action(INT32, RAW, text=raw(b"a + b\0 garbage (") + vary(), use=use(3, 20)),
    "op-raw-preamble": head() + op_action(UINT32, RAW_PREAMBLE, text=raw(b"f(a) ^ b") + vary()
                                          + raw(b"uint f(uint x)\n{\n    return x * 3u;\n}\n") + vary()),
    "op-raw-build-failure": head() + op_action(UINT32, RAW, text=raw(b"a +* no_such(b)") + vary()),
    "op-reserved-splice": head(2) + op_action(UINT32, RAW_TEMPLATE, text=vary(1, 2, b"\x00"))
                          + op_action(UINT32, RAW_TEMPLATE, text=vary(1, 3, b"\x07"), use=use(1, 40)),
    "op-unbalanced": head(2) + op_action(UINT32, RAW_TEMPLATE, text=vary(2, 0, b"\x02"))
                     + op_action(UINT32, RAW_TEMPLATE, text=vary(0x80, 5, b"\x01")),
    "op-huge-blank-lines": head() + op_action(UINT32, RAW_TEMPLATE, text=vary(4, 0, struct.pack("<H", 0x4000))),
    "op-huge-comment": head() + op_action(UINT32, RAW_TEMPLATE, text=vary(3, 0, struct.pack("<H", 0xFFFF))),
    "op-repeated": head() + op_action(UINT32, RAW, text=raw(b"a+b+") + vary(5, 0, b"\xC8")),
    "op-empty-combine": head() + op_action(UINT32, RAW, text=raw(b"") + vary()),
    "op-bad-arguments": head(4) + op_action(UINT32, form("add"), identity=0xFF)
                        + op_action(UINT32, form("add"), flags=0xF3)
                        + op_action(UINT32, form("add"), opt=CTX_NULL) + op_action(UINT32, form("add"), opt=OUT_NULL),
    "op-bad-types": head(4) + op_action(OTHER, form("add")) + op_action(NEXT, form("add"))
                    + op_action(FAR, form("add")) + op_action(0x8E, form("add")),
    "op-64-bit-types": head(2) + op_action(UINT64, form("add"), use=use(1, 100))
                       + op_action(DOUBLE, form("max"), use=use(3, 100)),
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "register")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
