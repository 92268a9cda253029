#if canImport(Glibc)
import Glibc
#endif

/// The directory a session file lives in, opened once per operation so that every name in it is
/// used relative to the descriptor (`openat`, `unlinkat`, `renameat`): what the path names cannot
/// change under the operation.
///
/// The users' directory (`account-sessions`) is opened with `O_NOFOLLOW` and must be the daemon's
/// own: owned by its user and writable by no group or other user (`fstat`). Otherwise another user
/// could plant a symbolic link at a name the daemon writes, and have it overwrite a file only the
/// daemon's user may write. Such a directory is refused, never used.
final class SessionDirectory {
    /// The directory's path, for messages.
    let path: String
    /// The open directory (`O_RDONLY | O_DIRECTORY`), closed with the instance.
    private let descriptor: Int32

    /// Opens `path`, which must be a directory; `checked`: with `O_NOFOLLOW`, and refused unless
    /// the daemon's user owns it and no group or other user may write it (`unsafe(...)`).
    /// `creating`: made first (mode 0700) when missing. `nil` when missing and not `creating`.
    init?(path: String, checked: Bool, creating: Bool) throws(SessionFileError) {
        if creating, mkdir(path, 0o700) != 0, errno != EEXIST { throw SessionFileError(errno: errno, path: path) }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (checked ? O_NOFOLLOW : 0))
        guard descriptor >= 0 else {
            if errno == ENOENT, !creating { return nil }
            throw SessionFileError(errno: errno, path: path, reading: !creating)
        }
        if checked {
            var found = stat()
            let problem = fstat(descriptor, &found) == 0
                ? Self.unsafe(owner: found.st_uid, mode: found.st_mode, path: path) : SessionFileError(errno: errno, path: path, reading: true)
            if let problem {
                close(descriptor)
                throw problem
            }
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Why a directory of `owner` and `mode` at `path` may not hold sessions, or `nil` when it may.
    static func unsafe(owner: uid_t, mode: mode_t, path: String, daemonUser: uid_t = geteuid()) -> SessionFileError? {
        guard owner != daemonUser || mode & 0o022 != 0 else { return nil }
        let found = "owned by uid \(owner) with mode \(String(mode & 0o7777, radix: 8))"
        return SessionFileError(message: """
            \(path) is \(found): moviesd keeps users' TMDB sessions only in a directory of its own user (uid \(daemonUser)) \
            that no group or other user may write; run 'chown \(daemonUser) \(path) && chmod 0700 \(path)' \
            (or remove it: moviesd makes a new one)
            """)
    }

    /// Reads `name` (at most `limit` bytes), never through a symbolic link; `nil` when it does not exist.
    func readText(_ name: String, limit: Int) throws(SessionFileError) -> String? {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw SessionFileError(errno: errno, path: path + "/" + name, reading: true)
        }
        do throws(SystemCallError) {
            return try FileContents.readText(descriptor: file, limit: limit)
        } catch {
            throw SessionFileError(message: "cannot read \(path)/\(name): \(error.reason)")
        }
    }

    /// Replaces `name` with `data` (mode 0600) atomically and durably: a stale `name.tmp` is removed
    /// (`unlinkat`: a link is removed, not followed), the new one created exclusively without
    /// following links (`O_EXCL | O_NOFOLLOW`), written, fsynced, renamed over `name`, and the
    /// directory fsynced.
    func replace(_ name: String, with data: [UInt8]) throws(SessionFileError) {
        let temporary = name + ".tmp"
        guard unlinkat(descriptor, temporary, 0) == 0 || errno == ENOENT else { throw SessionFileError(errno: errno, path: path + "/" + temporary) }
        let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw SessionFileError(errno: errno, path: path + "/" + temporary) }
        var written = 0
        while written < data.count {
            let count = data[written...].withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let synced = written == data.count && fsync(file) == 0
        let code = errno
        close(file)
        guard synced, renameat(descriptor, temporary, descriptor, name) == 0 else {
            let failure = synced ? errno : code
            unlinkat(descriptor, temporary, 0)
            throw SessionFileError(errno: failure, path: path + "/" + (synced ? name : temporary))
        }
        try sync()
    }

    /// Removes `name` (a link itself, not its target); succeeds when there is none.
    func remove(_ name: String) throws(SessionFileError) {
        guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else { throw SessionFileError(errno: errno, path: path + "/" + name) }
        try sync()
    }

    /// fsync(2) of the directory: "Calling fsync() does not necessarily ensure that the entry in
    /// the directory containing the file has also reached disk. For that an explicit fsync() on a
    /// file descriptor for the directory is also needed."
    private func sync() throws(SessionFileError) {
        guard fsync(descriptor) == 0 else { throw SessionFileError(errno: errno, path: path) }
    }
}
