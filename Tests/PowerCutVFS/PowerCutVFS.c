// A test-only SQLite VFS that simulates a power cut; see include/PowerCutVFS.h.
//
// Model (after SQLite's crash-test VFS, src/test6.c): a write reaches the platter only once its
// file is synced; at the cut, each write or truncation made since a file's last xSync survives or
// not, independently (with a seeded probability), in the order it was made. The unix VFS does the
// real I/O; this layer records what a cut would undo.
#include "PowerCutVFS.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct PendingOperation {
  int is_truncate;
  sqlite3_int64 offset;  // the write's offset, or the truncation's size
  int amount;
  unsigned char *bytes;
  struct PendingOperation *next;
} PendingOperation;

typedef struct TrackedFile {
  char *path;
  int live;           // 0 once forgotten (a connection may still point here; it is then untracked)
  int is_database;    // a main database: its -shm is deleted at the restore
  int durable_exists;
  unsigned char *durable;
  sqlite3_int64 durable_size;
  PendingOperation *first, *last;
  struct TrackedFile *next;
} TrackedFile;

typedef struct PowerCutFile {
  sqlite3_file base;
  TrackedFile *tracked;  // NULL: passed through untouched
  sqlite3_file *real;
} PowerCutFile;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sqlite3_vfs vfs;
static sqlite3_vfs *real_vfs;
static char *prefix;
static TrackedFile *files;
static int has_cut;
static long long armed_remaining;
static long long operations;
static long long syncs;

static void free_operations(TrackedFile *file) {
  PendingOperation *operation = file->first;
  while (operation) {
    PendingOperation *next = operation->next;
    free(operation->bytes);
    free(operation);
    operation = next;
  }
  file->first = file->last = NULL;
}

// Counts one tracked write, sync or truncation; returns 1 when the power is (now) off and the
// operation must fail without happening. Called with the lock held.
static int count_operation(void) {
  if (has_cut) return 1;
  operations++;
  if (armed_remaining > 0 && --armed_remaining == 0) {
    has_cut = 1;
    return 1;
  }
  return 0;
}

// Reads the whole file at `path` into a new buffer. Called with the lock held.
static int read_whole(const char *path, unsigned char **bytes, sqlite3_int64 *size, int *exists) {
  *bytes = NULL;
  *size = 0;
  *exists = 0;
  int descriptor = open(path, O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return errno == ENOENT ? 0 : errno;
  struct stat status;
  if (fstat(descriptor, &status) != 0) {
    int code = errno;
    close(descriptor);
    return code;
  }
  *exists = 1;
  *size = status.st_size;
  *bytes = malloc(status.st_size > 0 ? (size_t)status.st_size : 1);
  if (!*bytes) {
    close(descriptor);
    return ENOMEM;
  }
  sqlite3_int64 done = 0;
  while (done < status.st_size) {
    ssize_t got = pread(descriptor, *bytes + done, (size_t)(status.st_size - done), done);
    if (got <= 0) {
      int code = got < 0 ? errno : EIO;
      close(descriptor);
      free(*bytes);
      *bytes = NULL;
      return code;
    }
    done += got;
  }
  close(descriptor);
  return 0;
}

// The live record of `path`, created from the file as it is now (durable: it was there before
// this power domain knew it) when `existed`. Called with the lock held.
static TrackedFile *track(const char *path, int existed, int is_database) {
  for (TrackedFile *file = files; file; file = file->next) {
    if (file->live && strcmp(file->path, path) == 0) return file;
  }
  TrackedFile *file = calloc(1, sizeof(TrackedFile));
  if (!file) return NULL;
  file->path = strdup(path);
  file->live = 1;
  file->is_database = is_database;
  if (existed) read_whole(path, &file->durable, &file->durable_size, &file->durable_exists);
  file->next = files;
  files = file;
  return file;
}

static int record(TrackedFile *file, int is_truncate, sqlite3_int64 offset, const void *bytes, int amount) {
  PendingOperation *operation = calloc(1, sizeof(PendingOperation));
  if (!operation) return SQLITE_NOMEM;
  operation->is_truncate = is_truncate;
  operation->offset = offset;
  operation->amount = amount;
  if (amount > 0) {
    operation->bytes = malloc((size_t)amount);
    if (!operation->bytes) {
      free(operation);
      return SQLITE_NOMEM;
    }
    memcpy(operation->bytes, bytes, (size_t)amount);
  }
  if (file->last) file->last->next = operation; else file->first = operation;
  file->last = operation;
  return SQLITE_OK;
}

static TrackedFile *live_tracked(PowerCutFile *file) {
  return file->tracked && file->tracked->live ? file->tracked : NULL;
}

// MARK: - File methods

static int file_close(sqlite3_file *base) {
  PowerCutFile *file = (PowerCutFile *)base;
  int code = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
  file->real->pMethods = NULL;
  return code;
}

static int file_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int file_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
  PowerCutFile *file = (PowerCutFile *)base;
  pthread_mutex_lock(&lock);
  TrackedFile *tracked = live_tracked(file);
  if (tracked && count_operation()) {
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR_WRITE;
  }
  int code = file->real->pMethods->xWrite(file->real, buffer, amount, offset);
  if (code == SQLITE_OK && tracked) code = record(tracked, 0, offset, buffer, amount);
  pthread_mutex_unlock(&lock);
  return code;
}

static int file_truncate(sqlite3_file *base, sqlite3_int64 size) {
  PowerCutFile *file = (PowerCutFile *)base;
  pthread_mutex_lock(&lock);
  TrackedFile *tracked = live_tracked(file);
  if (tracked && count_operation()) {
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR_TRUNCATE;
  }
  int code = file->real->pMethods->xTruncate(file->real, size);
  if (code == SQLITE_OK && tracked) code = record(tracked, 1, size, NULL, 0);
  pthread_mutex_unlock(&lock);
  return code;
}

static int file_sync(sqlite3_file *base, int flags) {
  PowerCutFile *file = (PowerCutFile *)base;
  pthread_mutex_lock(&lock);
  TrackedFile *tracked = live_tracked(file);
  if (tracked && count_operation()) {
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR_FSYNC;
  }
  int code = file->real->pMethods->xSync(file->real, flags);
  if (code == SQLITE_OK && tracked) {
    // Everything written to the file so far is on the platter now.
    syncs++;
    free(tracked->durable);
    free_operations(tracked);
    if (read_whole(tracked->path, &tracked->durable, &tracked->durable_size, &tracked->durable_exists) != 0) code = SQLITE_IOERR_FSYNC;
  }
  pthread_mutex_unlock(&lock);
  return code;
}

static int file_size(sqlite3_file *base, sqlite3_int64 *size) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xFileSize(file->real, size);
}

static int file_lock(sqlite3_file *base, int level) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xLock(file->real, level);
}

static int file_unlock(sqlite3_file *base, int level) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xUnlock(file->real, level);
}

static int file_check_reserved_lock(sqlite3_file *base, int *result) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int file_control(sqlite3_file *base, int operation, void *argument) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xFileControl(file->real, operation, argument);
}

static int file_sector_size(sqlite3_file *base) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xSectorSize(file->real);
}

static int file_device_characteristics(sqlite3_file *base) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int file_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **pointer) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xShmMap(file->real, region, size, extend, pointer);
}

static int file_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
  PowerCutFile *file = (PowerCutFile *)base;
  return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void file_shm_barrier(sqlite3_file *base) {
  PowerCutFile *file = (PowerCutFile *)base;
  file->real->pMethods->xShmBarrier(file->real);
}

static int file_shm_unmap(sqlite3_file *base, int delete_flag) {
  PowerCutFile *file = (PowerCutFile *)base;
  pthread_mutex_lock(&lock);
  if (has_cut) delete_flag = 0;
  pthread_mutex_unlock(&lock);
  return file->real->pMethods->xShmUnmap(file->real, delete_flag);
}

// Version 2: no xFetch, so SQLite reads through xRead and never maps the file.
static const sqlite3_io_methods file_methods = {
  2, file_close, file_read, file_write, file_truncate, file_sync, file_size, file_lock, file_unlock,
  file_check_reserved_lock, file_control, file_sector_size, file_device_characteristics,
  file_shm_map, file_shm_lock, file_shm_barrier, file_shm_unmap, NULL, NULL,
};

// MARK: - VFS methods

static int is_tracked_path(const char *path) {
  return path && prefix && strncmp(path, prefix, strlen(prefix)) == 0;
}

static int vfs_open(sqlite3_vfs *self, const char *path, sqlite3_file *base, int flags, int *out_flags) {
  (void)self;
  PowerCutFile *file = (PowerCutFile *)base;
  file->base.pMethods = NULL;
  file->tracked = NULL;
  file->real = (sqlite3_file *)&file[1];
  file->real->pMethods = NULL;
  int kind = flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL);
  pthread_mutex_lock(&lock);
  if (has_cut && is_tracked_path(path)) {
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR;
  }
  int wanted = kind && is_tracked_path(path);
  int existed = wanted && access(path, F_OK) == 0;
  pthread_mutex_unlock(&lock);
  int code = real_vfs->xOpen(real_vfs, path, file->real, flags, out_flags);
  if (code != SQLITE_OK) {
    file->real->pMethods = NULL;
    return code;
  }
  if (wanted) {
    pthread_mutex_lock(&lock);
    file->tracked = track(path, existed, (flags & SQLITE_OPEN_MAIN_DB) != 0);
    pthread_mutex_unlock(&lock);
    if (!file->tracked) {
      file->real->pMethods->xClose(file->real);
      file->real->pMethods = NULL;
      return SQLITE_NOMEM;
    }
  }
  file->base.pMethods = &file_methods;
  return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *self, const char *path, int sync_directory) {
  (void)self;
  pthread_mutex_lock(&lock);
  if (is_tracked_path(path)) {
    if (has_cut) {
      pthread_mutex_unlock(&lock);
      return SQLITE_IOERR_DELETE;
    }
    // A deletion is taken as durable at once (SQLite syncs the directory where it matters).
    for (TrackedFile *file = files; file; file = file->next) {
      if (file->live && strcmp(file->path, path) == 0) {
        free(file->durable);
        file->durable = NULL;
        file->durable_size = 0;
        file->durable_exists = 0;
        free_operations(file);
      }
    }
  }
  pthread_mutex_unlock(&lock);
  return real_vfs->xDelete(real_vfs, path, sync_directory);
}

static int vfs_access(sqlite3_vfs *self, const char *path, int flags, int *result) {
  (void)self;
  return real_vfs->xAccess(real_vfs, path, flags, result);
}

static int vfs_full_pathname(sqlite3_vfs *self, const char *path, int size, char *out) {
  (void)self;
  return real_vfs->xFullPathname(real_vfs, path, size, out);
}

static void *vfs_dl_open(sqlite3_vfs *self, const char *path) { (void)self; return real_vfs->xDlOpen(real_vfs, path); }
static void vfs_dl_error(sqlite3_vfs *self, int size, char *out) { (void)self; real_vfs->xDlError(real_vfs, size, out); }
static void (*vfs_dl_sym(sqlite3_vfs *self, void *handle, const char *symbol))(void) {
  (void)self;
  return real_vfs->xDlSym(real_vfs, handle, symbol);
}
static void vfs_dl_close(sqlite3_vfs *self, void *handle) { (void)self; real_vfs->xDlClose(real_vfs, handle); }
static int vfs_randomness(sqlite3_vfs *self, int size, char *out) { (void)self; return real_vfs->xRandomness(real_vfs, size, out); }
static int vfs_sleep(sqlite3_vfs *self, int microseconds) { (void)self; return real_vfs->xSleep(real_vfs, microseconds); }
static int vfs_current_time(sqlite3_vfs *self, double *out) { (void)self; return real_vfs->xCurrentTime(real_vfs, out); }
static int vfs_get_last_error(sqlite3_vfs *self, int size, char *out) { (void)self; return real_vfs->xGetLastError(real_vfs, size, out); }
static int vfs_current_time_int64(sqlite3_vfs *self, sqlite3_int64 *out) { (void)self; return real_vfs->xCurrentTimeInt64(real_vfs, out); }

// MARK: - Control

int powercut_register(const char *name, const char *path_prefix) {
  pthread_mutex_lock(&lock);
  free(prefix);
  prefix = strdup(path_prefix);
  int code = SQLITE_OK;
  if (!real_vfs) {
    real_vfs = sqlite3_vfs_find(NULL);
    if (!real_vfs) {
      pthread_mutex_unlock(&lock);
      return SQLITE_ERROR;
    }
    vfs.iVersion = 2;
    vfs.szOsFile = (int)sizeof(PowerCutFile) + real_vfs->szOsFile;
    vfs.mxPathname = real_vfs->mxPathname;
    vfs.zName = strdup(name);
    vfs.xOpen = vfs_open;
    vfs.xDelete = vfs_delete;
    vfs.xAccess = vfs_access;
    vfs.xFullPathname = vfs_full_pathname;
    vfs.xDlOpen = vfs_dl_open;
    vfs.xDlError = vfs_dl_error;
    vfs.xDlSym = vfs_dl_sym;
    vfs.xDlClose = vfs_dl_close;
    vfs.xRandomness = vfs_randomness;
    vfs.xSleep = vfs_sleep;
    vfs.xCurrentTime = vfs_current_time;
    vfs.xGetLastError = vfs_get_last_error;
    vfs.xCurrentTimeInt64 = vfs_current_time_int64;
    code = sqlite3_vfs_register(&vfs, 0);
  }
  pthread_mutex_unlock(&lock);
  return code;
}

void powercut_arm(long long count) {
  pthread_mutex_lock(&lock);
  armed_remaining = count;
  pthread_mutex_unlock(&lock);
}

void powercut_cut(void) {
  pthread_mutex_lock(&lock);
  has_cut = 1;
  pthread_mutex_unlock(&lock);
}

int powercut_has_cut(void) {
  pthread_mutex_lock(&lock);
  int result = has_cut;
  pthread_mutex_unlock(&lock);
  return result;
}

long long powercut_operation_count(void) {
  pthread_mutex_lock(&lock);
  long long result = operations;
  pthread_mutex_unlock(&lock);
  return result;
}

long long powercut_sync_count(void) {
  pthread_mutex_lock(&lock);
  long long result = syncs;
  pthread_mutex_unlock(&lock);
  return result;
}

// Called with the lock held.
static void forget_locked(void) {
  for (TrackedFile *file = files; file; file = file->next) {
    if (!file->live) continue;
    file->live = 0;
    free(file->durable);
    file->durable = NULL;
    free_operations(file);
  }
  has_cut = 0;
  armed_remaining = 0;
  operations = 0;
  syncs = 0;
}

void powercut_forget(void) {
  pthread_mutex_lock(&lock);
  forget_locked();
  pthread_mutex_unlock(&lock);
}

static unsigned long long next_random(unsigned long long *state) {
  // splitmix64
  unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The file as the disk holds it after the cut: durable image, then the surviving operations.
static int rewrite(TrackedFile *file, unsigned long long *random, int keep_per_mille) {
  sqlite3_int64 size = file->durable_exists ? file->durable_size : 0;
  sqlite3_int64 capacity = size > 0 ? size : 1;
  unsigned char *image = malloc((size_t)capacity);
  if (!image) return ENOMEM;
  if (size > 0) memcpy(image, file->durable, (size_t)size);
  int exists = file->durable_exists;
  for (PendingOperation *operation = file->first; operation; operation = operation->next) {
    if ((int)(next_random(random) % 1000) >= keep_per_mille) continue;
    if (!exists) continue;  // never synced: its directory entry is not on the disk
    sqlite3_int64 end = operation->is_truncate ? operation->offset : operation->offset + operation->amount;
    if (end > capacity) {
      unsigned char *grown = realloc(image, (size_t)end);
      if (!grown) {
        free(image);
        return ENOMEM;
      }
      image = grown;
      capacity = end;
    }
    if (operation->is_truncate) {
      if (end > size) memset(image + size, 0, (size_t)(end - size));
      size = end;
    } else {
      if (operation->offset > size) memset(image + size, 0, (size_t)(operation->offset - size));
      memcpy(image + operation->offset, operation->bytes, (size_t)operation->amount);
      if (end > size) size = end;
    }
  }
  int code = 0;
  if (!exists) {
    if (unlink(file->path) != 0 && errno != ENOENT) code = errno;
  } else {
    int descriptor = open(file->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (descriptor < 0) {
      code = errno;
    } else {
      sqlite3_int64 done = 0;
      while (done < size) {
        ssize_t wrote = write(descriptor, image + done, (size_t)(size - done));
        if (wrote <= 0) {
          code = wrote < 0 ? errno : EIO;
          break;
        }
        done += wrote;
      }
      close(descriptor);
    }
  }
  free(image);
  if (code == 0 && file->is_database) {
    size_t length = strlen(file->path);
    char *shm = malloc(length + 5);
    if (!shm) return ENOMEM;
    memcpy(shm, file->path, length);
    memcpy(shm + length, "-shm", 5);
    if (unlink(shm) != 0 && errno != ENOENT) code = errno;
    free(shm);
  }
  return code;
}

int powercut_restore(unsigned long long seed, int keep_per_mille) {
  pthread_mutex_lock(&lock);
  has_cut = 1;
  unsigned long long random = seed;
  int first_error = 0;
  for (TrackedFile *file = files; file; file = file->next) {
    if (!file->live) continue;
    int code = rewrite(file, &random, keep_per_mille);
    if (code != 0 && first_error == 0) first_error = code;
  }
  forget_locked();
  pthread_mutex_unlock(&lock);
  return first_error;
}
