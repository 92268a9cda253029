// libFuzzer target: the INI reader (ConfigurationFile, systemd.syntax(7)) and the settings it
// fills (DaemonConfiguration). Built and run by scripts/fuzz; see Fuzz/README.md.
//
// Checks beyond "does not crash": a file is either accepted or refused with an error naming the
// file and a line that exists; every accepted entry is a known key of a known section.
@testable import MoviesDaemon

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // As ConfigurationFile.load reads a file: bytes decoded as UTF-8 (invalid sequences replaced).
    let contents = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = contents.unicodeScalars.filter { $0 == "\n" }.count + 1
    let file: ConfigurationFile
    do {
        file = try ConfigurationFile(contents: contents, path: "/fuzz/moviesd.conf")
    } catch {
        check(error, lines: lineCount)
        return 0
    }
    for entry in file.entries {
        guard ConfigurationSchema.setting(section: entry.section, key: entry.key) != nil else {
            fatalError("accepted an unknown key [\(entry.section)] \(entry.key)")
        }
        guard entry.line >= 1, entry.line <= lineCount else { fatalError("entry on line \(entry.line) of \(lineCount)") }
    }
    do {
        _ = try file.applied(to: DaemonConfiguration())
    } catch {
        check(error, lines: lineCount)
    }
    return 0
}

/// A refusal names the file and, when it has one, a line of it, in one line of text without
/// control characters (it goes to a terminal and the journal).
private func check(_ error: ConfigurationError, lines: Int) {
    let text = error.description
    guard text.hasPrefix("moviesd: /fuzz/moviesd.conf") else { fatalError("the error does not name the file: \(text)") }
    if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
        fatalError("the error carries the control character U+\(String(control.value, radix: 16)): \(text.debugDescription)")
    }
    if let line = error.line, line < 1 || line > lines { fatalError("the error names line \(line) of \(lines)") }
}
