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

    /// Reads a requests file: one search per line, the query, a tab and the page number.
    static func read(file path: String) throws(BenchError) -> [SearchTarget] {
        guard let handle = fopen(path, "r") else { throw BenchError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(handle) }
        var targets: [SearchTarget] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var number = 0
        while getline(&line, &capacity, handle) > 0, let line {
            number += 1
            let text = String(cString: line).split(separator: "\n", omittingEmptySubsequences: false)[0]
            if text.isEmpty { continue }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2, !fields[0].isEmpty, let page = Int(fields[1]), page > 0 else {
                throw BenchError("\(path):\(number): expected QUERY<TAB>PAGE, got \"\(text)\"")
            }
            targets.append(SearchTarget(query: String(fields[0]), page: page))
        }
        guard !targets.isEmpty else { throw BenchError("\(path) lists no searches") }
        return targets
    }
}
