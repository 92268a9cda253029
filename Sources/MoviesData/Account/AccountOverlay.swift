import MoviesDomain

/// The account's lists as the user sees them, computed: TMDB's pulled lists with each applied
/// outbox entry on top, in order, with TMDB's side effect (rating a movie takes it off the
/// watchlist). Pure functions: the storages, the sync and the simulation's oracle share them.
public enum AccountOverlay {
    /// `lists` with every entry of `entries` that still applies (not rejected), in id order; items
    /// an entry changed are marked pending.
    public static func view(of lists: [AccountList: [AccountItem]], with entries: [PendingEdit]) -> [AccountList: [AccountItem]] {
        var result = lists
        let titles = knownTitles(in: lists)
        for entry in entries.sorted(by: { $0.id < $1.id }) where entry.isApplied {
            apply(entry.edit, to: &result, pending: true, titles: titles)
        }
        return result
    }

    /// Applies `edit` to `lists` as TMDB would; changed items get `pending`.
    public static func apply(_ edit: AccountEdit, to lists: inout [AccountList: [AccountItem]], pending: Bool, titles: [Int: AccountItem] = [:]) {
        let id = edit.movieID
        switch edit.change {
        case .watchlist(let on), .favorite(let on):
            if on {
                add(id, to: edit.list, in: &lists, rating: nil, pending: pending, titles: titles)
            } else {
                lists[edit.list]?.removeAll { $0.movieID == id }
            }
        case .rating(let value?):
            add(id, to: .rated, in: &lists, rating: value, pending: pending, titles: titles)
            lists[.watchlist]?.removeAll { $0.movieID == id }
        case .rating(nil):
            lists[.rated]?.removeAll { $0.movieID == id }
        }
    }

    /// The state of one list for one movie: absent (`nil`), or present with its rating.
    public struct KeyState: Sendable, Hashable {
        /// The rating, for the rated list.
        public var rating: Double?
    }

    /// The ids of the delivered entries of `entries` that `pulled` (TMDB's lists, freshly read)
    /// already shows: every list and movie the entry touches is as the delivered entries, applied
    /// on `pulled` in order, leave it.
    public static func confirmed(_ entries: [PendingEdit], pulled: [AccountList: [AccountItem]]) -> [Int64] {
        let delivered = entries.filter { $0.state == .delivered }.sorted { $0.id < $1.id }
        guard !delivered.isEmpty else { return [] }
        var expected = pulled
        for entry in delivered { apply(entry.edit, to: &expected, pending: false) }
        return delivered.filter { entry in
            touchedLists(entry.edit).allSatisfy { list in
                state(of: entry.edit.movieID, in: list, pulled) == state(of: entry.edit.movieID, in: list, expected)
            }
        }.map(\.id)
    }

    /// The lists `edit` may change: its own, and the watchlist for a rating.
    static func touchedLists(_ edit: AccountEdit) -> [AccountList] {
        if case .rating(.some) = edit.change { return [.rated, .watchlist] }
        return [edit.list]
    }

    /// The state of `movieID` in `list`.
    static func state(of movieID: Int, in list: AccountList, _ lists: [AccountList: [AccountItem]]) -> KeyState? {
        lists[list]?.first { $0.movieID == movieID }.map { KeyState(rating: $0.rating) }
    }

    private static func add(_ id: Int, to list: AccountList, in lists: inout [AccountList: [AccountItem]], rating: Double?, pending: Bool, titles: [Int: AccountItem]) {
        var items = lists[list] ?? []
        if let index = items.firstIndex(where: { $0.movieID == id }) {
            if items[index].rating != rating {
                items[index].rating = rating
                items[index].pending = items[index].pending || pending
            }
        } else {
            let known = titles[id]
            items.append(AccountItem(movieID: id, title: known?.title, releaseDate: known?.releaseDate, rating: rating, pending: pending))
        }
        lists[list] = items
    }

    /// Every movie's title and date found in any list.
    public static func knownTitles(in lists: [AccountList: [AccountItem]]) -> [Int: AccountItem] {
        var titles: [Int: AccountItem] = [:]
        for items in lists.values { for item in items where item.title != nil { titles[item.movieID] = item } }
        return titles
    }
}
