#!/usr/bin/env python3
"""Sends each kind of bad input to a running moviesd on its own connection, prints the error
reply, then checks the daemon still serves. Usage: scripts/probes/bad-inputs.py SOCKET"""
import socket, sys, json
path = sys.argv[1]
cases = [
 ("malformed JSON", b'{"method": "io.moviesd.Movies.Status", \0'),
 ("not an object", b'[1,2,3]\0'),
 ("no method", b'{"parameters": {}}\0'),
 ("unknown interface", b'{"method": "com.example.Nope.Do"}\0'),
 ("unknown method", b'{"method": "io.moviesd.Movies.Nope"}\0'),
 ("parameters not an object", b'{"method": "io.moviesd.Movies.Status", "parameters": 5}\0'),
 ("wrong parameter type", b'{"method": "io.moviesd.Movies.Search", "parameters": {"query": 42}}\0'),
 ("unknown parameter", b'{"method": "io.moviesd.Movies.Search", "parameters": {"query": "x", "bogus": 1}}\0'),
 ("page out of range", b'{"method": "io.moviesd.Movies.Search", "parameters": {"query": "x", "page": 501}}\0'),
 ("empty query", b'{"method": "io.moviesd.Movies.Search", "parameters": {"query": "   "}}\0'),
 ("bad policy", b'{"method": "io.moviesd.Movies.Search", "parameters": {"query": "x", "policy": "sometimes"}}\0'),
 ("invalid UTF-8", b'{"method": "io.moviesd.Movies.Search", "parameters": {"query": "\xff\xfe"}}\0'),
 ("upgrade", b'{"method": "io.moviesd.Movies.Status", "upgrade": true}\0'),
 ("oversize (9 MiB)", b'{"method": "io.moviesd.Movies.Search", "parameters": {"query": "' + b"a" * (9 << 20) + b'"}}\0'),
]
for name, payload in cases:
    s = socket.socket(socket.AF_UNIX); s.connect(path); s.settimeout(5)
    try:
        s.sendall(payload)
        buf = b""
        while not buf.endswith(b"\0"):
            chunk = s.recv(65536)
            if not chunk: break
            buf += chunk
        reply = json.loads(buf.rstrip(b"\0")) if buf else {}
        print(f"{name:28s} -> {reply.get('error')} {json.dumps(reply.get('parameters', {}))[:60]}")
    except Exception as e:
        print(f"{name:28s} -> {type(e).__name__}: {e}")
    s.close()
s = socket.socket(socket.AF_UNIX); s.connect(path)
s.sendall(b'{"method": "io.moviesd.Movies.Status"}\0'); print("still serving:", b"version" in s.recv(65536))
