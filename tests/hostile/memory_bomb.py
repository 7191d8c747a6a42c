"""Allocate and touch memory in 32 MB steps up to argv[1] MB."""

import sys

chunks = []
for step in range(int(sys.argv[1]) // 32):
    chunks.append(b"x" * (32 << 20))  # filled, so the pages are really used
    print("ALLOCATED", (step + 1) * 32, flush=True)
