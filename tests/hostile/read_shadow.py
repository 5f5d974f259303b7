# Tries to read /etc/shadow; prints what happened.
try:
    with open("/etc/shadow") as f:
        print("OPEN", f.read(64))
except OSError as e:
    print("DENIED", e.errno)
