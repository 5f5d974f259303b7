# Grows a list of 1 MiB strings forever: memory_limit.
blocks = []
while True:
    blocks.append(bytearray(1 << 20))
