import Glibc

/// The drop-in files that amend a configuration file, following systemd's convention
/// (systemd.unit(5), "drop-in" directories; systemd-system.conf(5)): for `FILE`, every `*.conf` in the
/// directory `FILE.d`, read after `FILE` in lexical order of their names, so a later assignment wins.
///
/// Hidden files (a name starting with `.`) are skipped, as systemd skips them; a name not ending in
/// `.conf` (`50-local.conf.dpkg-dist`, `README`, an editor's `50-local.conf~`) is ignored. A drop-in
/// that is empty or a symbolic link to `/dev/null` sets nothing. A missing directory means no
/// drop-ins; any other failure to list it is a ``ConfigurationError`` naming the directory.
public struct ConfigurationDropIns: Sendable, Hashable {
    /// The drop-in directory, `FILE.d`.
    public let directory: String
    /// The drop-in files' paths, in the order they are applied.
    public let paths: [String]

    /// The drop-in directory of the configuration file at `path`: `path` followed by `.d`.
    public static func directory(for path: String) -> String { path + ".d" }

    /// Lists the drop-ins of the configuration file at `configurationPath`.
    public init(configurationPath: String) throws(ConfigurationError) {
        let directory = Self.directory(for: configurationPath)
        self.directory = directory
        guard let stream = opendir(directory) else {
            let code = errno
            if code == ENOENT {
                paths = []
                return
            }
            throw ConfigurationError(path: directory, line: nil, reason: "cannot read drop-in directory: \(SystemCallError("opendir", code: code).reason)")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if Self.isDropInName(name) { names.append(name) }
        }
        paths = Self.sorted(names).map { directory + "/" + $0 }
    }

    /// Whether `name` is read as a drop-in: it ends in `.conf`, has a stem, and is not hidden.
    static func isDropInName(_ name: String) -> Bool {
        name.hasSuffix(".conf") && name.count > ".conf".count && !name.hasPrefix(".")
    }

    /// `names` in byte order of their UTF-8 encoding, as systemd's `strcmp` orders them
    /// (`10-a.conf` before `9-b.conf`, `Z.conf` before `a.conf`).
    static func sorted(_ names: [String]) -> [String] {
        names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
