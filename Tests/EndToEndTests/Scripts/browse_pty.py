#!/usr/bin/env python3
"""Drives `movies browse` through a real pseudo-terminal and reads its screen with pyte (a VT100/
xterm emulator), for BrowseEndToEndTests.

Usage: browse_pty.py SCENARIO --movies PATH --socket PATH [--control-port N] [--query Q]

Each scenario waits for what the screen should show by polling it with a deadline (never by
sleeping), prints one JSON line of facts for the Swift test to check, and exits 0; a wait that
runs out prints what it waited for and the screen, and exits 1. Every process it starts is ended
before it exits.
"""
import argparse
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import urllib.request

import pyte

DEADLINE = 20.0


class Failure(Exception):
    pass


class Terminal:
    """A child process on a pseudo-terminal of `columns` x `rows`, its output fed to pyte."""

    def __init__(self, argv, env, columns=80, rows=24):
        self.columns, self.rows = columns, rows
        pid, fd = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.status = None

    def pump(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if data:
            self.raw += data
            self.stream.feed(data)

    def text(self):
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, what, predicate, timeout=DEADLINE):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.text()):
                return self.text()
            self.pump(0.02)
        if predicate(self.text()):
            return self.text()
        raise Failure("waited %.0f s for %s; the screen:\n%s" % (timeout, what, self.text()))

    def wait_for_text(self, text, timeout=DEADLINE):
        return self.wait_for(repr(text), lambda screen: text in screen, timeout)

    def send(self, data):
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def resize(self, columns, rows):
        # The kernel sends SIGWINCH to the terminal's foreground process group.
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.screen.resize(rows, columns)
        self.columns, self.rows = columns, rows

    def wait_exit(self, timeout=DEADLINE):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump(0.02)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                # The rest of the output (a shell's last lines).
                for _ in range(50):
                    before = len(self.raw)
                    self.pump(0.02)
                    if len(self.raw) == before:
                        break
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        raise Failure("the program did not exit within %.0f s; the screen:\n%s" % (timeout, self.text()))

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


def environment():
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG", "LC_ALL")}
    env.update({"TERM": "xterm-256color", "NO_COLOR": "1", "LC_ALL": os.environ.get("LC_ALL", "C.UTF-8"), "MOVIES_CONFIG": ""})
    return env


def browse(options, *words, env=None, columns=80, rows=24):
    argv = [options.movies, "--socket", options.socket, "browse", *words]
    return Terminal(argv, env or environment(), columns, rows)


def row(screen, index):
    """Row `index` of a screen's text ("" past its end)."""
    lines = screen.split("\n")
    return lines[index] if index < len(lines) else ""


def stub_faults(options, faults):
    request = urllib.request.Request("http://127.0.0.1:%d/faults" % options.control_port, data=json.dumps(faults).encode(), method="POST")
    urllib.request.urlopen(request, timeout=5).close()


def stub_searches(options):
    with urllib.request.urlopen("http://127.0.0.1:%d/stats" % options.control_port, timeout=5) as answer:
        return json.load(answer)["requests"].get("/3/search/movie", 0)


def status_line(terminal):
    return terminal.screen.display[1].rstrip()


def typeahead(options):
    """Cached matches from the local index first, then TMDB's list (the stub answers slowly)."""
    terminal = browse(options)
    try:
        terminal.wait_for_text("Search:")
        terminal.send("matri")
        cached = terminal.wait_for("the local index's matches", lambda s: "matches among cached movies" in s and "The Matrix" in s)
        fresh = terminal.wait_for("TMDB's answer", lambda s: "fresh from TMDB" in s)
        terminal.send("\x03")
        status = terminal.wait_exit()
        print(json.dumps({"cached": cached.splitlines()[1], "fresh": fresh.splitlines()[1],
                          "cachedHasMatrix": "The Matrix" in cached, "status": status}))
    finally:
        terminal.close()


def paging(options):
    """Scrolling past the end loads page 2 once, however often the keys ask while it loads (20 rows:
    the first page's 20 movies fill the 17 rows of the list, so nothing loads before the end)."""
    terminal = browse(options, options.query, rows=20)
    try:
        terminal.wait_for("the first page, settled", lambda s: "20 shown" in s and "refreshing" not in row(s, 1))
        before = stub_searches(options)
        # TMDB answers slowly, so the keys below come while page 2 is in flight.
        stub_faults(options, {"latencyMs": 1500})
        try:
            terminal.send("\x1b[6~\x1b[6~")  # PageDown twice: the last row of page 1 (End edits the query)
            terminal.wait_for_text("loading page 2")
            for key in ["\x1b[B", "\x1b[F", "\x1b[6~", "\x1b[B", "\x1b[B"]:
                terminal.send(key)
                terminal.wait_for("the key's frame", lambda s: "loading page 2" in s)
            terminal.wait_for("page 2", lambda s: "40 shown" in s and "loading page" not in s)
        finally:
            stub_faults(options, {"latencyMs": 0})
        after = stub_searches(options)
        selected = [line for line in terminal.text().splitlines() if line.startswith("▶")]
        terminal.send("\x03")
        terminal.wait_exit()
        print(json.dumps({"before": before, "after": after, "status": status_line(terminal), "selected": selected}))
    finally:
        terminal.close()


def resize(options):
    """A resize redraws the whole screen at the new size."""
    terminal = browse(options, columns=80, rows=24)
    try:
        terminal.wait_for("the keys on row 24", lambda s: "F1 help" in row(s, 23))
        terminal.resize(110, 30)
        screen = terminal.wait_for("the keys on row 30", lambda s: "F1 help" in row(s, 29))
        stale = [line for line in screen.split("\n")[:29] if "F1 help" in line]
        terminal.resize(60, 12)
        small = terminal.wait_for("the keys on row 12", lambda s: row(s, 11).startswith("↑↓"))
        terminal.send("\x03")
        terminal.wait_exit()
        print(json.dumps({"staleKeyRows": stale, "wide": row(screen, 1), "small": row(small, 11)}))
    finally:
        terminal.close()


def recents(options):
    """The searches made while typing are not recent searches; opening a movie saves its query."""
    def recent():
        return subprocess.run([options.movies, "--socket", options.socket, "recent"], env=environment(),
                              capture_output=True, text=True, timeout=20).stdout.split("\n")
    terminal = browse(options)
    try:
        terminal.wait_for_text("Search:")
        for text, query in [("blad", "blad"), ("e", "blade"), ("\x15matri", "matri")]:
            terminal.send(text)
            # TMDB's answer (after the pause) is listed: its count of results.
            terminal.wait_for("TMDB's answer to %r" % query, lambda s, q=query: row(s, 1).startswith('"%s": ' % q) and "fresh from TMDB" in row(s, 1))
        typed = recent()
        terminal.send("\r")
        terminal.wait_for_text("TMDB id")
        terminal.send("\x03")
        terminal.wait_exit()
        print(json.dumps({"afterTyping": [line for line in typed if line], "afterOpening": [line for line in recent() if line]}))
    finally:
        terminal.close()


def editing(options):
    """The query is edited at the cursor with readline's keys."""
    terminal = browse(options)
    try:
        terminal.wait_for_text("Search:")
        steps = {}
        for name, keys, expected in [
            ("insert", "matix\x1b[D\x1b[Dr", "Search: matrix"),
            ("home", "\x1b[Hthe ", "Search: the matrix"),
            ("wordBack", "\x1b[F\x1bb\x1bb\x1b[3~", "Search: he matrix"),
            ("killLine", "\x05\x01\x06\x0b", "Search: h"),
        ]:
            terminal.send(keys)
            steps[name] = terminal.wait_for(repr(expected), lambda s, e=expected: row(s, 0).rstrip() == e).split("\n")[0].rstrip()
        terminal.send("\x03")
        terminal.wait_exit()
        print(json.dumps(steps))
    finally:
        terminal.close()


def fill(options):
    """At 120x40 the list fills the screen: pages load until its 37 rows are full."""
    terminal = browse(options, options.query, columns=120, rows=40)
    try:
        screen = terminal.wait_for("the list settled", lambda s: " shown" in row(s, 1) and "loading page" not in row(s, 1) and "refreshing" not in row(s, 1) and row(s, 38).strip() != "")
        rows = [line for line in screen.split("\n")[2:39] if line.strip()]
        terminal.send("\x03")
        terminal.wait_exit()
        print(json.dumps({"status": row(screen, 1), "listRows": len(rows)}))
    finally:
        terminal.close()


def mouse(options):
    """SGR mouse mode on while browse runs: the wheel moves, a double click opens; off at exit."""
    terminal = browse(options, options.query)
    try:
        terminal.wait_for("the first page", lambda s: " shown" in row(s, 1) and "refreshing" not in row(s, 1))
        enabled = b"\x1b[?1000h\x1b[?1006h" in terminal.raw
        terminal.send("\x1b[<65;5;5M")  # the wheel, down: the second row is selected
        selected = terminal.wait_for("the second row selected", lambda s: row(s, 3).startswith("▶"))
        title = row(selected, 3)[2:].split("  ")[0].strip()
        click = "\x1b[<0;10;5M\x1b[<0;10;5m"  # the third row (screen row 5)
        terminal.send(click + click)
        details = terminal.wait_for_text("TMDB id")
        terminal.send("\x03")
        terminal.wait_exit()
        raw = bytes(terminal.raw)
        disabled = raw.rfind(b"\x1b[?1000l") > raw.rfind(b"\x1b[?1000h") >= 0
        print(json.dumps({"enabled": enabled, "wheelSelected": title, "opened": details.split("\n")[0].strip(),
                          "clicked": row(selected, 4)[2:].split("  ")[0].strip(), "disabled": disabled}))
    finally:
        terminal.close()


STTY = re.compile(rb"^([0-9a-f]+(?::[0-9a-f]+){20,})\r?$", re.M)


def restore(options, how):
    """`stty -g` before and after: the same whatever ended the session."""
    movies = " ".join("'%s'" % word for word in [options.movies, "--socket", options.socket, "browse"])
    script = "stty -g; %s; echo EXIT=$?; stty -g" % movies
    terminal = Terminal(["/bin/sh", "-c", script], environment())
    try:
        terminal.wait_for_text("Search:")
        if how == "ctrl-c":
            terminal.send("\x03")
        else:
            children = open("/proc/%d/task/%d/children" % (terminal.pid, terminal.pid)).read().split()
            if len(children) != 1:
                raise Failure("expected one child of the shell, found %r" % children)
            os.kill(int(children[0]), signal.SIGTERM)
        terminal.wait_exit()
        modes = [match.decode() for match in STTY.findall(bytes(terminal.raw))]
        exit_line = re.search(rb"EXIT=(\d+)", bytes(terminal.raw))
        left = terminal.raw.rfind(b"\x1b[?1049l") > terminal.raw.rfind(b"\x1b[?1049h") >= 0
        print(json.dumps({"modes": modes, "exit": int(exit_line.group(1)) if exit_line else None, "leftAlternateScreen": left,
                          "cursorShown": terminal.raw.rfind(b"\x1b[?25h") > terminal.raw.rfind(b"\x1b[?25l")}))
    finally:
        terminal.close()


def dumb(options):
    """TERM=dumb: refused with the usage status and a hint."""
    env = environment()
    env["TERM"] = "dumb"
    terminal = browse(options, env=env)
    try:
        status = terminal.wait_exit()
        print(json.dumps({"status": status, "screen": terminal.text()}))
    finally:
        terminal.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["typeahead", "paging", "resize", "ctrl-c", "sigterm", "dumb", "recents", "editing", "fill", "mouse"])
    parser.add_argument("--movies", required=True)
    parser.add_argument("--socket", required=True)
    parser.add_argument("--control-port", type=int, default=0)
    parser.add_argument("--query", default="matrix", help="paging: a query with a cached first page, and no second page cached")
    options = parser.parse_args()
    try:
        if options.scenario in ("ctrl-c", "sigterm"):
            restore(options, options.scenario)
        else:
            {"typeahead": typeahead, "paging": paging, "resize": resize, "dumb": dumb, "recents": recents, "editing": editing,
             "fill": fill, "mouse": mouse}[options.scenario](options)
    except Failure as failure:
        print("FAIL: %s" % failure, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
