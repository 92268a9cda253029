#ifndef MOVIESD_POWER_CUT_VFS_H
#define MOVIESD_POWER_CUT_VFS_H

/// A test-only SQLite VFS that simulates a power cut, as SQLite's own crash tests do (test6.c).
///
/// It wraps the default ("unix") VFS and passes every call through. For each database, WAL and
/// journal file it keeps what the file held at its last xSync (the durable image) and the writes
/// and truncations made since. `powercut_cut()` is the moment power goes: from then on every write,
/// sync, truncate, delete and open fails with SQLITE_IOERR, so nothing more reaches the disk.
/// `powercut_restore()`, called once every connection is closed, puts each file back to its durable
/// image plus a seeded random subset of the operations made since its last sync (a disk that
/// wrote some of its cache before the lights went out), and deletes files never synced.
///
/// Only files whose path starts with the prefix given to `powercut_register()` are tracked; others
/// pass through untouched. One power domain per process: the functions are thread-safe, but
/// two tests must not use the VFS at once.

/// Registers the VFS as `name` (not as the default), tracking files under `path_prefix`.
/// Returns SQLITE_OK, or SQLite's error code. Registering again replaces the prefix.
int powercut_register(const char *name, const char *path_prefix);

/// The cut happens by itself at the `operations`-th tracked write, sync or truncate from now (that
/// operation fails and does not happen); 0 disarms.
void powercut_arm(long long operations);

/// The power goes now (if it has not already).
void powercut_cut(void);

/// Whether the power has gone.
int powercut_has_cut(void);

/// Tracked writes, syncs and truncations since the last `powercut_forget()`.
long long powercut_operation_count(void);

/// Tracked xSync calls since the last `powercut_forget()`.
long long powercut_sync_count(void);

/// Rewrites every tracked file as the disk holds it after the cut: its durable image plus each
/// operation since its last sync kept with probability `keep_per_mille`/1000 (in order, drawn
/// from `seed`); a file never synced is deleted, as are the `-shm` files of tracked databases.
/// Then forgets everything (as `powercut_forget`) and lets the power back on.
/// Returns 0, or the errno of the first file that could not be rewritten.
int powercut_restore(unsigned long long seed, int keep_per_mille);

/// Forgets every tracked file and turns the power back on, without touching the disk.
void powercut_forget(void);

#endif
