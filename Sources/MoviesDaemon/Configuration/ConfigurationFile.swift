import CommandLineSupport
import Foundation
import Glibc

/// A systemd-style INI configuration file (systemd.syntax(7)), parsed and checked against
/// ``ConfigurationSchema``.
///
/// Syntax: `[Section]` headers; `Key=Value` assignments with whitespace around key and value trimmed;
/// lines starting with `#` or `;` are comments; blank lines are ignored; a line ending in `\` continues
/// on the next (joined with a space); a key given twice takes its later value. Anything else, an unknown
/// section or key, or a bad value is a ``ConfigurationError`` naming the file and line.
public struct ConfigurationFile: Sendable, Hashable {
    /// The file's path, as used in error messages.
    public let path: String
    /// The assignments in file order.
    public let entries: [ConfigurationEntry]

    /// Parses `contents` as the file at `path`, rejecting bad syntax and unknown sections or keys.
    public init(contents: String, path: String) throws(ConfigurationError) {
        self.path = path
        var entries: [ConfigurationEntry] = []
        var section: String?
        for (lineNumber, text) in INIDocument.logicalLines(of: contents) {
            func fail(_ reason: String) -> ConfigurationError {
                ConfigurationError(path: path, line: lineNumber, reason: reason)
            }
            let line = text.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw fail("malformed section header '\(Self.excerpt(line))' (expected [Section])")
                }
                let name = String(line.dropFirst().dropLast())
                guard ConfigurationSchema.sections.contains(name) else {
                    throw fail(Self.unknownSection(name))
                }
                section = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw fail("expected 'Key=Value', '[Section]' or a comment, got '\(Self.excerpt(line))'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw fail("missing key before '='") }
            guard let section else {
                let sections = ConfigurationSchema.sections(having: key)
                throw fail("key '\(Self.excerpt(key))' is outside of any section (add \(ConfigurationSchema.list(sections.isEmpty ? ConfigurationSchema.sections : sections)) above it)")
            }
            guard ConfigurationSchema.setting(section: section, key: key) != nil else {
                throw fail(Self.unknownKey(key, in: section))
            }
            entries.append(ConfigurationEntry(section: section, key: key, value: value, line: lineNumber))
        }
        self.entries = entries
    }

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws(ConfigurationError) -> ConfigurationFile {
        let contents: String
        do throws(SystemCallError) {
            contents = try FileContents.readText(atPath: path)
        } catch {
            throw ConfigurationError(path: path, line: nil, reason: "cannot read configuration file: \(error.reason)")
        }
        return try ConfigurationFile(contents: contents, path: path)
    }

    /// `configuration` with every assignment of this file applied in order (later ones win).
    public func applied(to configuration: DaemonConfiguration) throws(ConfigurationError) -> DaemonConfiguration {
        var result = configuration
        for entry in entries {
            guard let setting = ConfigurationSchema.setting(section: entry.section, key: entry.key) else {
                throw ConfigurationError(path: path, line: entry.line, reason: Self.unknownKey(entry.key, in: entry.section))
            }
            do throws(ConfigurationValueError) {
                try setting.apply(entry.value, to: &result)
                result.origins[ConfigurationKey(section: entry.section, key: entry.key)] = ConfigurationOrigin(path: path, line: entry.line)
            } catch {
                throw ConfigurationError(
                    path: path, line: entry.line,
                    reason: "invalid value '\(Self.excerpt(entry.value))' for \(entry.key) in section [\(entry.section)]: \(error.expectation)"
                )
            }
        }
        return result
    }

    /// "unknown section [Remtoe]; did you mean [Remote]?", else the list of sections.
    static func unknownSection(_ name: String) -> String {
        let sections = ConfigurationSchema.sections
        if let suggestion = Suggestion.closest(to: name, among: sections) {
            return "unknown section [\(excerpt(name))]; did you mean [\(suggestion)]?"
        }
        return "unknown section [\(excerpt(name))] (expected one of \(sections.map { "[\($0)]" }.joined(separator: ", ")))"
    }

    /// "unknown key 'MaxConection' in section [Daemon]; did you mean 'MaxConnections'?", or, for a
    /// key of another section, where it belongs ("Language= is a key of [Remote]").
    static func unknownKey(_ key: String, in section: String) -> String {
        let unknown = "unknown key '\(excerpt(key))' in section [\(section)]"
        let elsewhere = ConfigurationSchema.sections(having: key)
        if !elsewhere.isEmpty {
            return "\(unknown): \(key)= is a key of \(ConfigurationSchema.list(elsewhere, conjunction: "and"))"
        }
        let keys = ConfigurationSchema.settings.filter { $0.section == section }.map(\.key)
        if let suggestion = Suggestion.closest(to: key, among: keys) {
            return "\(unknown); did you mean '\(suggestion)'?"
        }
        return unknown
    }


    /// At most 60 characters of `text`, safe to quote in a one-line error or the journal
    /// (`INIDocument.excerpt`, which the client's configuration file uses too).
    static func excerpt(_ text: some StringProtocol) -> String { INIDocument.excerpt(text) }
}

/// One `Key=Value` assignment read from a configuration file, with where it was found.
public struct ConfigurationEntry: Sendable, Hashable {
    /// The section it belongs to, without brackets.
    public var section: String
    /// The key, as written (keys are case-sensitive, as in systemd).
    public var key: String
    /// The value, with surrounding whitespace trimmed and continuation lines joined.
    public var value: String
    /// The 1-based line on which the assignment starts.
    public var line: Int

    /// Creates an entry.
    public init(section: String, key: String, value: String, line: Int) {
        self.section = section
        self.key = key
        self.value = value
        self.line = line
    }
}

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
