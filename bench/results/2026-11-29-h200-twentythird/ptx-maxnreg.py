#!/usr/bin/env python3
"""Probe: cap the registers of one kernel in clscan binary caches that hold NVIDIA PTX, by a
`.maxnreg N` directive on its entry, the cache file's checksum redone (src/core/cache.c's format).
usage: ptx-maxnreg.py KERNEL N CACHE_FILE... (a file without that entry, or not PTX, is left alone)"""
import re, struct, sys

M = (1 << 64) - 1


def checksum64(data):
    a, b = 0xcbf29ce484222325, 0x84222325cbf29ce4
    for c in data:
        a = ((a ^ c) * 0x100000001b3) & M
        b = ((b ^ c) * 0x100000001b3) & M
        b ^= b >> 29
    return a ^ ((b << 1) & M)


def main():
    kernel, n, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    for f in files:
        raw = open(f, 'rb').read()
        head, body = raw[:64], raw[64:]
        length, total = struct.unpack('<QQ', head[48:64])
        assert length == len(body) and checksum64(body) == total, f + ': header does not match'
        pat = re.compile(rb'(\.entry ' + kernel.encode() + rb'\s*\([^)]*\)\s*(?:\.[a-z]+[^\n{]*\s*)*)\{')
        m = pat.search(body)
        if not m:
            print(f, 'no entry', kernel)
            continue
        body = body[:m.end(1)] + b'.maxnreg %d\n' % n + body[m.end(1):]
        open(f, 'wb').write(head[:48] + struct.pack('<QQ', len(body), checksum64(body)) + body)
        print(f, 'capped', kernel, 'at', n)


main()
