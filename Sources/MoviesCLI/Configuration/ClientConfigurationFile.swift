import CommandLineSupport
import Glibc
import Varlink

/// Where `movies.conf` is and what it says: `$MOVIES_CONFIG` when set (empty: no file), else
/// `$XDG_CONFIG_HOME/movies/movies.conf` (when that variable is an absolute path, as the XDG Base
/// Directory specification says), else `~/.config/movies/movies.conf`. A missing default file sets
/// nothing; a file `$MOVIES_CONFIG` names must exist (a mistyped path is said, not ignored).
///
/// The syntax is `moviesd.conf`'s (`INIDocument`); an unknown section or key, or a value a key
/// does not take, is a `ClientConfigurationError` naming the file and line, with "did you mean"
/// for a misspelt name.
enum ClientConfigurationFile {
    /// The file's path under the configuration directory.
    static let relativePath = "movies/movies.conf"

    /// The file `environment` names, `nil` when none (`MOVIES_CONFIG` empty, or no home directory).
    static func path(environment: [String: String]) -> String? {
        if let explicit = environment["MOVIES_CONFIG"] { return explicit.isEmpty ? nil : explicit }
        if let directory = environment["XDG_CONFIG_HOME"], directory.hasPrefix("/") {
            return (directory.hasSuffix("/") ? directory : directory + "/") + relativePath
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home.hasSuffix("/") ? home : home + "/") + ".config/" + relativePath
    }

    /// The configuration `environment`'s file holds (see ``path(environment:)``): none set when
    /// there is no file, except that a file `MOVIES_CONFIG` names must exist.
    static func load(environment: [String: String]) throws(ClientConfigurationError) -> ClientConfiguration {
        guard let path = path(environment: environment) else { return ClientConfiguration() }
        return try load(path: path, mustExist: environment["MOVIES_CONFIG"] != nil)
    }

    /// The configuration the file at `path` holds; none set when it does not exist, unless it
    /// `mustExist` (a path the user named).
    static func load(path: String, mustExist: Bool = false) throws(ClientConfigurationError) -> ClientConfiguration {
        let contents: String
        switch read(path, mustExist: mustExist) {
        case .success(let text?): contents = text
        case .success(nil) where mustExist:
            throw ClientConfigurationError(path: path, line: nil, reason: "MOVIES_CONFIG names this file, and there is none", missing: true)
        case .success(nil): return ClientConfiguration()
        case .failure(let reason): throw ClientConfigurationError(path: path, line: nil, reason: "cannot read the configuration file: \(reason)")
        }
        return try parse(contents, path: path)
    }

    /// The configuration `contents` (the file at `path`) sets.
    static func parse(_ contents: String, path: String) throws(ClientConfigurationError) -> ClientConfiguration {
        let document: INIDocument
        do throws(INIDocument.SyntaxError) {
            document = try INIDocument(parsing: contents)
        } catch {
            throw ClientConfigurationError(path: path, line: error.line, reason: error.reason)
        }
        let sections = ClientConfiguration.sections
        for section in document.sections where !sections.contains(section.name) {
            let hint = Suggestion.closest(to: section.name, among: sections).map { "did you mean [\($0)]? " } ?? ""
            throw ClientConfigurationError(
                path: path, line: section.line,
                reason: "unknown section [\(INIDocument.excerpt(section.name))]; \(hint)the sections are [\(sections.joined(separator: "], ["))]")
        }
        var configuration = ClientConfiguration()
        for entry in document.entries {
            let setting = try Self.setting(of: entry, path: path)
            if entry.value.isEmpty {
                setting.reset(&configuration)
            } else if !setting.apply(entry.value, &configuration) {
                let hint = Suggestion.closest(to: entry.value, among: setting.choices).map { "; did you mean '\($0)'?" } ?? ""
                throw ClientConfigurationError(
                    path: path, line: entry.line,
                    reason: "invalid value '\(INIDocument.excerpt(entry.value))' for \(setting.key) in section [\(setting.section)]: expected \(setting.takes)\(hint)")
            }
        }
        return configuration
    }

    /// The setting `entry` assigns, or the error that says what is wrong with its key.
    private static func setting(of entry: INIDocument.Entry, path: String) throws(ClientConfigurationError) -> ClientConfiguration.Setting {
        let key = INIDocument.excerpt(entry.key)
        let named = ClientConfiguration.settings.filter { $0.key == entry.key }
        guard let section = entry.section else {
            let remedy = named.first.map { "add [\($0.section)] above it" } ?? "add a section such as [Search] above it"
            throw ClientConfigurationError(path: path, line: entry.line, reason: "key '\(key)' is outside of any section (\(remedy))")
        }
        if let setting = named.first(where: { $0.section == section }) { return setting }
        if let other = named.first {
            throw ClientConfigurationError(path: path, line: entry.line, reason: "\(key) is a key of [\(other.section)], not of [\(section)]")
        }
        let keys = ClientConfiguration.settings.filter { $0.section == section }.map(\.key)
        let hint = Suggestion.closest(to: entry.key, among: keys).map { "did you mean '\($0)'? " } ?? ""
        throw ClientConfigurationError(
            path: path, line: entry.line,
            reason: "unknown key '\(key)' in section [\(section)]; \(hint)the keys of [\(section)] are \(keys.joined(separator: ", "))")
    }

    /// The text of the file at `path`: `nil` when there is none, else why it cannot be read (a
    /// path the user named that cannot be reached is said as it is, not taken for no file).
    private static func read(_ path: String, mustExist: Bool) -> Result<String?, ReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return .success(nil) }
            if mustExist { return .failure(ReadFailure(code)) }
            if code == ENOTDIR { return .success(nil) }
            // A directory on the way this user may not search (`sudo -u nobody` keeps HOME=/root):
            // no file this user has, as git reads it. A file there but unreadable is an error.
            var info = stat()
            if code == EACCES, stat(path, &info) != 0, errno == EACCES { return .success(nil) }
            return .failure(ReadFailure(code))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(errno))
            }
            bytes += buffer.prefix(count)
            // A configuration file is a few lines: a huge one is a mistake (a device, a wrong path).
            guard bytes.count <= 1 << 20 else { return .failure(ReadFailure(reason: "larger than 1 MiB")) }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(ReadFailure(reason: "not UTF-8 text")) }
        return .success(text)
    }

    /// Why a file could not be read.
    private struct ReadFailure: Error, CustomStringConvertible {
        let description: String
        init(_ code: Int32) { description = String(cString: strerror(code)) }
        init(reason: String) { description = reason }
    }
}

/// `movies.conf` cannot be used: its path, the line at fault and what is wrong (exit status 78,
/// EX_CONFIG, as `moviesd` for its own file).
struct ClientConfigurationError: Error, Sendable, Hashable {
    /// The file.
    let path: String
    /// The 1-based line at fault, `nil` when the whole file is.
    let line: Int?
    /// What is wrong.
    let reason: String
    /// The file is not there (`MOVIES_CONFIG` named it): there is nothing to fix in it.
    var missing = false

    /// `movies: PATH:LINE: REASON`, as a compiler says where, and a line on how to go on.
    var text: String {
        let location = line.map { "\(path):\($0)" } ?? path
        let remedy = missing
            ? "Point MOVIES_CONFIG at your movies.conf, or set it empty (MOVIES_CONFIG=) to read none."
            : "Fix the file (see movies(1), FILES), or run with MOVIES_CONFIG= to ignore it."
        return "movies: \(location): \(reason)\n\(remedy)\n"
    }

    /// The JSON error line's object for `--json`: `{"error": "io.moviesd.cli.ConfigurationError", "exitCode": 78, …}`.
    var json: JSONValue {
        var parameters: [String: JSONValue] = ["file": .string(path)]
        if let line { parameters["line"] = .int(Int64(line)) }
        return .object([
            "error": .string("io.moviesd.cli.ConfigurationError"),
            "exitCode": .int(Int64(ExitCode.configuration.rawValue)),
            "message": .string(reason),
            "parameters": .object(parameters),
        ])
    }
}
