"""Sleep (no CPU used, so only a wall clock stops this)."""

import time

time.sleep(10**6)
