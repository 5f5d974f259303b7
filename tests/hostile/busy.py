# Spins forever: time_limit.
while True:
    pass
