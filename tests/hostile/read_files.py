"""Read files outside the work dir and print a hash of each one we got."""

import hashlib
import sys

for path in sys.argv[1:]:
    try:
        with open(path, "rb") as f:
            print("READ", path, hashlib.sha256(f.read()).hexdigest())
    except OSError as exc:
        print("DENIED", path, exc.strerror)
