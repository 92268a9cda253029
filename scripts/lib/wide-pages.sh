# shellcheck shell=bash
# The wide working set of scripts/bench and scripts/bench-ab: many distinct ~15 KB search pages of
# a tmdb-stub started with --movies 50000.

# Writes "QUERY<TAB>PAGE" lines to $2: single letters and letter pairs, each query's pages in turn
# (at most 500 a query, TMDB's limit), asked of the stub on 127.0.0.1:$1; stops once $3 lines are
# written (default: all of them).
wide_pages() {
  local port="$1" file="$2" most="${3:-}" query pages page
  : >"$file"
  for query in e a i o n r t s l h m c g d f y v u w k b p an er in on ar en or re st te al ri ra le ro la; do
    pages="$(curl -fsS -H 'Authorization: Bearer stub-token' "http://127.0.0.1:$port/3/search/movie?query=$query&page=1" | jq '[.total_pages, 500] | min')"
    for page in $(seq 1 "$pages"); do printf '%s\t%s\n' "$query" "$page" >>"$file"; done
    [ -n "$most" ] && [ "$(wc -l <"$file")" -ge "$most" ] && break
  done
  return 0
}

# Waits (at most 120 s) until the search index of the cache database $1 has caught up with the
# pages just stored (its queue is empty), so that a measurement does not share the CPU with the
# indexing; at once for a daemon whose database has no such queue (older than the index).
wait_for_index() {
  local database="$1" waited=0 queued
  while queued="$(sqlite3 "$database" 'SELECT count(*) FROM movie_index_queue' 2>/dev/null)" && [ -n "$queued" ] && [ "$queued" != 0 ]; do
    waited=$((waited + 1))
    [ "$waited" -le 1200 ] || { echo "warning: the index queue of $database was not empty after 120 s; measuring anyway" >&2; return 0; }
    sleep 0.1
  done
}
