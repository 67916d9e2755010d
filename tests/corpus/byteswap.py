#!/usr/bin/env python3
"""Writes a SPIR-V binary with every 32-bit word byte-swapped (little <-> big endian)."""
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: byteswap.py IN OUT", file=sys.stderr)
        return 2
    data = open(sys.argv[1], "rb").read()
    if len(data) % 4:
        print(f"{sys.argv[1]}: {len(data)} bytes is not a whole number of words", file=sys.stderr)
        return 1
    out = bytearray(len(data))
    for i in range(0, len(data), 4):
        out[i:i + 4] = data[i:i + 4][::-1]
    open(sys.argv[2], "wb").write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
