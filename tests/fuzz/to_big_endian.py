"""Writes a SPIR-V binary with every word byte-swapped: to_big_endian.py IN OUT."""
import sys

data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b"".join(data[i:i + 4][::-1] for i in range(0, len(data), 4)))
