#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_cache_file (fuzz/corpus/cache_file): cache files as cache_write in
src/core/cache.c lays them out (magic, 32-digit key, length and checksum as little-endian uint64, binary)
under the key the fuzz target looks up, whole and with each field broken in turn.
Run from anywhere: python3 fuzz/make_cache_seeds.py"""
import os
import struct

KEY = b"0123456789abcdef0123456789abcdef"
MAGIC = b"CLSCAN-BINARY-1\n"
MASK = (1 << 64) - 1


def checksum(data):
    a, b = 0xCBF29CE484222325, 0x84222325CBF29CE4
    for byte in data:
        a = ((a ^ byte) * 0x100000001B3) & MASK
        b = ((b ^ byte) * 0x100000001B3) & MASK
        b ^= b >> 29
    return a ^ ((b << 1) & MASK)


def cache_file(binary, key=KEY, magic=MAGIC, length=None, summed=None):
    length = len(binary) if length is None else length
    summed = checksum(binary) if summed is None else summed
    return magic + key + struct.pack("<QQ", length & MASK, summed) + binary


def main():
    elf = b"\x7fELF\x02\x01\x01" + bytes(range(1, 41))   # the start of what PoCL hands back
    seeds = {
        "valid": cache_file(elf),
        "valid-one-byte": cache_file(b"\x00"),
        "valid-text": cache_file(b"BC\xc0\xde" + b"llvm bitcode stand-in " * 3),
        "other-key": cache_file(elf, key=KEY[:-1] + b"0"),
        "old-magic": cache_file(elf, magic=b"CLSCAN-BINARY-0\n"),
        "bad-checksum": cache_file(elf, summed=checksum(elf) ^ 1),
        "length-zero": cache_file(b""),
        "length-long": cache_file(elf, length=len(elf) + 1),
        "length-short": cache_file(elf, length=len(elf) - 1),
        "length-2g": cache_file(elf, length=1 << 31),
        "length-wraps": cache_file(elf, length=MASK - 63),
        "truncated": cache_file(elf)[:-8],
        "trailing-byte": cache_file(elf) + b"\n",
        "header-only": cache_file(elf)[:64],
        "short-header": cache_file(elf)[:40],
        "empty": b"",
    }
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "cache_file")
    os.makedirs(out, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
