"""Write a 10 GB file into the work dir, carry on when the writes fail and exit 0 (as a C writer that never checks
its writes leaves a cut-off file behind a clean exit: HiGHS writing model.mps)."""

block = b"z" * (1 << 20)
try:
    with open("cut.bin", "wb") as f:
        f.writelines(block for _ in range(10 * 1024))
except OSError:
    pass
print("DONE")
