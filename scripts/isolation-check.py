#!/usr/bin/env python3
"""Issue 31's isolation check with real users, in the booted container of scripts/test-systemd.

Run as root. Three workers, each `runuser -u USER -- python3 THIS --worker` (root's without
runuser), hold their own connections to moviesd, so the daemon's SO_PEERCRED names real uids: root,
alice and bob (neither in group moviesd). The driver (this process) sends each worker raw Varlink
messages and gets the reply bytes back (no client library: the containers have python3 and nothing
from PyPI, and raw bytes are what "byte-identical" is about).

The system daemon (--socket):
  * bob's view of alice's names (every call that takes a list name or an owner, his account calls,
    his listing, history and Status' private parts) is recorded before alice does anything, again
    after she has made her lists, searched, refreshed, signed in and left an account edit pending,
    and again after root deleted her lists: the three must be byte-identical (time fields dropped).
    So bob's error for alice's list name is the very error of a name nobody uses;
  * bob then calls every method of io.moviesd.Movies, with parameters made from the types the
    daemon's own GetInterfaceDescription declares (seeded; alice's list names and uid among the
    values), so a method added to the interface is called without editing this check, and one no
    generated call reaches (every call refused as InvalidParameter, or not implemented) fails it;
    alice's lists, history, account, pending edit and Status.account are what they were;
  * root: its own view leaves alice's lists out, allUsers and owner: show and edit them (and alice
    sees exactly that edit), its account and history are its own.
The user service (--user-socket, alice's own daemon): bob's connect(2) is refused (EACCES); root,
whom file permissions let through, is refused by the daemon (PermissionDenied), and alice's data
there is what it was.

Each check prints one line, `pass TEXT` or `fail TEXT`, for the caller to count; exit status 0 when
the check ran to its end (whatever it found), 1 when it stopped early (a `fail` line says why).
Usage: isolation-check.py --socket PATH [--user-socket PATH] [--alice alice] [--bob bob]
                          [--stub-control URL] [--shadow SYSTEM_LIST]
"""
import argparse
import errno
import json
import os
import pwd
import re
import socket
import subprocess
import sys
import traceback
import urllib.request

INTERFACE = "io.moviesd.Movies"
# Fields that change with time alone (ages, clocks, retry bookkeeping), dropped before comparing.
VOLATILE = {"ageSeconds", "fetchedAt", "uptimeSeconds", "lastSuccessAt", "pulledAt", "nextAttemptAt", "createdAt",
            "attempts", "lastError", "since", "retryAt", "consecutiveFailures", "activity", "nextRunAt", "scheduler",
            "changeFeed", "remote", "cache", "storage", "durationSeconds"}


# --- the worker: one user's connections ---------------------------------------------------------

def worker():
    """Reads one JSON request a line ({"socket": PATH, "message": {...}, "fresh": BOOL}), sends the
    message on its connection to PATH (made at the first use, or anew with "fresh") and writes
    {"replies": [raw, ...]} (every reply up to the one without "continues"), {"connectError": NAME,
    "errno": NAME}, or {"closed": true, "replies": [...]} when the daemon closed the connection."""
    connections = {}
    for line in sys.stdin:
        request = json.loads(line)
        path = request["socket"]
        if request.get("fresh") and path in connections:
            connections.pop(path)[0].close()
        answer = {}
        if path not in connections:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(path)
                connections[path] = [sock, b""]
            except OSError as error:
                sock.close()
                answer = {"connectError": os.strerror(error.errno) if error.errno else str(error),
                          "errno": errno.errorcode.get(error.errno, str(error.errno))}
        if path in connections:
            connection = connections[path]
            replies = []
            try:
                connection[0].sendall(json.dumps(request["message"], separators=(",", ":")).encode() + b"\0")
            except OSError:
                pass  # a daemon that refused the connection may have said why before closing it: read on
            try:
                while True:
                    while b"\0" not in connection[1]:
                        chunk = connection[0].recv(65536)
                        if not chunk:
                            raise ConnectionResetError("closed by the daemon")
                        connection[1] += chunk
                    raw, connection[1] = connection[1].split(b"\0", 1)
                    replies.append(raw.decode())
                    if not json.loads(raw).get("continues"):
                        break
            except OSError:
                answer["closed"] = True
                connections.pop(path)[0].close()
            answer["replies"] = replies
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class User:
    """A worker process running as `name`."""

    def __init__(self, name, script):
        self.name = name
        self.uid = pwd.getpwnam(name).pw_uid
        command = [sys.executable, script, "--worker"]
        if self.uid != 0:
            command = ["runuser", "-u", name, "--"] + command
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd="/")

    def send(self, path, message, fresh=False):
        self.process.stdin.write(json.dumps({"socket": path, "message": message, "fresh": fresh}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the worker of %s ended" % self.name)
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


# --- the driver ---------------------------------------------------------------------------------

class Check:
    def __init__(self, options):
        self.options = options
        self.failed = 0

    def result(self, ok, text):
        print(("pass " if ok else "fail ") + text, flush=True)
        if not ok:
            self.failed += 1
        return ok

    def raw(self, user, method, parameters=None, path=None, more=False):
        """The raw reply strings of `method` called by `user` (the first and, with `more`, the rest)."""
        message = {"method": (method if "." in method else INTERFACE + "." + method), "parameters": parameters or {}}
        if more:
            message["more"] = True
        answer = user.send(path or self.options.socket, message)
        if "connectError" in answer:
            raise RuntimeError("%s cannot connect to %s: %s" % (user.name, path or self.options.socket, answer["connectError"]))
        if not answer.get("replies"):
            raise RuntimeError("%s's %s got no reply (the connection was closed)" % (user.name, method))
        return answer["replies"]

    def call(self, user, method, parameters=None, **options):
        """The (last) reply of a call, parsed: {"parameters": ...} or {"error": ..., "parameters": ...}."""
        return json.loads(self.raw(user, method, parameters, **options)[-1])

    def ok(self, user, method, parameters=None, **options):
        """The parameters of a call that must succeed (a failure stops the check)."""
        reply = self.call(user, method, parameters, **options)
        if "error" in reply:
            raise RuntimeError("%s's %s(%s) failed: %s" % (user.name, method, json.dumps(parameters or {}), json.dumps(reply)))
        return reply.get("parameters", {})

    def error(self, user, method, parameters=None, **options):
        reply = self.call(user, method, parameters, **options)
        return reply.get("error")


def stable(value):
    """`value` without the fields that change with time alone, serialized canonically."""
    def strip(item):
        if isinstance(item, dict):
            return {key: strip(member) for key, member in item.items() if key not in VOLATILE}
        if isinstance(item, list):
            return [strip(member) for member in item]
        return item
    return json.dumps(strip(value), sort_keys=True, separators=(",", ":"))


def compare(check, before, after, what):
    """One check: the answers of `before` (name -> stable text) are those of `after`."""
    changed = sorted(key for key in before if before[key] != after.get(key))
    detail = "; ".join("%s: %s -> %s" % (key, before[key][:160], after.get(key, "")[:160]) for key in changed[:3])
    return check.result(not changed, "%s (%d answers)%s" % (what, len(before), ": changed " + detail if changed else ""))


def control(url, path, body):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST")
    urllib.request.urlopen(request, timeout=10).read()


def interface(check, user, path):
    """The daemon's own description of io.moviesd.Movies: {method: [(name, type)]}, {type: definition}.
    A type is "bool", "int", "float", "string", "object", ("?", T), ("[]", T), ("map", T),
    ("enum", [names]), ("struct", [(name, T)]) or a named type's name."""
    text = check.ok(user, "org.varlink.service.GetInterfaceDescription", {"interface": INTERFACE}, path=path)["description"]
    tokens = re.findall(r"\[string\]|\[\]|->|[A-Za-z_][A-Za-z0-9_.]*|[?():,]", re.sub(r"#[^\n]*", "", text))
    position = [0]

    def take():
        position[0] += 1
        return tokens[position[0] - 1]

    def parse_type():
        token = take()
        if token == "?":
            return ("?", parse_type())
        if token == "[]":
            return ("[]", parse_type())
        if token == "[string]":
            return ("map", parse_type())
        if token != "(":
            return token
        fields, cases = [], []
        while tokens[position[0]] != ")":
            name = take()
            if tokens[position[0]] == ":":
                take()
                fields.append((name, parse_type()))
            else:
                cases.append(name)
            if tokens[position[0]] == ",":
                take()
        take()
        return ("enum", cases) if cases else ("struct", fields)

    methods, types = {}, {}
    while position[0] < len(tokens):
        token = take()
        if token == "method":
            name = take()
            methods[name] = parse_type()[1]
        elif token == "type":
            name = take()
            types[name] = parse_type()
        elif token in ("error", "->"):
            if token == "error":
                take()
            parse_type()
    return methods, types


class Generator:
    """Well-typed parameters for any method, drawn at random from its types; scalars from small
    pools, so bob's calls meet alice's list names and uid. An unknown type stops the check."""

    def __init__(self, types, seed, strings, ints, floats=(0, 0.5, 8)):
        self.types, self.random = types, __import__("random").Random(seed)
        self.strings, self.ints, self.floats = strings, ints, floats

    def value(self, kind, method):
        pick = self.random.choice
        if isinstance(kind, tuple):
            shape, inner = kind
            if shape == "?":
                return None if self.random.random() < 0.5 else self.value(inner, method)
            if shape == "[]":
                return [item for item in (self.value(inner, method) for _ in range(self.random.randint(0, 3))) if item is not None]
            if shape == "enum":
                return pick(inner)
            if shape == "struct":
                return {name: item for name, item in ((name, self.value(field, method)) for name, field in inner) if item is not None}
        elif kind in ("bool", "int", "float", "string"):
            return {"bool": lambda: pick([True, False]), "int": lambda: pick(self.ints), "float": lambda: pick(self.floats),
                    "string": lambda: pick(self.strings)}[kind]()
        elif kind in self.types:
            return self.value(self.types[kind], method)
        raise RuntimeError("cannot make a %s for %s: teach the generator this type" % (kind, method))

    def parameters(self, method, fields):
        return {name: item for name, item in ((name, self.value(kind, method)) for name, kind in fields) if item is not None}


def run(check, options, root, alice, bob):
    sock = options.socket
    A = alice.uid
    L, UNUSED, SHADOW = options.list_name, "nobody-uses-this-name", options.shadow
    SECRET_QUERY = "alien"  # a query the stub answers; alice's search history and her list's query
    methods, types = interface(check, bob, sock)

    # bob's view of alice's names and of what is private: the same calls, three times.
    def bobs_view():
        calls = [
            ("Watchlists", {}), ("Watchlists", {"allUsers": True}), ("RecentQueries", {}),
            ("Account", {}), ("Pending", {}), ("Sync", {"waitSeconds": 0}),
            ("Account", {"system": True}), ("Pending", {"system": True}), ("Sync", {"system": True}),
            ("AccountLogout", {"system": True}), ("AccountLogin", {"system": True}),
            ("AccountEdit", {"list": "favorite", "movieId": 550, "on": True, "system": True}),
        ]
        for name in (L, SHADOW):
            calls += [
                ("RemoveFromWatchlist", {"name": name, "movieIds": [1]}),
                ("RemoveFromWatchlist", {"name": name, "queries": [SECRET_QUERY]}),
                ("DeleteWatchlist", {"name": name}), ("Refresh", {"watchlist": name}),
                ("RemoveFromWatchlist", {"name": name, "movieIds": [1], "owner": A}),
                ("AddToWatchlist", {"name": name, "movieIds": [1], "owner": A}),
                ("DeleteWatchlist", {"name": name, "owner": A}), ("Refresh", {"watchlist": name, "owner": A}),
            ]
        calls += [("Refresh", {"owner": A}), ("Refresh", {"system": True})]
        view = {}
        for method, parameters in calls:
            # An error byte for byte; an answer without the fields that move with time alone.
            raw = "".join(check.raw(bob, method, parameters))
            view["%s %s" % (method, json.dumps(parameters, sort_keys=True))] = raw if '"error"' in raw[:10] else stable(json.loads(raw))
        status = check.ok(bob, "Status")
        for key in ("account", "systemAccount"):
            view["Status." + key] = stable(status.get(key))
        view["Status.refresh"] = stable(status.get("refresh"))
        return view

    def alices_view():
        view = {method: stable(check.ok(alice, method)) for method in ("Watchlists", "RecentQueries", "Pending", "Account")}
        view["Status.account"] = stable(check.ok(alice, "Status").get("account"))
        return view

    bob_before = bobs_view()
    unused = {
        "RemoveFromWatchlist": "".join(check.raw(bob, "RemoveFromWatchlist", {"name": UNUSED, "movieIds": [1]})),
        "DeleteWatchlist": "".join(check.raw(bob, "DeleteWatchlist", {"name": UNUSED})),
        "Refresh": "".join(check.raw(bob, "Refresh", {"watchlist": UNUSED})),
    }

    # alice: a personal list, a personal list of a system list's name, searches, a refresh, her
    # own TMDB account and an edit left pending (TMDB refuses account writes meanwhile).
    made = check.ok(alice, "AddToWatchlist", {"name": L, "queries": [SECRET_QUERY], "movieIds": [603, 550], "pages": 1})
    check.result(made["watchlist"].get("owner") == A, "alice's '%s' is hers (owner %s)" % (L, made["watchlist"].get("owner")))
    shadow = check.ok(alice, "AddToWatchlist", {"name": SHADOW, "movieIds": [680]})
    check.result(shadow["watchlist"].get("owner") == A and shadow["watchlist"]["movieIds"] == [680],
                 "alice's '%s' is her own list beside the system's of that name" % SHADOW)
    check.ok(alice, "Search", {"query": SECRET_QUERY})
    refreshed = check.ok(alice, "Refresh", {"watchlist": L})
    check.result(refreshed.get("summary", {}).get("failed") == 0, "alice refreshes '%s': %s" % (L, stable(refreshed.get("summary"))))
    check.ok(alice, "AccountLogin")
    signed = check.ok(alice, "AccountLogin")
    check.result(signed.get("signedIn") is True, "alice signs in to her own TMDB account")
    control(options.stub_control, "/faults", {"errorRate": 1, "writesOnly": True})
    edit = check.ok(alice, "AccountEdit", {"list": "favorite", "movieId": 550, "on": True, "waitSeconds": 0})
    check.result(edit["entry"]["state"] in ("pending", "delivered") and not edit["onTmdb"], "alice's account edit is pending (%s)" % edit["entry"]["state"])
    alice_before = alices_view()

    compare(check, bob_before, bobs_view(), "bob's answers about alice's names, his account and Status are byte-identical before and after alice's lists, search, refresh, sign-in and pending edit")
    for method, parameters in (("RemoveFromWatchlist", {"movieIds": [1]}), ("DeleteWatchlist", {}), ("Refresh", None)):
        mine = "".join(check.raw(bob, method, dict(parameters, name=L) if parameters is not None else {"watchlist": L}))
        check.result(mine == unused[method].replace(UNUSED, L) and '"error"' in mine,
                     "bob's %s error for alice's '%s' is byte-identical to his error for a name nobody uses: %s" % (method, L, mine[:140]))

    # bob calls every method on alice's names; what is alice's stays hers.
    public = [check.ok(bob, "Search", {"query": "matrix"}), check.ok(bob, "Movie", {"id": 603}),
              check.ok(bob, "Poster", {"path": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg", "width": 92})]
    check.result(not any(L in json.dumps(reply) for reply in public), "bob's Search, Movie and Poster answer the shared cache and say nothing of alice's")
    mine = check.ok(bob, "AddToWatchlist", {"name": L, "movieIds": [13]})["watchlist"]
    other = check.ok(bob, "AddToWatchlist", {"name": UNUSED, "movieIds": [13]})["watchlist"]
    check.result(mine == dict(other, name=L) and mine.get("owner") == bob.uid and mine["movieIds"] == [13] and mine["queries"] == [],
                 "bob's AddToWatchlist of alice's name makes his own list, as for any name: %s" % json.dumps(mine))
    check.ok(bob, "DeleteWatchlist", {"name": L})
    refreshes = check.raw(bob, "Refresh", {}, more=True)
    check.result(len(refreshes) > 1 and not any(L in reply or SHADOW in reply for reply in refreshes),
                 "bob's Refresh (more) goes through his own list only (%d replies, none about alice's)" % len(refreshes))
    check.ok(bob, "DeleteWatchlist", {"name": UNUSED})
    # Saving a query he committed to (movies browse) goes into his own history, nobody else's.
    check.ok(bob, "SaveRecentQuery", {"query": "matrix"})
    bob_recent = check.ok(bob, "RecentQueries")["queries"]
    cleared = check.ok(bob, "ClearRecentQueries")["cleared"]
    check.result(bob_recent == ["matrix"] and cleared == 1, "bob's history is his own search, and he clears only it (cleared %d)" % cleared)
    for method, parameters in (("Invalidate", {"all": True}), ("Purge", {"all": True}), ("Purge", {"movieId": 603})):
        name = check.error(bob, method, parameters)
        check.result(name == "org.varlink.service.PermissionDenied", "bob's %s(%s): %s" % (method, json.dumps(parameters), name))
    login = check.call(bob, "AccountLogin")
    check.result(login.get("parameters", {}).get("signedIn") is not True and "error" not in login,
                 "bob's AccountLogin starts his own sign-in, not alice's session: %s" % stable(login)[:140])
    for method, parameters in (("AccountEdit", {"list": "favorite", "movieId": 13, "on": True, "waitSeconds": 0}), ("AccountLogout", {}),
                               ("Pending", {"dismissRejected": True})):
        name = check.error(bob, method, parameters)
        check.result(name == INTERFACE + ".NotSignedIn", "bob's %s: %s (he has no session; alice's is not his)" % (method, name))
    check.ok(bob, "Status")
    # Every method of the interface, with parameters made from its types, 8 calls each.
    generator = Generator(types, options.seed, strings=[L, SHADOW, UNUSED, SECRET_QUERY, "matrix", "", "en", "GB"],
                          ints=[0, 1, 2, 13, 550, 603, A, bob.uid, 2000, -1])
    missed = []
    for method, fields in sorted(methods.items()):
        refused = 0
        for _ in range(8):
            error = check.error(bob, method, generator.parameters(method, fields), more=generator.random.random() < 0.5)
            refused += error in ("org.varlink.service.InvalidParameter", "org.varlink.service.MethodNotImplemented", "org.varlink.service.MethodNotFound")
        if refused == 8:
            missed.append(method)
    check.result(not missed, "bob's generated calls reached every method of %s (%d; seed %d)%s" % (INTERFACE, len(methods), options.seed, ": none reached " + " ".join(missed) if missed else ""))
    # What bob's generated calls made is his own: gone again, so his later views compare as before.
    for item in check.ok(bob, "Watchlists")["watchlists"]:
        if item.get("owner") == bob.uid:
            check.ok(bob, "DeleteWatchlist", {"name": item["name"]})
    check.ok(bob, "ClearRecentQueries")
    compare(check, alice_before, alices_view(), "alice's lists, history, account, pending edit and Status.account are as she left them after bob's calls")
    bob_after = bobs_view()  # his own refresh is his last one now

    # root: its own view by default; allUsers and owner: reach alice's; its account and history its own.
    names = [(item["name"], item.get("owner")) for item in check.ok(root, "Watchlists")["watchlists"]]
    check.result(not any(owner == A for _, owner in names), "root's own Watchlists leave alice's out: %s" % names)
    everyone = check.ok(root, "Watchlists", {"allUsers": True})["watchlists"]
    hers = [item for item in everyone if item.get("owner") == A and item["name"] == L]
    check.result(len(hers) == 1 and hers[0]["movieIds"] == [603, 550] and [q["query"] for q in hers[0]["queries"]] == [SECRET_QUERY],
                 "root's Watchlists(allUsers) shows alice's '%s' as she made it" % L)
    for method, parameters in (("RemoveFromWatchlist", {"movieIds": [1]}), ("DeleteWatchlist", {})):
        rooted = "".join(check.raw(root, method, dict(parameters, name=L)))
        bobs = "".join(check.raw(bob, method, dict(parameters, name=L)))
        check.result(rooted == bobs, "root's %s of '%s' (without owner: his own) is bob's very error: %s" % (method, L, rooted[:120]))
    added = check.ok(root, "AddToWatchlist", {"name": L, "owner": A, "movieIds": [13]})["watchlist"]
    seen = [item for item in check.ok(alice, "Watchlists")["watchlists"] if item["name"] == L and item.get("owner") == A]
    check.result(added.get("owner") == A and seen and seen[0]["movieIds"] == [603, 550, 13], "root adds to alice's list with owner:, and alice sees it")
    check.ok(root, "RemoveFromWatchlist", {"name": L, "owner": A, "movieIds": [13]})
    refreshed = check.ok(root, "Refresh", {"watchlist": L, "owner": A})
    check.result("summary" in refreshed, "root refreshes alice's list with owner:")
    check.ok(root, "Search", {"query": "star"})
    check.ok(root, "Movie", {"id": 550})
    check.ok(root, "Poster", {"path": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg", "width": 92})
    check.ok(root, "SaveRecentQuery", {"query": "star"})
    root_recent = check.ok(root, "RecentQueries")["queries"]
    check.result(SECRET_QUERY not in root_recent, "root's RecentQueries are root's own: %s" % root_recent)
    check.ok(root, "ClearRecentQueries")
    check.ok(root, "Invalidate", {"movieId": 550})
    check.ok(root, "Purge", {"movieId": 999999})
    status = check.ok(root, "Status")
    check.result((status.get("account") or {}).get("accountId") is None and status.get("systemAccount") is not None,
                 "root's Status.account is root's own (not signed in), systemAccount the admin group's")
    for method in ("Account", "Pending", "Sync", "AccountLogout"):
        name = check.error(root, method, {"waitSeconds": 0} if method == "Sync" else {})
        check.result(name == INTERFACE + ".NotSignedIn", "root's own %s: %s (alice's account is not root's)" % (method, name))
    check.call(root, "AccountLogin")
    name = check.error(root, "AccountEdit", {"list": "watchlist", "movieId": 13, "on": True, "waitSeconds": 0})
    check.result(name == INTERFACE + ".NotSignedIn", "root's own AccountEdit: %s" % name)
    after_root = alices_view()
    compare(check, {k: v for k, v in alice_before.items() if k != "Watchlists"}, after_root,
            "alice's history, account, pending edit and Status.account are as she left them after root's calls")
    check.result(after_root["Watchlists"] == alice_before["Watchlists"], "alice's lists are as she left them after root's add and remove")
    check.ok(root, "DeleteWatchlist", {"name": L, "owner": A})
    check.ok(root, "DeleteWatchlist", {"name": SHADOW, "owner": A})
    left = [(item["name"], item.get("owner")) for item in check.ok(alice, "Watchlists")["watchlists"]]
    check.result(not any(owner == A for _, owner in left), "root deletes alice's lists with owner:; alice sees them gone: %s" % left)
    compare(check, bob_after, bobs_view(), "bob's answers are byte-identical before and after root's edits of alice's lists and their deletion (her names unused again)")
    control(options.stub_control, "/reset", {})

    if options.user_socket:
        user_service(check, options, root, alice, bob)


def user_service(check, options, root, alice, bob):
    """alice's own daemon: nobody else's to use."""
    path = options.user_socket
    answer = bob.send(path, {"method": INTERFACE + ".Status", "parameters": {}})
    check.result(answer.get("errno") == "EACCES", "bob's connect(2) to alice's own daemon: %s" % (answer.get("errno") or "connected"))
    before = {method: stable(check.ok(alice, method, path=path)) for method in ("Watchlists", "RecentQueries")}
    check.result('"owner":%d' % alice.uid in before["Watchlists"], "alice's lists in her own daemon are hers: %s" % before["Watchlists"][:120])
    for method, parameters in (("Status", {}), ("Watchlists", {"allUsers": True}), ("AddToWatchlist", {"name": "root-was-here", "movieIds": [13]}),
                               ("DeleteWatchlist", {"name": "mine", "owner": alice.uid}), ("Search", {"query": "root"})):
        answer = root.send(path, {"method": INTERFACE + "." + method, "parameters": parameters}, fresh=True)
        replies = answer.get("replies") or []
        first = json.loads(replies[0]) if replies else {}
        check.result(first.get("error") == "org.varlink.service.PermissionDenied",
                     "root's %s on alice's own daemon is refused: %s" % (method, (replies[0] if replies else json.dumps(answer))[:140]))
    after = {method: stable(check.ok(alice, method, path=path)) for method in ("Watchlists", "RecentQueries")}
    compare(check, before, after, "alice's lists and history in her own daemon are as they were after root's calls")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--socket", default="/run/moviesd/io.moviesd.Movies", help="the system daemon's socket")
    parser.add_argument("--user-socket", help="alice's own daemon's socket (the user service)")
    parser.add_argument("--alice", default="alice")
    parser.add_argument("--bob", default="bob")
    parser.add_argument("--list-name", default="alice-private", help="alice's personal list")
    parser.add_argument("--shadow", default="ci", help="a system list's name, which alice uses for a list of her own too")
    parser.add_argument("--stub-control", default="http://127.0.0.1:18081", help="the tmdb-stub's control URL")
    parser.add_argument("--seed", type=int, default=41, help="the seed of bob's generated calls")
    options = parser.parse_args()
    if options.worker:
        worker()
        return 0
    if os.getuid() != 0:
        sys.exit("isolation-check: run it as root (its workers are root, alice and bob)")
    check = Check(options)
    script = os.path.abspath(__file__)
    users = []
    try:
        users = [User("root", script), User(options.alice, script), User(options.bob, script)]
        run(check, options, *users)
    except Exception:  # any stop is a failed check, with its reason
        check.result(False, "the isolation check stopped: " + traceback.format_exc().strip().replace("\n", " | "))
        return 1
    finally:
        for user in users:
            user.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
