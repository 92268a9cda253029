import Glibc
import Varlink

/// One search the load asks for: a query and a page.
struct SearchTarget: Sendable, CustomStringConvertible {
    var query: String
    var page: Int

    /// The `Search` call's parameters under `policy`.
    func parameters(policy: String) -> [String: JSONValue] {
        ["query": .string(query), "page": .int(Int64(page)), "policy": .string(policy)]
    }

    var description: String { "\(query) (page \(page))" }

    /// The searches of a requests file: one `QUERY<TAB>PAGE` a line.
    static func read(file path: String) throws(BenchError) -> [SearchTarget] {
        let targets = try lines(of: path).map { (number, text) throws(BenchError) -> SearchTarget in
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2, !fields[0].isEmpty, let page = Int(fields[1]), page > 0 else {
                throw BenchError("\(path):\(number): expected QUERY<TAB>PAGE, got \"\(text)\"")
            }
            return SearchTarget(query: String(fields[0]), page: page)
        }
        guard !targets.isEmpty else { throw BenchError("\(path) lists no searches") }
        return targets
    }

    /// The movie ids of a movies file: one positive id a line.
    static func readMovieIDs(file path: String) throws(BenchError) -> [Int] {
        let ids = try lines(of: path).map { (number, text) throws(BenchError) -> Int in
            guard let id = Int(text), id > 0 else { throw BenchError("\(path):\(number): expected a movie id, got \"\(text)\"") }
            return id
        }
        guard !ids.isEmpty else { throw BenchError("\(path) lists no movies") }
        return ids
    }

    /// The non-empty lines of `path` with their numbers.
    private static func lines(of path: String) throws(BenchError) -> [(number: Int, text: String)] {
        guard let handle = fopen(path, "r") else { throw BenchError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(handle) }
        var found: [(Int, String)] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var number = 0
        while getline(&line, &capacity, handle) > 0, let line {
            number += 1
            let text = String(String(cString: line).split(separator: "\n", omittingEmptySubsequences: false)[0])
            if !text.isEmpty { found.append((number, text)) }
        }
        return found
    }
}
