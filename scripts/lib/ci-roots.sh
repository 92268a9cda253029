# shellcheck shell=bash
# Debian roots for scripts/test-systemd, cached under $MOVIESD_CI_CACHE (default /var/cache/moviesd-ci).
# A root's directory name carries the suite and a hash of everything that decides its contents
# (suite, variant, package list, mirror), so a changed list builds a new root and a rerun reuses the old
# one in seconds. A root is built in a temporary directory beside the cache and renamed into place, so an
# interrupted debootstrap never leaves a half-built root that a later run would trust.

CI_CACHE="${MOVIESD_CI_CACHE:-/var/cache/moviesd-ci}"
CI_MIRROR="${MOVIESD_CI_MIRROR:-http://deb.debian.org/debian}"
# What the package's Depends need beyond minbase (libsqlite3-0, libcurl4 for URLSession), what the
# test drives (systemd, dbus for systemctl, libpam-systemd for a lingering user's service manager,
# which needs pam_systemd to get its XDG_RUNTIME_DIR, python3 for the Python client, sqlite3 to look
# into the cache), and nothing else. libcurl4 became libcurl4t64 in Debian 13.
CI_PACKAGES="systemd,systemd-sysv,dbus,libpam-systemd,libsqlite3-0,sqlite3,python3,ca-certificates"

# suite_packages SUITE: the --include list for SUITE.
suite_packages() {
  case "$1" in
    bookworm) printf '%s,libcurl4\n' "$CI_PACKAGES" ;;
    *) printf '%s,libcurl4t64\n' "$CI_PACKAGES" ;;
  esac
}

# root_path SUITE: prints the cached root's path for SUITE (it may not exist yet).
root_path() {
  local suite="$1" key
  key="$(printf '%s\n' "$suite" minbase "$(suite_packages "$suite")" "$CI_MIRROR" | sha256sum | cut -c1-16)"
  printf '%s/roots/%s-%s\n' "$CI_CACHE" "$suite" "$key"
}

# ensure_root SUITE: builds the cached root for SUITE unless it is there; prints its path.
ensure_root() {
  local suite="$1" root tmp lock
  root="$(root_path "$suite")"
  if [ -d "$root" ]; then printf '%s\n' "$root"; return 0; fi
  mkdir -p "$CI_CACHE/roots"
  # One builder per suite at a time; under the lock, what an interrupted build left is garbage.
  exec {lock}>"$CI_CACHE/roots/.lock-$suite"
  flock "$lock"
  if [ -d "$root" ]; then exec {lock}>&-; printf '%s\n' "$root"; return 0; fi
  rm -rf --one-file-system "$CI_CACHE/roots/.build-$suite-"*
  tmp="$(mktemp -d "$CI_CACHE/roots/.build-$suite-XXXXXX")"
  echo "test-systemd: debootstrap $suite into $tmp (minbase + $(suite_packages "$suite"))" >&2
  if ! debootstrap --variant=minbase --include="$(suite_packages "$suite")" "$suite" "$tmp" "$CI_MIRROR" \
      >"$tmp.log" 2>&1; then
    echo "test-systemd: debootstrap $suite failed; last lines of $tmp.log:" >&2
    tail -20 "$tmp.log" >&2
    rm -rf --one-file-system "$tmp"
    exec {lock}>&-
    return 1
  fi
  # Trim what a test never reads and give the container a machine id of its own.
  rm -rf --one-file-system "$tmp/var/cache/apt/archives/"*.deb "$tmp/var/lib/apt/lists/"*_Packages
  : >"$tmp/etc/machine-id"
  chmod 0755 "$tmp"   # mktemp made it 0700; it becomes the container's /
  mv -T "$tmp" "$root"
  rm -f "$tmp.log"
  exec {lock}>&-
  printf '%s\n' "$root"
}
