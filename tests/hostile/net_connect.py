"""Connect to a TCP listener the test opened on the host's loopback."""

import socket
import sys

host, port = sys.argv[1], int(sys.argv[2])
try:
    with socket.create_connection((host, port), timeout=2) as s:
        s.sendall(b"escaped\n")
    print("CONNECTED")
except OSError as exc:
    print("BLOCKED", exc)
