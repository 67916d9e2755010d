#!/usr/bin/env python3
"""set-wait-count.py IN.spvasm OUT.spvasm FROM TO: in gac's text form, every
AsyncWait whose In Flight is the 32-bit constant FROM gets the constant TO
(which must exist): a deliberately wrong count for the checker to find."""
import re
import sys

src, dst, old, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
text = open(src).read()
u32 = re.search(r"(%\w+) = OpTypeInt 32 0", text).group(1)
consts = {int(v): i for i, v in re.findall(r"(%\w+) = OpConstant " + re.escape(u32) + r" (\d+)\n", text)}
text, n = re.subn(r"(AsyncWait Queue=%\w+ InFlight=)" + re.escape(consts[old]) + r"\b",
                  lambda m: m.group(1) + consts[new], text)
if n == 0:
    sys.exit("no AsyncWait with In Flight %d" % old)
open(dst, "w").write(text)
