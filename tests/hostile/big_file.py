"""Write a 10 GB file into the work dir."""

block = b"z" * (1 << 20)
with open("big.bin", "wb") as f:
    f.writelines(block for _ in range(10 * 1024))
print("WROTE 10 GB")
