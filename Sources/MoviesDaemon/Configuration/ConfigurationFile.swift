import Foundation

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
        for (lineNumber, text) in Self.logicalLines(of: contents) {
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
                    throw fail("unknown section [\(Self.excerpt(name))] (expected one of [\(ConfigurationSchema.sections.joined(separator: "], ["))])")
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
                throw fail("key '\(Self.excerpt(key))' is outside of any section (add [Daemon], [Remote] or [Cache] above it)")
            }
            guard ConfigurationSchema.setting(section: section, key: key) != nil else {
                throw fail("unknown key '\(Self.excerpt(key))' in section [\(section)]")
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
                throw ConfigurationError(path: path, line: entry.line, reason: "unknown key '\(entry.key)' in section [\(entry.section)]")
            }
            do throws(ConfigurationValueError) {
                try setting.apply(entry.value, to: &result)
            } catch {
                throw ConfigurationError(
                    path: path, line: entry.line,
                    reason: "invalid value '\(Self.excerpt(entry.value))' for \(entry.key) in section [\(entry.section)]: \(error.expectation)"
                )
            }
        }
        return result
    }

    /// Splits `contents` into logical lines with their starting line numbers, joining lines that end
    /// in a backslash with the next one (comment lines inside a continuation are skipped, as systemd does).
    static func logicalLines(of contents: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var pending: (start: Int, text: String)?
        // "\r\n" is one Character in Swift: splitting on "\n" alone left a CRLF file one long line.
        let physical = contents.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in physical.enumerated() {
            var line = String(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            if let current = pending {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
                line = current.text + " " + trimmed
            }
            let start = pending?.start ?? index + 1
            if line.hasSuffix("\\") {
                pending = (start, String(line.dropLast()).trimmingCharacters(in: .whitespaces))
            } else {
                pending = nil
                result.append((start, line))
            }
        }
        if let pending { result.append((pending.start, pending.text)) }
        return result
    }

    /// At most 60 characters of `text`, for quoting user input in a one-line error: a tab is a
    /// space, other control and format characters (a carriage return, an escape sequence, a
    /// bidirectional override) are written as `\u{…}` so they cannot rewrite the terminal or the
    /// journal line.
    static func excerpt(_ text: some StringProtocol) -> String {
        var printable = ""
        for scalar in text.unicodeScalars {
            if scalar == "\t" {
                printable += " "
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                printable += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                printable.unicodeScalars.append(scalar)
            }
        }
        return printable.count > 60 ? String(printable.prefix(57)) + "..." : printable
    }
}
