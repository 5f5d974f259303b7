#!/usr/bin/env python3
"""Latency of accounts on a running daemon: login (argon2id check + token write) and an
authenticated read against the same read in open mode. Prints medians in milliseconds.

Usage: scripts/accounts-latency.py BINARY   (as root, from the repository root)
Starts two daemons of its own on loopback port 0 with temporary databases and stops them."""
import json, os, statistics, subprocess, sys, tempfile, time, urllib.request

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/sudojudge"
N_LOGIN, N_READ = 20, 400


def start(db):
    p = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0", "--workers", "1",
                          "--database", db], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    line = p.stdout.readline()
    return p, line.strip().removeprefix("listening on ")


def req(url, body=None, token=None):
    r = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                               headers={"content-type": "application/json"})
    if token:
        r.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(r) as resp:
        return json.loads(resp.read() or b"null")


def timed(n, f):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


with tempfile.TemporaryDirectory() as tmp:
    src = {"problem": "sudoku", "language": "c", "source": "int main(){}"}
    # Open mode: the baseline read.
    p, base = start(os.path.join(tmp, "open.db"))
    sid = req(f"{base}/api/submissions", src)["id"]
    open_read = timed(N_READ, lambda: req(f"{base}/api/submissions/{sid}"))
    p.terminate(); p.wait()
    # Accounts: the same read with a token, and logins.
    db = os.path.join(tmp, "acc.db")
    subprocess.run([BIN, "user", "add", "alice", "--password-stdin", "--database", db],
                   input="correct horse battery\n", text=True, check=True,
                   stderr=subprocess.DEVNULL)
    p, base = start(db)
    token = req(f"{base}/api/login", {"name": "alice", "password": "correct horse battery"})["token"]
    sid = req(f"{base}/api/submissions", src, token)["id"]
    auth_read = timed(N_READ, lambda: req(f"{base}/api/submissions/{sid}", token=token))
    login = timed(N_LOGIN, lambda: req(f"{base}/api/login",
                                       {"name": "alice", "password": "correct horse battery"}))
    p.terminate(); p.wait()
    print(f"login (argon2id verify + token insert), median of {N_LOGIN}: {login:.1f} ms")
    print(f"GET /api/submissions/ID with a token, median of {N_READ}: {auth_read:.2f} ms")
    print(f"same read in open mode (baseline), median of {N_READ}: {open_read:.2f} ms "
          f"(ratio {auth_read / open_read:.2f}x)")
