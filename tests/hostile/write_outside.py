"""Write files outside the work dir."""

import sys

for path in sys.argv[1:]:
    try:
        with open(path, "w") as f:
            f.write("pwned\n")
        print("WROTE", path)
    except OSError as exc:
        print("DENIED", path, exc.strerror)
