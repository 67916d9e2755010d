#!/usr/bin/env python3
"""grammar_check.py GRAMMAR HEADER: the instruction numbers and operand counts
of NonSemantic.Gac.AsyncPipeline's grammar file match include/gac/async_pipeline.h."""
import json
import re
import sys

grammar, header = sys.argv[1], sys.argv[2]
insts = {i["opname"]: i for i in json.load(open(grammar))["instructions"]}
text = open(header).read()
expect = {"AsyncCommit": ("GAC_ASYNC_COMMIT", 2), "AsyncWait": ("GAC_ASYNC_WAIT", 2),
          "PipelineLoop": ("GAC_PIPELINE_LOOP", 1), "PipelineStatement": ("GAC_PIPELINE_STATEMENT", 2),
          "WarpSpecialize": ("GAC_WARP_SPECIALIZE", 2), "Pipe": ("GAC_PIPE", 3), "PipeBuffer": ("GAC_PIPE_BUFFER", 2),
          "PipeProducerAcquire": ("GAC_PIPE_PRODUCER_ACQUIRE", 2), "PipeProducerCommit": ("GAC_PIPE_PRODUCER_COMMIT", 3),
          "PipeConsumerWait": ("GAC_PIPE_CONSUMER_WAIT", 2), "PipeConsumerRelease": ("GAC_PIPE_CONSUMER_RELEASE", 2),
          "Mutex": ("GAC_MUTEX", 4), "MutexSync": ("GAC_MUTEX_SYNC", 1),
          "AsyncCopyFence": ("GAC_ASYNC_COPY_FENCE", 1)}
failed = 0
for opname, (enum, operands) in expect.items():
    m = re.search(r"\b%s = (\d+)" % enum, text)
    ok = opname in insts and m and int(m.group(1)) == insts[opname]["opcode"] and len(insts[opname]["operands"]) == operands
    print("%s %s" % ("PASS" if ok else "FAIL", opname))
    failed += not ok
words = re.search(r"GAC_PIPELINE_NUM_WORDS = (\d+)", text)
ok = words and int(words.group(1)) == 5 + 2
print("%s word count" % ("PASS" if ok else "FAIL"))
failed += not ok
extra = set(insts) - set(expect)
print("%s no instruction the header lacks%s" % ("FAIL" if extra else "PASS", (": %s" % extra) if extra else ""))
failed += bool(extra)
print("%d passed, %d failed" % (len(expect) + 2 - failed, failed))
sys.exit(1 if failed else 0)
