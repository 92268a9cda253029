/// A named list of search queries and movies kept prefetched for offline use (DESIGN §4): its
/// cached entries are pinned (never evicted) and refreshed ahead of expiry.
///
/// Wire shape (the Varlink interface's `Watchlist`): `{"name", "queries": [WatchlistQuery],
/// "movieIds": [int], "owner"?: uid}`; `owner` only on a personal list.
public struct Watchlist: Sendable, Hashable, Codable {
    /// The longest name accepted, in characters.
    public static let maxNameLength = 64

    /// The list's name, unique among its owner's lists (a personal list may share a system list's name).
    public var name: String
    /// Whose list it is: the system's (shared) or one user's (personal).
    public var owner: Owner
    /// The queries, in the order they were added; one per canonical query.
    public var queries: [WatchlistQuery]
    /// The movie ids, in the order they were added, without duplicates.
    public var movieIDs: [Int]

    enum CodingKeys: String, CodingKey {
        case name, queries, owner
        case movieIDs = "movieIds"
    }

    /// Creates a watchlist (the name is not validated; see `validatedName`).
    public init(name: String, owner: Owner = .system, queries: [WatchlistQuery] = [], movieIDs: [Int] = []) {
        self.name = name
        self.owner = owner
        self.queries = queries
        self.movieIDs = movieIDs
    }

    /// Decodes the wire shape (`owner` absent: a system list).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        queries = try container.decode([WatchlistQuery].self, forKey: .queries)
        movieIDs = try container.decode([Int].self, forKey: .movieIDs)
        owner = try container.decodeIfPresent(UInt32.self, forKey: .owner).map { .user(LocalUser(uid: $0)) } ?? .system
    }

    /// Encodes the wire shape (`owner` only on a personal list).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(queries, forKey: .queries)
        try container.encode(movieIDs, forKey: .movieIDs)
        try container.encodeIfPresent(owner.user?.uid, forKey: .owner)
    }

    /// Whether the list holds nothing.
    public var isEmpty: Bool { queries.isEmpty && movieIDs.isEmpty }

    /// `raw` trimmed, if it is an acceptable name: 1...`maxNameLength` characters, no control characters.
    public static func validatedName(_ raw: String) throws(MoviesError) -> String {
        let name = raw.trimmingWhitespace()
        guard !name.isEmpty, name.count <= maxNameLength,
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw MoviesError.invalidArgument("a watchlist name must be 1 to \(maxNameLength) printable characters, got '\(raw)'")
        }
        return name
    }

    /// Adds `queries` (an existing query takes the new page depth) and `movieIDs` (once each).
    public mutating func add(queries added: [WatchlistQuery], movieIDs addedIDs: [Int]) {
        for entry in added {
            if let index = queries.firstIndex(where: { $0.query == entry.query }) {
                queries[index].pages = entry.pages
            } else {
                queries.append(entry)
            }
        }
        for id in addedIDs where !movieIDs.contains(id) { movieIDs.append(id) }
    }

    /// Removes `queries` (by canonical form) and `movieIDs`.
    public mutating func remove(queries removed: [MovieQuery], movieIDs removedIDs: [Int]) {
        queries.removeAll { entry in removed.contains(entry.query) }
        movieIDs.removeAll { removedIDs.contains($0) }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
