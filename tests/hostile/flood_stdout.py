"""Write 1 GB to stdout."""

import sys

block = b"y" * (1 << 20)
for _ in range(1024):
    sys.stdout.buffer.write(block)
