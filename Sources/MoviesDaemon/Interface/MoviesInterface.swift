/// The `io.moviesd.Movies` Varlink interface definition, served verbatim by
/// `org.varlink.service.GetInterfaceDescription`.
///
/// This text must stay identical to `io.moviesd.Movies.varlink` beside this file (the file is
/// what packagers and `varlinkctl` users read); a test compares the two.
public enum MoviesInterface {
    /// The interface name.
    public static let name = "io.moviesd.Movies"

    /// The interface description (IDL text).
    public static let description = """
# moviesd: an offline-first cache of The Movie Database (TMDB) API v3.
# Every answer says where it came from (cache or network) and how old it is.
# This product uses the TMDB API but is not endorsed or certified by TMDB.
interface io.moviesd.Movies

# How a request may use the cache and the network.
# local_only: Search looks only in the local index of every cached movie (for Movie: cache_only).
type FetchPolicy (cache_then_network, cache_first, network_only, cache_only, local_only)

# Why the local database failed: disk full, locked by another process, damaged file, I/O error.
type StorageFault (full, locked, corrupt, unavailable)

# Where an answer came from and how old it is.
type Freshness (
  # local_index: found among cached movies (Search), because TMDB could not answer a query with
  # no cached page, or the policy was local_only; fetchedAt is the oldest movie's, always stale.
  origin: (cache, network, revalidated, local_index),
  # RFC 3339 UTC time the data was fetched from (or confirmed by) TMDB.
  fetchedAt: string,
  ageSeconds: int,
  # Past its fresh lifetime.
  stale: bool,
  # Why fresh data could not be had, when a fetch failed or was skipped.
  remoteError: ?string,
  # false when a network answer could not be stored in the cache (it will not be there offline);
  # absent when it was stored or came from the cache.
  stored: ?bool,
  # Why it was not stored.
  storageFault: ?StorageFault
)

# One movie in a result list.
type MovieSummary (
  id: int,
  title: string,
  originalTitle: ?string,
  overview: ?string,
  # YYYY-MM-DD
  releaseDate: ?string,
  posterPath: ?string,
  voteAverage: ?float,
  originalLanguage: ?string,
  # TMDB's popularity score (higher is more popular).
  popularity: ?float,
  # true for a movie known only from the catalogue (TMDB's daily ID export), not cached: its
  # title is the original title and its details come when TMDB is reachable. Absent otherwise.
  catalogue: ?bool
)

# One page of search results, in TMDB's order.
type MoviesPage (
  page: int,
  totalPages: int,
  totalResults: int,
  movies: []MovieSummary
)

# One movie's full record.
type MovieDetails (
  id: int,
  title: string,
  originalTitle: ?string,
  originalLanguage: ?string,
  overview: ?string,
  tagline: ?string,
  releaseDate: ?string,
  runtime: ?int,
  genres: []string,
  homepage: ?string,
  imdbId: ?string,
  posterPath: ?string,
  backdropPath: ?string,
  voteAverage: ?float,
  voteCount: ?int,
  status: ?string,
  popularity: ?float,
  # true when TMDB could not be asked or reached and nothing is cached, but the catalogue (TMDB's
  # daily ID export) knows the movie: its original title and popularity alone; the details come
  # when TMDB is reachable. Absent otherwise.
  catalogue: ?bool
)

# What a shared HTTP cache in front of TMDB (etc/fleet: nginx proxy_cache) said about the answers:
# the last X-Cache-Status (HIT, MISS, STALE, UPDATING, REVALIDATED, EXPIRED, BYPASS), its Via,
# and how many answers it served from its cache (hits) or asked TMDB for (misses).
type SharedCacheStatus (
  lastStatus: string,
  via: ?string,
  hits: int,
  misses: int
)

# Whether moviesd has a TMDB credential (a token or an API key) to ask TMDB with. missing: none
# is configured, so TMDB is never asked and answers come from the cache alone.
type Credential (configured, missing)

# TMDB's reachability, decided from request outcomes.
type RemoteStatus (
  state: (unknown, online, offline, auth_rejected, rate_limited),
  # With no credential state stays unknown: this field says why. (A field of its own rather than a
  # sixth state, so that clients knowing only the five states above still decode the reply.)
  # Absent from daemons that do not report it.
  credential: ?Credential,
  since: ?string,
  lastError: ?string,
  retryAt: ?string,
  consecutiveFailures: int,
  # Present when answers come through a shared cache.
  sharedCache: ?SharedCacheStatus
)

# Size and composition of the local cache.
type CacheStats (
  entries: int,
  bytes: int,
  staleEntries: int,
  pinnedEntries: int,
  byteBudget: int,
  # Bytes of the pinned entries.
  pinnedBytes: ?int
)

# What the catalogue holds: TMDB's daily ID export, searched offline after the cached movies.
type CatalogueStatus (
  # YYYY-MM-DD: the day of the export imported last; absent before the first import.
  exportDate: ?string,
  titles: int,
  # RFC 3339 UTC time the last import finished.
  importedAt: ?string,
  bytesOnDisk: int
)

# What an import of the daily ID export changed.
type CatalogueImportSummary (
  # YYYY-MM-DD: the export's day.
  exportDate: string,
  # Titles in the catalogue after the import.
  titles: int,
  added: int,
  removed: int,
  # Titles whose text changed, or whose popularity moved them in the search's order.
  retitled: int,
  # Lines left out: adult or video entries (without [Catalogue] IncludeAdult=yes).
  skipped: int,
  # Lines that could not be read.
  unreadable: int
)

# The local database's health: ok, or the fault of the last failed operation.
type StorageHealth (
  state: (ok, full, locked, corrupt, unavailable),
  # RFC 3339 UTC time since when the state holds.
  since: ?string,
  lastError: ?string
)

# A search query of a watchlist and how many of its result pages are prefetched.
type WatchlistQuery (query: string, pages: int)

# A named list of queries and movies kept prefetched and pinned (never evicted) for offline use.
# A system list (no owner) is the daemon's: listed to everyone, changed by root, moviesd's user and
# the admin group. A personal list (owner: the uid) is its owner's: listed to, changed and
# refreshed by that user and root only. A personal list may share a system list's name.
type Watchlist (name: string, queries: []WatchlistQuery, movieIds: []int, owner: ?int)

# One step of a watchlist refresh and the running counts.
type RefreshProgress (
  watchlist: string,
  step: string,
  done: int,
  failed: int,
  skipped: int,
  total: int,
  # Steps left alone because their cached entry is current (refresh fetches what is due).
  current: ?int
)

# The outcome of a watchlist refresh.
type RefreshSummary (
  done: int,
  failed: int,
  skipped: int,
  durationSeconds: float,
  # RFC 3339 UTC.
  finishedAt: string,
  firstError: ?string,
  # TMDB rejected the credential (code 7): a configuration problem, not an outage.
  authRejected: bool,
  # Steps left alone because their cached entry is current (neither expired, nor inside the
  # refresh-ahead window, nor listed as changed by TMDB's change feed).
  current: ?int,
  # Pinned movies TMDB's change feed listed as changed, fetched again before the lists.
  changed: ?int,
  # Entries of the lists left unpinned, most not fetched either: the owner's pins reached its
  # byte budget ([Users] PinnedBytesPerUser=; the system's: [Cache] MaxBytes=).
  overBudget: ?int,
  # The bytes the owner's pins take after the refresh, and the owner's budget for them (added up
  # over the owners of a refresh of several owners' lists).
  pinnedBytes: ?int,
  pinBudgetBytes: ?int
)

# How the last run of the change feed ended. failed: nothing applied, the cursor did not move;
# full_revalidation: the cursor was too old to bridge, every pinned movie was fetched again.
type ChangeFeedOutcome (ok, failed, full_revalidation)

# TMDB's change feed: cached movies it lists are fetched again (pinned) or marked stale; the
# others stay fresh without a request.
type ChangeFeedStatus (
  # UTC date (YYYY-MM-DD) through which changes are applied; absent before the first run.
  syncedThrough: ?string,
  # RFC 3339 UTC: when the last run ended.
  lastRunAt: ?string,
  lastOutcome: ?ChangeFeedOutcome,
  lastError: ?string,
  # Of the last run: cached movies found changed, pinned ones fetched again, cached movies kept
  # fresh without a request, and the requests it made.
  changedCached: int,
  refetched: int,
  validated: int,
  requests: int
)

# The refresh engine as the caller may see it: whether a refresh of the system's or their own lists
# runs (root: anyone's), the progress of those they may change, the last refresh of lists they see
# (firstError only for those they may change), and the refresh-ahead scheduler.
type RefreshStatus (
  running: bool,
  progress: ?RefreshProgress,
  last: ?RefreshSummary,
  scheduler: (disabled, idle, backing_off),
  # RFC 3339 UTC: when the scheduler next looks for due entries.
  nextRunAt: ?string,
  # Absent with [Refresh] ChangeFeed=no.
  changeFeed: ?ChangeFeedStatus
)

# One of the TMDB account's movie lists.
type AccountList (watchlist, favorite, rated)

# A movie on an account list.
type AccountItem (
  id: int,
  title: ?string,
  # YYYY-MM-DD
  releaseDate: ?string,
  # The user's rating (rated list).
  rating: ?float,
  # An edit TMDB has not confirmed yet put it here (or changed its rating).
  pending: bool
)

# An entry of the account's outbox: an edit made here, sent to TMDB in seq order.
type PendingEdit (
  seq: int,
  list: AccountList,
  movieId: int,
  # watchlist and favorite: whether the movie is to be on the list.
  on: ?bool,
  # rated: the rating (0.5-10); absent: the rating is to be removed.
  rating: ?float,
  # pending: waiting to be sent (again, at nextAttemptAt); blocked_on_auth: waiting for a new
  # sign-in; delivered: TMDB has it, a pull has not shown it yet; rejected: TMDB refused it for
  # good, the change was undone, lastError says why (until dismissed).
  state: (pending, blocked_on_auth, delivered, rejected),
  # RFC 3339 UTC.
  createdAt: string,
  attempts: int,
  lastError: ?string,
  nextAttemptAt: ?string
)

# The account's outbox.
type AccountSyncStatus (
  # offline: TMDB cannot be reached or rate limits, edits wait; blocked_on_auth: TMDB refused the
  # session, edits are kept until the next sign-in.
  activity: (signed_out, idle, syncing, offline, blocked_on_auth),
  accountId: ?int,
  username: ?string,
  # Edits not on TMDB yet.
  pending: int,
  # Edits on TMDB that a pull has not shown yet.
  unconfirmed: int,
  # Edits TMDB refused (until dismissed).
  rejected: int,
  # RFC 3339 UTC times.
  lastSuccessAt: ?string,
  lastError: ?string,
  pulledAt: ?string,
  nextAttemptAt: ?string
)

# One page of search results for a query (1-500), cached then remote.
# With "more", the cached page (if any) comes first, then the fresh page or an error.
# A query with no cached page that TMDB cannot answer (offline, failing, rate limited, or the
# policy is cache_only) is answered from the local index of every cached movie when it matches
# any (freshness.origin local_index, totalResults the local matches); else the error stands.
# language: a TMDB language tag (en, en-US; default: the daemon's [Remote] Language=, else TMDB's).
# region: an ISO 3166-1 code, two upper-case letters (GB): release dates of that region.
# year: only movies released that year (1874-2100). Each is part of the cache key; the local
# index honours language and year, not region.
# Once TMDB answered, the query is saved to the caller's recent queries, unless remember is false
# (a search made while the user types; SaveRecentQuery saves the query the user commits to).
method Search(
  query: string,
  page: ?int,
  language: ?string,
  policy: ?FetchPolicy,
  maxStaleSeconds: ?int,
  region: ?string,
  year: ?int,
  remember: ?bool
) -> (page: MoviesPage, freshness: Freshness)

# One movie's details, cached then remote; language as for Search.
method Movie(id: int, language: ?string, policy: ?FetchPolicy) -> (movie: MovieDetails, freshness: Freshness)

# A poster image at the TMDB size nearest to width (original when absent), base64-encoded.
method Poster(path: string, width: ?int) -> (mimeType: string, base64: string, width: int, freshness: Freshness)

# The caller's own recent successful search queries, newest first (private to each user:
# nobody sees another user's).
method RecentQueries(limit: ?int) -> (queries: []string)

# Saves query as the caller's own newest recent search query (nobody's without credentials): the
# query a user committed to after searching it with remember: false.
method SaveRecentQuery(query: string) -> ()

# Forgets the caller's own recent search queries, nobody else's; says how many there were.
method ClearRecentQueries() -> (cleared: int)

# The daemon's version, uptime, remote state, cache statistics and storage health.
# When the cache cannot be read, its counts are 0 and storage says why.
method Status() -> (
  version: string,
  uptimeSeconds: int,
  remote: RemoteStatus,
  cache: CacheStats,
  storage: ?StorageHealth,
  # RFC 3339 UTC time the last refresh of watchlists the caller sees finished (refresh.last).
  lastRefresh: ?string,
  refresh: ?RefreshStatus,
  # The caller's own TMDB account's outbox (absent without a TMDB credential).
  account: ?AccountSyncStatus,
  # The system's TMDB account's outbox (the admin group's): for root, moviesd's user and the
  # admin group only.
  systemAccount: ?AccountSyncStatus,
  # What the catalogue holds (absent from a daemon without one).
  catalogue: ?CatalogueStatus
)

# Every system watchlist, then the caller's own personal ones; allUsers: every user's too (root only).
method Watchlists(allUsers: ?bool) -> (watchlists: []Watchlist)

# Which list a watchlist method changes: with system: true, the system list of that name (root,
# moviesd's user and the admin group only); with owner, that user's (root only; system: false is
# the caller's own); with neither, the caller's own list of that name if they have one, else the
# system list of that name if the caller may change it and it exists, else the caller's own.
# Anyone may keep personal lists, within [Users] WatchlistsPerUser= and EntriesPerUser=.

# Adds queries (each prefetched to pages deep, default 3) and movies to a watchlist, creating it.
method AddToWatchlist(
  name: string,
  queries: ?[]string,
  movieIds: ?[]int,
  pages: ?int,
  system: ?bool,
  owner: ?int
) -> (watchlist: Watchlist)

# Removes queries and movies from a watchlist.
method RemoveFromWatchlist(name: string, queries: ?[]string, movieIds: ?[]int, system: ?bool, owner: ?int) -> (watchlist: Watchlist)

# Deletes a watchlist; its entries stay cached but are no longer pinned (unless another list of its
# owner's, or another owner, pins them).
method DeleteWatchlist(name: string, system: ?bool, owner: ?int) -> ()

# Refreshes one watchlist, or every list the caller may change (root: all; the admin group: the
# system's and their own; anyone else: their own). Refreshes of different owners' lists run at
# once; a running refresh of the same owner's lists that covers this one is joined, any other
# refresh of theirs is waited for.
# Fetches what is due (never fetched, expired, inside the refresh-ahead window, or listed by
# TMDB's change feed) and leaves the rest alone (counted as current); all: true fetches every
# entry again (revalidating where TMDB gave an ETag). With "more", one reply per step with its progress, then a final reply with the last progress
# and the summary; without "more", only the final reply.
method Refresh(watchlist: ?string, all: ?bool, system: ?bool, owner: ?int) -> (progress: RefreshProgress, summary: ?RefreshSummary)

# Marks cached entries stale but keeps them for offline use (authorised callers only).
# With no parameter, or all: true, every entry; otherwise the entries of the given query or movie.
method Invalidate(query: ?string, movieId: ?int, posters: ?bool, all: ?bool) -> (entries: int)

# Deletes cached entries (authorised callers only); same selection as Invalidate. Entries a
# watchlist pinned for offline use are deleted too: pinned counts them (the next refresh of
# their watchlist fetches them again).
method Purge(query: ?string, movieId: ?int, posters: ?bool, all: ?bool) -> (entries: int, pinned: int)

# Downloads TMDB's newest daily ID export (or, while it is missing, an earlier day's) and imports
# it into the catalogue now (authorised callers only). A failed download or import leaves the
# catalogue of before whole and fails with CatalogueFailed.
method UpdateCatalogue() -> (summary: CatalogueImportSummary)

# The account methods act on the caller's own TMDB account: each local user signs in to their
# own, and their session, edits, outbox and pulled lists are theirs alone. With system: true they
# act on the system's account (the admin group's, and systemd's LoadCredential=tmdb-session): for
# root, moviesd's user and the admin group only.

# Signs in to TMDB: completes a request the user approved, or starts one and returns
# approvalUrl, the page where the user approves it (then call again).
method AccountLogin(system: ?bool) -> (signedIn: bool, accountId: ?int, username: ?string, approvalUrl: ?string, expiresAt: ?string)

# Ends the TMDB session; pending edits stay for the next sign-in.
method AccountLogout(system: ?bool) -> (pending: int)

# Edits the account's lists, offline too (at most [Users] PendingEditsPerUser= waiting): the change and its outbox
# entry are recorded at once, then sent to TMDB. Without waitSeconds the reply waits for TMDB's
# first answer only while TMDB is answering (at most 2 s): a failed attempt, or TMDB unreachable
# or hanging, replies pending at once. With waitSeconds (0-60) it waits that long for TMDB to take
# the edit, through retries. onTmdb says which. watchlist and favorite take on; rated takes
# rating, or no rating to remove it.
method AccountEdit(
  list: AccountList,
  movieId: int,
  on: ?bool,
  rating: ?float,
  waitSeconds: ?float,
  system: ?bool
) -> (entry: PendingEdit, onTmdb: bool, sync: AccountSyncStatus)

# The account's lists as last pulled from TMDB, with every unconfirmed edit applied. After a
# sign-out, signedIn is false and they are the last account's lists as they were.
method Account(system: ?bool) -> (
  accountId: int,
  username: ?string,
  pulledAt: ?string,
  watchlist: []AccountItem,
  favorites: []AccountItem,
  rated: []AccountItem,
  signedIn: ?bool
)

# The outbox, oldest first; dismissRejected forgets rejected entries first.
method Pending(dismissRejected: ?bool, system: ?bool) -> (entries: []PendingEdit, sync: AccountSyncStatus)

# Sends pending edits and pulls the account's lists now. With
# waitSeconds (at most 3600), returns when every edit is on TMDB and shown by its lists, when
# TMDB refuses the session, or when the time is up; sync says which.
method Sync(waitSeconds: ?float, system: ?bool) -> (sync: AccountSyncStatus)

# TMDB could not be reached or failed; nothing usable was cached.
error RemoteUnavailable (reason: string, retryAfterSeconds: ?int)

# The policy forbids the network and nothing usable is cached.
error NotCached (reason: string)

# TMDB has no such movie (id), or no such poster or watchlist (id 0; reason says what, watchlist names it).
error NotFound (id: int, reason: ?string, watchlist: ?string)

# TMDB refused the request (for example an invalid API key, TMDB code 7).
error RemoteRejected (httpStatus: int, tmdbCode: ?int, message: string)

# A parameter is well-typed but not acceptable (page out of range, empty query...).
error InvalidArgument (parameter: string, reason: string)

# The call did not finish within the daemon's per-call deadline.
error Timeout (seconds: int)

# The local database failed; reason says what to do, fault is the typed cause.
error StorageFailure (reason: string, fault: ?StorageFault)

# Nobody is signed in to TMDB (movies account login), or the daemon has no TMDB credential.
error NotSignedIn (reason: string)

# The caller's fair share is used up: limit names the [Users] setting of moviesd.conf
# (WatchlistsPerUser, EntriesPerUser or PendingEditsPerUser), maximum is its value.
error QuotaExceeded (limit: string, maximum: int, reason: string)

# The connection was refused: its user holds MaxConnectionsPerUser= connections, or the daemon is
# full (limit is the one hit). Sent instead of the first reply; the connection is then closed.
error TooManyConnections (limit: int, reason: string)

# The catalogue could not be updated; the catalogue of before is whole. code is one of
# export_not_found, download_failed, corrupt, truncated, unusable, disk_full, storage,
# zlib_unavailable.
error CatalogueFailed (code: string, reason: string)

"""
}
