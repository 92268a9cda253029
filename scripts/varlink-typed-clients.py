#!/usr/bin/env python3
"""Calls every method of io.moviesd.Movies with the reference Python varlink client's TYPED calls
(varlink.Client(...).open("io.moviesd.Movies"), which filter replies through the IDL), against a
moviesd whose TMDB is a tmdb-stub serving the real recordings of shared/tmdb-fixtures (nulls, empty
strings, integer-valued floats, non-Latin titles).

Every reply (and every error reply) is also checked strictly against the IDL the daemon serves:
each non-optional field present, no field the IDL does not declare, ints are JSON integers, enums
within their values. The served IDL must be byte-for-byte the shipped .varlink file.

Usage: scripts/varlink-typed-clients.py --bin-dir DIR [--fixtures DIR] [--interface FILE]
  --bin-dir    where moviesd and tmdb-stub are (swift build --show-bin-path)
  --fixtures   the recordings (default $MOVIESD_FIXTURES, else ../shared/tmdb-fixtures)
  --interface  the shipped interface file (default Sources/MoviesDaemon/Interface/io.moviesd.Movies.varlink)
Exit status: 0 when every check passed, 1 when one failed, 2 on a usage or set-up error.
Needs: pip install varlink==31.0.0 (the same python3 that runs this script).
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

try:
    import varlink
    from varlink import scanner
except ImportError:
    print("varlink-typed-clients: python3 module varlink missing: python3 -m pip install varlink==31.0.0", file=sys.stderr)
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "typed-clients-stub-token"
WAIT_SECONDS = 30  # for a process to come up; generous for a loaded machine

# Which recording answers which request. Page 2 comes before page 1: the first match wins and a
# route's query parameters need only be a subset of the request's.
SEARCHES = [
    ("007", 2, "jellyfin__TMDbLib/bodies/search-movie-007-page-2.body.json"),
    ("007", None, "jellyfin__TMDbLib/bodies/search-movie-007-page-1.body.json"),
    ("Fight Club", None, "c-eg__themoviedbapi/search/movie.json"),
    ("Matrix", None, "chiiya__tmdb-php/search/movies.json"),
    ("Inception", None, "krelinga__go-tmdb/bodies/search-movie-Inception.body.json"),
    ("RRRrrrr", None, "jdrouet__tmdb-api/search-movie.json"),
    ("popular", None, "jdrouet__tmdb-api/movie-popular.json"),
    ("top rated", None, "jdrouet__tmdb-api/movie-top-rated.json"),
    ("similar", None, "jdrouet__tmdb-api/movie-similar.json"),
    ("recommendations", None, "jdrouet__tmdb-api/movie-recommendations.json"),
    ("now playing", None, "jdrouet__tmdb-api/movie-now-playing.json"),
    ("discover", None, "adamayoung__TMDb/integration/discover-movie.json"),
    ("nothing at all", None, "jellyfin__TMDbLib/bodies/discover-movie-empty.body.json"),
]
MOVIES = [
    (550, "c-eg__themoviedbapi/movies/details.json"),
    (9443, "adamayoung__TMDb/movie-blank-homepage-release-date.json"),
    (1236474, "jdrouet__tmdb-api/movie-latest.json"),
    (348, "krelinga__go-tmdb/bodies/movie-348.body.json"),
    (47964, "jellyfin__TMDbLib/bodies/movie-47964.body.json"),
]
# Words found offline in the local index of the movies the searches above cached: accents folded
# in Latin and Greek, a Hangul word, Japanese titles by prefix, substring and two characters.
LOCAL_QUERIES = [
    ("stuuut", 1542666),  # Stuuût 007
    ("εισπρακτωρ", 649110),  # Εισπράκτωρ 007
    ("철인", 931992),  # 철인 007
    ("千と千尋", 129),  # 千と千尋の神隠し
    ("神隠し", 129),
    ("千尋", 129),
    ("vita e bella", 637),  # La vita è bella
    ("seven samurai", 346),
]
MISSING_MOVIE = (999999999, "jellyfin__TMDbLib/bodies/movie-999999999.404.body.json")


class Checks:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def ok(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
            print("FAIL " + what, flush=True)
        return condition


def strict(interface, varlink_type, value, where, problems):
    """Appends to problems every way value does not conform to varlink_type."""
    if isinstance(varlink_type, scanner._Maybe):
        if value is not None:
            strict(interface, varlink_type.element_type, value, where, problems)
        return
    if value is None:
        problems.append(where + ": null for a non-optional field")
        return
    if isinstance(varlink_type, scanner._CustomType):
        member = interface.members.get(varlink_type.name)
        if member is None:
            problems.append(where + ": unknown type " + varlink_type.name)
            return
        strict(interface, member.type, value, where, problems)
        return
    if isinstance(varlink_type, scanner._Alias):
        strict(interface, varlink_type.type, value, where, problems)
        return
    if isinstance(varlink_type, scanner._Array):
        if not isinstance(value, list):
            problems.append(where + ": expected an array, got " + type(value).__name__)
            return
        for index, element in enumerate(value):
            strict(interface, varlink_type.element_type, element, "%s[%d]" % (where, index), problems)
        return
    if isinstance(varlink_type, scanner._Dict):
        if not isinstance(value, dict):
            problems.append(where + ": expected a map")
            return
        for key, element in value.items():
            strict(interface, varlink_type.element_type, element, "%s[%s]" % (where, key), problems)
        return
    if isinstance(varlink_type, scanner._Object):
        return
    if isinstance(varlink_type, scanner._Enum):
        if value not in list(varlink_type.fields):
            problems.append("%s: %r is not one of %s" % (where, value, list(varlink_type.fields)))
        return
    if isinstance(varlink_type, scanner._Struct):
        if not isinstance(value, dict):
            problems.append(where + ": expected an object, got " + type(value).__name__)
            return
        for name, field_type in varlink_type.fields.items():
            if name not in value:
                if not isinstance(field_type, scanner._Maybe):
                    problems.append(where + "." + name + ": missing")
                continue
            strict(interface, field_type, value[name], where + "." + name, problems)
        for name in value:
            if name not in varlink_type.fields:
                problems.append(where + "." + name + ": not in the IDL")
        return
    if isinstance(varlink_type, set):  # [string]()
        if not isinstance(value, dict):
            problems.append(where + ": expected a string set")
        return
    if isinstance(varlink_type, bool):
        if not isinstance(value, bool):
            problems.append("%s: expected bool, got %r" % (where, value))
        return
    if isinstance(varlink_type, int):
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append("%s: expected int, got %r" % (where, value))
        return
    if isinstance(varlink_type, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append("%s: expected float, got %r" % (where, value))
        return
    if isinstance(varlink_type, str):
        if not isinstance(value, str):
            problems.append("%s: expected string, got %r" % (where, value))
        return
    problems.append(where + ": unhandled IDL type " + repr(varlink_type))


class TypedClient:
    """The typed interface handle with every raw reply recorded for the strict check."""

    def __init__(self, address, checks):
        self.client = varlink.Client(address=address)
        self.handle = self.client.open("io.moviesd.Movies")
        self.interface = self.client.get_interface("io.moviesd.Movies")
        self.checks = checks
        self.raw = []
        self.called = set()
        original = self.handle._next_varlink_message

        def recording():
            try:
                parameters, more = original()
            except varlink.VarlinkError as error:
                self.raw.append(("error", error.error(), error.parameters()))
                raise
            self.raw.append(("reply", None, json.loads(json.dumps(parameters))))
            return parameters, more

        self.handle._next_varlink_message = recording

    def call(self, method, **parameters):
        """A typed call; returns the filtered reply or the VarlinkError; checks raw replies strictly."""
        self.raw = []
        self.called.add(method)
        label = "%s(%s)" % (method, json.dumps(parameters, ensure_ascii=False))
        more = parameters.pop("_more", False)
        try:
            if more:
                result = list(getattr(self.handle, method)(_more=True, **parameters))
            else:
                result = getattr(self.handle, method)(**parameters)
        except varlink.VarlinkError as error:
            result = error
        except Exception as error:  # the typed client's own rejection (InvalidParameter client.reply...)
            self.checks.ok(False, "%s: typed client raised %s: %s" % (label, type(error).__name__, error))
            return error
        self.check_raw(method, label)
        return result

    def check_raw(self, method, label):
        out_type = self.interface.get_method(method).out_type
        for kind, name, parameters in self.raw:
            problems = []
            if kind == "reply":
                strict(self.interface, out_type, parameters, "reply", problems)
            elif name.startswith("io.moviesd.Movies."):
                member = self.interface.members.get(name.rsplit(".", 1)[1])
                if not self.checks.ok(isinstance(member, scanner._Error), "%s: error %s not declared in the IDL" % (label, name)):
                    continue
                strict(self.interface, member.type, parameters or {}, name, problems)
            for problem in problems:
                self.checks.ok(False, "%s: %s" % (label, problem))
            if not problems:
                self.checks.ok(True, label)

    def close(self):
        self.handle.close()
        self.client.cleanup()


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def load(fixtures, path):
    with open(os.path.join(fixtures, path), encoding="utf-8") as handle:
        return json.load(handle)


def metrics_checks(address, checks):
    """io.systemd.Metrics (issue 42) through the reference client's typed calls: its served IDL
    parses, List and Describe stream with more, every name is under io.moviesd."""
    with varlink.Client.new_with_address(address) as client:
        interface = client.get_interface("io.systemd.Metrics")
        checks.ok(sorted(interface.members) == ["Describe", "List", "MetricFamilyType", "NoSuchMetric"],
                  "io.systemd.Metrics declares List, Describe, MetricFamilyType and NoSuchMetric (%r)" % sorted(interface.members))
        with client.open("io.systemd.Metrics", namespaced=True) as connection:
            values = list(connection.List(_more=True))
            families = list(connection.Describe(_more=True))
    names = {family.name: family.type for family in families}
    checks.ok(values and all(value.name.startswith("io.moviesd.") for value in values),
              "io.systemd.Metrics.List: %d values, every one under io.moviesd." % len(values))
    checks.ok(all(value.name in names for value in values), "io.systemd.Metrics.List: every value's family is described")
    checks.ok(set(names.values()) <= {"counter", "gauge", "string"}, "io.systemd.Metrics.Describe: types counter, gauge, string")


def run_checks(address, fixtures, shipped, checks):
    typed = TypedClient(address, checks)
    service = typed.client.open("org.varlink.service")
    served = service.GetInterfaceDescription(interface="io.moviesd.Movies")["description"]
    checks.ok(served == shipped, "GetInterfaceDescription serves exactly the shipped io.moviesd.Movies.varlink")
    info = service.GetInfo()
    checks.ok("io.moviesd.Movies" in info["interfaces"], "GetInfo lists io.moviesd.Movies")
    service.close()
    metrics_checks(address, checks)

    # Search: every recording, once from the network then from the cache (--more gives both).
    for query, page, path in SEARCHES:
        recording = load(fixtures, path)
        arguments = {"query": query}
        if page:
            arguments["page"] = page
        reply = typed.call("Search", **arguments)
        if not checks.ok(isinstance(reply, dict), "Search %r answered: %r" % (query, reply)):
            continue
        movies = reply["page"].get("movies", [])
        titles = [item.get("title") for item in recording["results"] if item.get("title")]
        checks.ok([m["title"] for m in movies] == titles[: len(movies)] and len(movies) == len(titles),
                  "Search %r: the recording's %d titles in order (got %d)" % (query, len(titles), len(movies)))
        checks.ok(reply["page"]["totalResults"] == recording["total_results"], "Search %r: totalResults" % query)
        for movie, item in zip(movies, recording["results"]):
            if item.get("vote_average") is not None and "voteAverage" in movie:
                checks.ok(abs(movie["voteAverage"] - float(item["vote_average"])) < 1e-9,
                          "Search %r: voteAverage of %s" % (query, item.get("id")))
        streamed = typed.call("Search", _more=True, **arguments)
        checks.ok(isinstance(streamed, list) and len(streamed) >= 1 and streamed[0]["freshness"]["origin"] == "cache",
                  "Search %r --more: the cached page first" % query)
    # The local index: movies those searches cached, found by other words without TMDB.
    for text, movie_id in LOCAL_QUERIES:
        reply = typed.call("Search", query=text, policy="local_only")
        found = isinstance(reply, dict) and reply["freshness"]["origin"] == "local_index" \
            and movie_id in [movie["id"] for movie in reply["page"].get("movies", [])]
        checks.ok(found, "Search %r local_only finds movie %d among cached movies (%r)" % (text, movie_id, reply))
    local = typed.call("Search", query="samurai", policy="cache_only")
    checks.ok(isinstance(local, dict) and local["freshness"]["origin"] == "local_index" and local["freshness"]["stale"]
              and local["page"]["totalResults"] >= 1,
              "Search cache_only of a query never searched answers from the local index (%r)" % (local,))
    cached = typed.call("Search", query="Matrix", policy="cache_only", maxStaleSeconds=0)
    checks.ok(isinstance(cached, (dict, varlink.VarlinkError)), "Search cache_only with maxStaleSeconds")
    typed.call("Search", query="", page=1)  # InvalidArgument, checked against the IDL
    typed.call("Search", query="never cached", policy="cache_only")  # NotCached
    nothing = typed.call("Search", query="zzqx", policy="local_only")
    checks.ok(isinstance(nothing, varlink.VarlinkError) and nothing.error() == "io.moviesd.Movies.NotCached",
              "Search local_only matching no cached movie: NotCached (%r)" % (nothing,))

    # Movie: every recorded record, with its nulls and empty strings.
    for movie_id, path in MOVIES:
        recording = load(fixtures, path)
        reply = typed.call("Movie", id=movie_id)
        if not checks.ok(isinstance(reply, dict), "Movie %d answered: %r" % (movie_id, reply)):
            continue
        movie = reply["movie"]
        checks.ok(movie["title"] == recording["title"], "Movie %d: title %r" % (movie_id, movie["title"]))
        checks.ok(movie.get("genres", []) == [genre["name"] for genre in recording.get("genres", [])], "Movie %d: genres" % movie_id)
        # TMDB's runtime 0 means unknown: moviesd answers null.
        checks.ok(movie.get("runtime") == (recording.get("runtime") or None), "Movie %d: runtime" % movie_id)
        typed.call("Movie", id=movie_id, policy="cache_only")
        typed.call("Movie", id=movie_id, _more=True)
    missing = typed.call("Movie", id=MISSING_MOVIE[0])
    checks.ok(isinstance(missing, varlink.VarlinkError) and missing.error() == "io.moviesd.Movies.NotFound",
              "Movie %d: NotFound (%r)" % (MISSING_MOVIE[0], missing))

    # Poster: the path of a recorded movie.
    poster_path = next(load(fixtures, path).get("poster_path") for _, path in MOVIES if load(fixtures, path).get("poster_path"))
    poster = typed.call("Poster", path=poster_path, width=92)
    checks.ok(isinstance(poster, dict) and poster.get("mimeType") == "image/png", "Poster %s" % poster_path)
    typed.call("Poster", path=poster_path)

    recent = typed.call("RecentQueries", limit=50)
    newest_first = list(dict.fromkeys(query for query, _, _ in reversed(SEARCHES)))
    checks.ok(isinstance(recent, dict) and recent.get("queries") and recent["queries"] == newest_first[: len(recent["queries"])],
              "RecentQueries lists the searches made, newest first (%r)" % (recent,))
    typed.call("RecentQueries")
    # The caller's own history only: clearing it forgets what this client searched.
    cleared = typed.call("ClearRecentQueries")
    checks.ok(isinstance(cleared, dict) and cleared.get("cleared") == len(recent["queries"]),
              "ClearRecentQueries forgets the caller's %d queries (%r)" % (len(recent["queries"]), cleared))
    checks.ok(typed.call("RecentQueries").get("queries") == [], "RecentQueries is empty after ClearRecentQueries")
    # A search made while the user types (remember false) is no recent query; SaveRecentQuery saves
    # the one the user commits to.
    typed.call("Search", query="Fight Club", remember=False)
    checks.ok(typed.call("RecentQueries").get("queries") == [], "Search with remember false saves no recent query")
    typed.call("SaveRecentQuery", query="Fight Club")
    checks.ok(typed.call("RecentQueries").get("queries") == ["Fight Club"], "SaveRecentQuery saves the committed query")
    typed.call("ClearRecentQueries")

    # Watchlists: a non-Latin query, movies from the recordings, a refresh with and without more.
    added = typed.call("AddToWatchlist", name="typed", queries=["007", "Fight Club"], movieIds=[550, 348], pages=2)
    checks.ok(isinstance(added, dict) and added["watchlist"]["movieIds"] == [550, 348] or
              isinstance(added, dict) and sorted(added["watchlist"]["movieIds"]) == [348, 550], "AddToWatchlist (%r)" % (added,))
    lists = typed.call("Watchlists")
    checks.ok(isinstance(lists, dict) and any(w["name"] == "typed" for w in lists["watchlists"]), "Watchlists lists it")
    # Issue 31: a personal list carries its owner's uid, a system list none; both under one name.
    mine = typed.call("AddToWatchlist", name="mine", movieIds=[550], system=False)
    checks.ok(isinstance(mine, dict) and mine["watchlist"].get("owner") == os.getuid(), "a personal list names its owner (%r)" % (mine,))
    shared = typed.call("AddToWatchlist", name="shared", movieIds=[550], system=True)
    checks.ok(isinstance(shared, dict) and "owner" not in shared["watchlist"], "a system list has no owner (%r)" % (shared,))
    everyone = typed.call("Watchlists", allUsers=True)
    checks.ok(isinstance(everyone, dict) and len(everyone["watchlists"]) >= 3, "Watchlists allUsers (root)")
    checks.ok(isinstance(typed.call("DeleteWatchlist", name="mine", system=False), dict), "DeleteWatchlist of one's own")
    checks.ok(isinstance(typed.call("DeleteWatchlist", name="shared", system=True), dict), "DeleteWatchlist of the system's")
    typed.call("Pending", system=True)  # NotSignedIn, checked against the IDL
    typed.call("Refresh", watchlist="typed")
    progress = typed.call("Refresh", watchlist="typed", _more=True)
    checks.ok(isinstance(progress, list) and progress and "summary" in progress[-1], "Refresh --more ends with a summary")
    typed.call("Refresh")
    status = typed.call("Status")
    checks.ok(isinstance(status, dict) and status["cache"]["entries"] > 0, "Status counts the cached entries")
    removed = typed.call("RemoveFromWatchlist", name="typed", queries=["Fight Club"], movieIds=[348])
    checks.ok(isinstance(removed, dict) and removed["watchlist"]["movieIds"] == [550], "RemoveFromWatchlist")
    typed.call("RemoveFromWatchlist", name="no such list", queries=["x"])  # an error, checked against the IDL
    checks.ok(isinstance(typed.call("DeleteWatchlist", name="typed"), dict), "DeleteWatchlist")
    typed.call("Invalidate", query="007")
    typed.call("Invalidate", movieId=550)
    invalidated = typed.call("Invalidate", all=True)
    checks.ok(isinstance(invalidated, dict) and invalidated["entries"] > 0, "Invalidate all")
    stale = typed.call("Search", query="Matrix", policy="cache_only")
    checks.ok(isinstance(stale, dict) and stale["freshness"]["stale"] is True, "an invalidated entry answers stale")
    typed.call("Purge", query="Inception")
    typed.call("Purge", posters=True)
    purged = typed.call("Purge", all=True)
    checks.ok(isinstance(purged, dict) and purged["entries"] > 0, "Purge all")
    # The catalogue: the stand-in's daily ID export (moviesd asks the host of its [Remote] URL=),
    # then searched after the cached movies, its titles marked.
    imported = typed.call("UpdateCatalogue")
    checks.ok(isinstance(imported, dict) and imported["summary"]["titles"] > 2000 and imported["summary"]["added"] == imported["summary"]["titles"],
              "UpdateCatalogue imports the stand-in's export (%r)" % (imported,))
    described = typed.call("Status")
    checks.ok(isinstance(described, dict) and isinstance(imported, dict)
              and described.get("catalogue", {}).get("titles") == imported["summary"]["titles"],
              "Status: the catalogue (%r)" % (described.get("catalogue") if isinstance(described, dict) else described,))
    listed = typed.call("Search", query="the", policy="local_only")
    checks.ok(isinstance(listed, dict) and any(m.get("catalogue") is True for m in listed["page"].get("movies", [])),
              "Search local_only lists catalogue titles, marked (%r)" % (listed,))
    # The account: sign in (the stub approves every request at once), edits, lists, outbox, sync.
    before = typed.call("Pending")
    checks.ok(isinstance(before, varlink.VarlinkError) and before.error() == "io.moviesd.Movies.NotSignedIn",
              "Pending before signing in: NotSignedIn (%r)" % (before,))
    first = typed.call("AccountLogin")
    checks.ok(isinstance(first, dict) and not first["signedIn"] and first.get("approvalUrl", "").startswith("https://www.themoviedb.org/authenticate/"),
              "AccountLogin: the approval address (%r)" % (first,))
    login = typed.call("AccountLogin")
    checks.ok(isinstance(login, dict) and login["signedIn"] and login.get("accountId") == 22011, "AccountLogin: signed in (%r)" % (login,))
    added = typed.call("AccountEdit", list="watchlist", movieId=550, on=True)
    checks.ok(isinstance(added, dict) and added["onTmdb"] and added["entry"]["movieId"] == 550, "AccountEdit: on TMDB (%r)" % (added,))
    typed.call("AccountEdit", list="favorite", movieId=603, on=True, waitSeconds=5.0)
    rated = typed.call("AccountEdit", list="rated", movieId=603, rating=8.5)
    checks.ok(isinstance(rated, dict) and rated["entry"].get("rating") == 8.5, "AccountEdit: a rating (%r)" % (rated,))
    typed.call("AccountEdit", list="rated", movieId=550)  # removes a rating never given: idempotent
    bad = typed.call("AccountEdit", list="rated", movieId=603, rating=11.0)
    checks.ok(isinstance(bad, varlink.VarlinkError) and bad.error() == "io.moviesd.Movies.InvalidArgument", "AccountEdit: rating 11 refused (%r)" % (bad,))
    synced = typed.call("Sync", waitSeconds=30.0)
    checks.ok(isinstance(synced, dict) and synced["sync"]["pending"] == 0 and synced["sync"]["activity"] == "idle", "Sync --wait settles (%r)" % (synced,))
    typed.call("Sync")
    account = typed.call("Account")
    checks.ok(isinstance(account, dict) and [m["id"] for m in account["watchlist"]] == [550] and [m["id"] for m in account["favorites"]] == [603]
              and [(m["id"], m.get("rating")) for m in account["rated"]] == [(603, 8.5)] and account["watchlist"][0].get("title") == "Fight Club",
              "Account: the lists with titles (%r)" % (account,))
    outbox = typed.call("Pending", dismissRejected=True)
    checks.ok(isinstance(outbox, dict) and outbox["entries"] == [], "Pending: nothing waits (%r)" % (outbox,))
    status = typed.call("Status")
    checks.ok(isinstance(status, dict) and status.get("account", {}).get("username") == "stub-user", "Status: the account section")
    logout = typed.call("AccountLogout")
    checks.ok(isinstance(logout, dict) and logout["pending"] == 0, "AccountLogout (%r)" % (logout,))
    declared = {name for name, member in typed.interface.members.items() if isinstance(member, scanner._Method)}
    checks.ok(declared <= typed.called, "every method has a typed call (missing: %s)" % sorted(declared - typed.called))
    typed.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--fixtures", default=os.environ.get("MOVIESD_FIXTURES") or os.path.join(os.path.dirname(ROOT), "shared", "tmdb-fixtures"))
    parser.add_argument("--interface", default=os.path.join(ROOT, "Sources", "MoviesDaemon", "Interface", "io.moviesd.Movies.varlink"))
    options = parser.parse_args()
    if not os.path.isfile(os.path.join(options.fixtures, "manifest.json")):
        print("varlink-typed-clients: no fixtures at %s (set MOVIESD_FIXTURES)" % options.fixtures, file=sys.stderr)
        return 2
    with open(options.interface, encoding="utf-8") as handle:
        shipped = handle.read()

    work = tempfile.mkdtemp(prefix="moviesd-typed-")
    stub = daemon = None
    try:
        port_file = os.path.join(work, "stub.port")
        routes = []
        for query, page, path in SEARCHES:
            route = "/3/search/movie?query=" + query.replace(" ", "+") + ("&page=%d" % page if page else "")
            routes += ["--recording", route + "=" + os.path.join(options.fixtures, path)]
        for movie_id, path in MOVIES:
            routes += ["--recording", "/3/movie/%d=%s" % (movie_id, os.path.join(options.fixtures, path))]
        routes += ["--recording", "/3/movie/%d=404:%s" % (MISSING_MOVIE[0], os.path.join(options.fixtures, MISSING_MOVIE[1]))]
        stub_log = open(os.path.join(work, "stub.log"), "w")
        stub = subprocess.Popen([os.path.join(options.bin_dir, "tmdb-stub"), "--token", TOKEN, "--port-file", port_file, "--auto-approve", "--export-size", "3000"] + routes,
                                stdout=stub_log, stderr=subprocess.STDOUT)
        if not wait_for(lambda: os.path.exists(port_file) or stub.poll() is not None, WAIT_SECONDS) or stub.poll() is not None:
            print("varlink-typed-clients: tmdb-stub did not start: " + open(os.path.join(work, "stub.log")).read(), file=sys.stderr)
            return 2
        with open(port_file) as handle:
            port = int(handle.read().strip())
        socket_path = os.path.join(work, "moviesd.sock")
        daemon_log = open(os.path.join(work, "moviesd.log"), "w")
        environment = dict(os.environ, MOVIESD_TMDB_TOKEN=TOKEN)
        daemon = subprocess.Popen([os.path.join(options.bin_dir, "moviesd"), "--socket", socket_path,
                                   "--database", os.path.join(work, "cache.sqlite3"),
                                   "--remote-url", "http://127.0.0.1:%d/3/" % port],
                                  stdout=daemon_log, stderr=subprocess.STDOUT, env=environment)
        if not wait_for(lambda: os.path.exists(socket_path) or daemon.poll() is not None, WAIT_SECONDS) or daemon.poll() is not None:
            print("varlink-typed-clients: moviesd did not start: " + open(os.path.join(work, "moviesd.log")).read(), file=sys.stderr)
            return 2
        checks = Checks()
        run_checks("unix:" + socket_path, options.fixtures, shipped, checks)
        print("varlink-typed-clients: %d checks passed, %d failed" % (checks.passed, len(checks.failures)))
        if checks.failures and os.environ.get("VERBOSE"):
            print(open(os.path.join(work, "moviesd.log")).read(), file=sys.stderr)
        return 1 if checks.failures else 0
    finally:
        for process in (daemon, stub):
            if process is not None:
                stop(process)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
