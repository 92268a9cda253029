/// The syntax of a systemd-style INI file (systemd.syntax(7)), as `moviesd.conf` and `movies.conf`
/// are written: `[Section]` headers; `Key=Value` assignments with the spaces around key and value
/// trimmed; lines starting with `#` or `;` are comments; blank lines are ignored; a line ending in
/// `\` continues on the next (joined with a space; comment lines inside are skipped, as systemd
/// does). What the sections and keys mean is the reader's: this is only the syntax.
public struct INIDocument: Sendable, Hashable {
    /// One `Key=Value` assignment, with where it was found.
    public struct Entry: Sendable, Hashable {
        /// The section it is in, without brackets (`nil`: before any section header).
        public var section: String?
        /// The key, as written.
        public var key: String
        /// The value, trimmed, continuation lines joined.
        public var value: String
        /// The 1-based line on which the assignment starts.
        public var line: Int
    }

    /// A line that is not INI syntax.
    public struct SyntaxError: Error, Sendable, Hashable {
        /// The 1-based line.
        public var line: Int
        /// What is wrong with it, as a phrase.
        public var reason: String
    }

    /// One section header, with its line.
    public struct Section: Sendable, Hashable {
        /// The name, without brackets.
        public var name: String
        /// The 1-based line of the header.
        public var line: Int
    }

    /// The section headers, in file order.
    public private(set) var sections: [Section] = []
    /// The assignments, in file order.
    public private(set) var entries: [Entry] = []

    /// Parses `contents`.
    /// - Throws: a `SyntaxError` for the first line that is neither a header, an assignment, a
    ///   comment nor blank.
    public init(parsing contents: String) throws(SyntaxError) {
        var section: String?
        for (lineNumber, text) in Self.logicalLines(of: contents) {
            let line = text.trimmingINISpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw SyntaxError(line: lineNumber, reason: "malformed section header '\(Self.excerpt(line))' (expected [Section])")
                }
                let name = String(line.dropFirst().dropLast())
                sections.append(Section(name: name, line: lineNumber))
                section = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw SyntaxError(line: lineNumber, reason: "expected 'Key=Value', '[Section]' or a comment, got '\(Self.excerpt(line))'")
            }
            let key = String(line[..<equals]).trimmingINISpaces
            let value = String(line[line.index(after: equals)...]).trimmingINISpaces
            guard !key.isEmpty else { throw SyntaxError(line: lineNumber, reason: "missing key before '='") }
            entries.append(Entry(section: section, key: key, value: value, line: lineNumber))
        }
    }

    /// Splits `contents` into logical lines with their starting line numbers, joining lines that
    /// end in a backslash with the next one (comment lines inside a continuation are skipped).
    public static func logicalLines(of contents: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var pending: (start: Int, text: String)?
        // "\r\n" is one Character in Swift: split on it as on "\n".
        let physical = contents.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in physical.enumerated() {
            var line = String(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            if let current = pending {
                let trimmed = line.trimmingINISpaces
                if trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
                line = current.text + " " + trimmed
            }
            let start = pending?.start ?? index + 1
            if line.hasSuffix("\\") {
                pending = (start, String(line.dropLast()).trimmingINISpaces)
            } else {
                pending = nil
                result.append((start, line))
            }
        }
        if let pending { result.append((pending.start, pending.text)) }
        return result
    }

    /// At most 60 characters of `text`, for quoting a file's text in a one-line error: a tab is a
    /// space, other control and format characters (a carriage return, an escape sequence, a
    /// bidirectional override) are written as `\u{…}` so they cannot rewrite the terminal.
    public static func excerpt(_ text: some StringProtocol) -> String {
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

extension String {
    /// Without whitespace at either end.
    fileprivate var trimmingINISpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
