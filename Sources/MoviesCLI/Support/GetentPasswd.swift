import Glibc

/// The password database as `getent passwd -- KEY…` prints it (glibc's getent(1), in the Essential
/// package libc-bin). `movies` is a static executable, and glibc cannot load the NSS modules other
/// than `files` into one (getpwnam_r(3) dies in `nss_systemd` for a name `/etc/passwd` lacks), so
/// it asks a program that can: every source nsswitch.conf(5) names (LDAP, sssd, systemd-homed…)
/// answers.
enum GetentPasswd {
    /// The program.
    static let path = "/usr/bin/getent"

    /// The entries `keys` (user names or uids) find, in getent's order; those it does not find are
    /// left out, and all when getent cannot run.
    static func entries(_ keys: [String]) -> [(name: String, uid: UInt32)] {
        guard !keys.isEmpty, let output = run(["getent", "--", "passwd"] + keys) else { return [] }
        return output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 3, !fields[0].isEmpty, let uid = UInt32(fields[2]) else { return nil }
            return (String(fields[0]), uid)
        }
    }

    /// Runs `path` with `arguments` (standard error to `/dev/null`) and returns what it printed;
    /// `nil` when it could not start.
    private static func run(_ arguments: [String]) -> String? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, nil, &cArguments, environ) == 0
        close(writeEnd)
        defer { close(readEnd) }
        guard started else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return String(decoding: bytes, as: UTF8.self)
    }
}
