"""Plant symlinks in the work dir that point outside: read and write through them, and leave
output.json pointing at a secret for the host to read after the run."""

import os
import sys

secret, outside_dir = sys.argv[1], sys.argv[2]
os.symlink(secret, "output.json")
os.symlink(secret, "peek")
os.symlink(outside_dir, "door")
try:
    with open("peek") as f:
        print("READ", f.read().strip())
except OSError as exc:
    print("DENIED read", exc.strerror)
try:
    with open(os.path.join("door", "via_symlink"), "w") as f:
        f.write("pwned\n")
    print("WROTE")
except OSError as exc:
    print("DENIED write", exc.strerror)
