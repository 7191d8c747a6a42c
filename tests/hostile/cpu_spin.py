"""Spin on the CPU forever."""

while True:
    pass
