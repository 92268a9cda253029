#!/usr/bin/env python3
"""Opens N connections to a running moviesd at once, calls Status on each, checks every one is
answered. Usage: scripts/probes/connections.py SOCKET [N=1000]"""
import socket, sys, json, time, os
path, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
t0 = time.time(); socks = []
for i in range(n):
    s = socket.socket(socket.AF_UNIX); s.connect(path); socks.append(s)
msg = json.dumps({"method": "io.moviesd.Movies.Status", "parameters": {}}).encode() + b"\0"
for s in socks: s.sendall(msg)
ok = 0
for s in socks:
    buf = b""
    while not buf.endswith(b"\0"): buf += s.recv(65536)
    if b'"version"' in buf: ok += 1
print(f"{n} connections open at once, {ok} answered Status, in {time.time()-t0:.2f} s")
