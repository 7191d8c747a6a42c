"""Look for OPENAI_API_KEY in our environment and in every process environment we can see."""

import os

found = [f"env:{os.environ['OPENAI_API_KEY']}"] if "OPENAI_API_KEY" in os.environ else []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            environ = f.read().split(b"\0")
    except OSError:
        continue
    found += [f"proc/{pid}:{e.decode(errors='replace')}" for e in environ if e.startswith(b"OPENAI_API_KEY=")]
print("FOUND" if found else "NOTHING", *found)
