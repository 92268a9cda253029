import FoundationEssentials
import Glibc
import MoviesData
import MoviesDomain
import MoviesWire
import SQLiteStore
import SystemSupport

/// `moviesd-bench index`: the local search index at scale, on the daemon's own storage code.
///
/// Fills two cache databases with the same `--movies` synthetic movies, as search pages of 20:
/// one indexed as the daemon indexes (each page stored, which queues it, then indexed by
/// `MovieIndexUpkeep`), one without the index tables. Prints the cost of storing a page with and
/// without the index (the write path a reply waits for), and of indexing it after: one page at a
/// time (9 pages in 10), and in bursts of 8 (the last tenth), then for the same pages fetched
/// again unchanged; then the latency of `--queries` index queries in a realistic mix (title word
/// prefixes, two words, an overview word, CJK substrings of 3 and of 2 characters, and words that
/// match nothing).
struct IndexBench {
    var movies = 100_000
    var queries = 2_000
    var directory = "/tmp"
    var seed: UInt64 = 1
    /// Leaves the databases in place (and says where), to look at them with `sqlite3`.
    var keep = false
    /// Only fills the indexed cache, as the daemon stores and indexes pages, and keeps it
    /// (`scripts/bench-browse` runs moviesd on it): no costs or query latencies measured.
    var indexedOnly = false

    func run() async throws -> [String] {
        var random = SeededRandomGenerator(seed: seed)
        let catalogue = SyntheticCatalogue(movies: movies, random: &random)
        let root = directory + "/moviesd-index-bench-\(getpid())"
        mkdir(root, 0o700)
        if indexedOnly { return try await fillIndexed(catalogue, root: root) }
        defer {
            if keep {
                print("index kept=\(root)")
            } else {
                for name in ["indexed", "plain"] {
                    for suffix in ["", "-wal", "-shm"] { unlink("\(root)/\(name).sqlite3\(suffix)") }
                }
                rmdir(root)
            }
        }
        let indexedStore = try SQLiteStore(path: root + "/indexed.sqlite3", readers: 2, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations), durability: .consistent)
        let plainStore = try SQLiteStore(path: root + "/plain.sqlite3", readers: 2, migrator: SQLiteMigrator(migrations: Self.plainMigrations), durability: .consistent)
        let indexed = SQLiteResponseStorage(store: indexedStore)
        let plain = SQLiteResponseStorage(store: plainStore)
        let upkeep = MovieIndexUpkeep(store: indexedStore)
        let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

        // New pages, one at a time and then in bursts; then the same pages fetched again,
        // unchanged (what keeping a cache fresh writes).
        let single = catalogue.pages.count - catalogue.pages.count / 10
        let new = try await Self.write(Array(catalogue.pages.prefix(single)), at: fetchedAt, indexed: indexed, plain: plain, upkeep: upkeep, burst: 1, firstNumber: 0)
        let burst = try await Self.write(Array(catalogue.pages.dropFirst(single)), at: fetchedAt, indexed: indexed, plain: plain, upkeep: upkeep, burst: 8, firstNumber: single)
        let later = fetchedAt.addingTimeInterval(3600)
        let again = try await Self.write(Array(catalogue.pages.prefix(1_000)), at: later, indexed: indexed, plain: plain, upkeep: upkeep, burst: 1, firstNumber: 0)

        // The entries alone (the reply decoded, the text folded, the summaries encoded), outside any transaction.
        let entriesStarted = MonotonicClock.now()
        for (number, page) in catalogue.pages.prefix(1_000).enumerated() {
            _ = MovieIndexing.entries(of: Self.response(number, page, fetchedAt: later))
        }
        let entriesMilliseconds = Self.seconds(since: entriesStarted) * 1000 / Double(min(1_000, catalogue.pages.count))

        let index = SQLiteMovieTextIndex(store: indexedStore)
        var latencies: [String: [Double]] = [:]
        var found: [String: Int] = [:]
        var slowest: [(Double, String, Int)] = []
        for _ in 0..<queries {
            let (kind, text) = catalogue.query(&random)
            let started = MonotonicClock.now()
            let result = try await index.search(LocalSearchQuery(text: text, language: ""))
            latencies[kind, default: []].append(Self.seconds(since: started))
            if result.total > 0 { found[kind, default: 0] += 1 }
            slowest.append((latencies[kind]?.last ?? 0, text, result.total))
            if slowest.count > 20 { slowest = Array(slowest.sorted { $0.0 > $1.0 }.prefix(5)) }
        }
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: root + "/indexed.sqlite3")[.size] as? Int) ?? 0
        let plainBytes = (try? FileManager.default.attributesOfItem(atPath: root + "/plain.sqlite3")[.size] as? Int) ?? 0
        await indexedStore.close()
        await plainStore.close()

        var lines = [
            "index movies=\(movies) pages=\(catalogue.pages.count) db_mib=\(Self.mib(fileBytes)) db_without_index_mib=\(Self.mib(plainBytes))",
        ] + new.storeLines("new_page") + burst.storeLines("new_page_in_bursts") + again.storeLines("unchanged_page") + [
            new.indexLine("new_page", burst: 1), burst.indexLine("new_page", burst: 8), again.indexLine("unchanged_page", burst: 1),
        ]
        lines.append("index write=entries_only ms=\(Self.format(entriesMilliseconds))")
        let all = latencies.values.flatMap { $0 }
        lines.append(Self.latencyLine("all", all, found: found.values.reduce(0, +)))
        for kind in latencies.keys.sorted() {
            lines.append(Self.latencyLine(kind, latencies[kind] ?? [], found: found[kind] ?? 0))
        }
        for (seconds, text, total) in slowest.sorted(by: { $0.0 > $1.0 }).prefix(5) {
            lines.append("index slowest ms=\(Self.format(seconds * 1000)) matches=\(total) query=\"\(text)\"")
        }
        return lines
    }

    /// The cache's schema without the local search index (versions 5 and 7): its first four
    /// versions, then the columns of `responses` that came later (the change feed's `validated_at`,
    /// the reply's version), which the storage writes.
    static let plainMigrations = Array(StoreSchema.cacheMigrations.prefix(4)) + [
        SQLiteMigration(version: 5, name: "later response columns, without the index", sql: """
            ALTER TABLE responses ADD COLUMN validated_at REAL;
            ALTER TABLE responses ADD COLUMN reply_version INT;
            """),
        SQLiteMigration(version: 6, name: StoreSchema.budgetIndex.name, sql: StoreSchema.budgetIndexSQL),
    ]

    /// Saves each page into both storages, indexing `indexed`'s after every `burst` pages.
    private static func write(
        _ pages: [MoviesPage], at date: Date, indexed: SQLiteResponseStorage, plain: SQLiteResponseStorage,
        upkeep: MovieIndexUpkeep, burst: Int, firstNumber: Int
    ) async throws -> WriteCosts {
        var costs = WriteCosts()
        for (number, page) in pages.enumerated() {
            let body = Data(try WireCoding.bytes(TMDBPageBody(page)))
            for (storage, kind) in [(indexed, true), (plain, false)] {
                // What the loader does with TMDB's bytes: decode them, encode the reply, store both.
                let started = MonotonicClock.now()
                let value = try MoviesResponseDTO.decode(body).toDomain()
                var response = Self.response(firstNumber + number, value, fetchedAt: date)
                response.body = body
                let stored = MonotonicClock.now()
                try await storage.save(response)
                let ended = MonotonicClock.now()
                let (path, store) = (Double(ended - started) / 1e9, Double(ended - stored) / 1e9)
                if kind { costs.withIndex.append(store); costs.pathWithIndex.append(path) } else { costs.without.append(store); costs.pathWithout.append(path) }
            }
            if (number + 1) % burst == 0 || number == pages.count - 1 {
                let indexStarted = MonotonicClock.now()
                try await upkeep.catchUp(checkpointing: true)  // as the daemon's service does
                costs.indexing += Self.seconds(since: indexStarted)
            }
        }
        costs.pages = pages.count
        return costs
    }

    /// The indexed cache alone, filled with `catalogue`'s pages as the loader stores them and
    /// indexed by `MovieIndexUpkeep`, then closed and kept.
    private func fillIndexed(_ catalogue: SyntheticCatalogue, root: String) async throws -> [String] {
        let store = try SQLiteStore(path: root + "/indexed.sqlite3", readers: 2, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations), durability: .consistent)
        let storage = SQLiteResponseStorage(store: store)
        let upkeep = MovieIndexUpkeep(store: store)
        let fetchedAt = Date()
        for (number, page) in catalogue.pages.enumerated() {
            var response = Self.response(number, page, fetchedAt: fetchedAt)
            response.body = Data(try WireCoding.bytes(TMDBPageBody(page)))
            try await storage.save(response)
            if (number + 1) % 8 == 0 { try await upkeep.catchUp(checkpointing: true) }
        }
        try await upkeep.catchUp(checkpointing: true)
        await store.close()
        return ["index kept=\(root) movies=\(movies) pages=\(catalogue.pages.count)"]
    }

    /// What storing and indexing a run of pages cost.
    struct WriteCosts {
        /// The store transaction, with the index and without.
        var withIndex: [Double] = []
        var without: [Double] = []
        /// The write path: TMDB's body decoded, the reply encoded, both stored.
        var pathWithIndex: [Double] = []
        var pathWithout: [Double] = []
        /// Seconds spent indexing them, after they were stored.
        var indexing = 0.0
        var pages = 0

        /// The store transaction and the whole write path, with the index (which queues the
        /// page) and without.
        func storeLines(_ kind: String) -> [String] {
            [("store", withIndex, without), ("write_path", pathWithIndex, pathWithout)].map { name, with, without in
                "index \(name)=\(kind) with_index_ms=\(IndexBench.format(mean(with))) without_ms=\(IndexBench.format(mean(without))) upkeep=\(IndexBench.format(100 * (mean(with) / mean(without) - 1)))%"
            }
        }

        /// Indexing after the store, per page.
        func indexLine(_ kind: String, burst: Int) -> String {
            "index indexed=\(kind) burst=\(burst) pages=\(pages) ms_per_page=\(IndexBench.format(indexing * 1000 / Double(max(1, pages))))"
        }

        private func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) * 1000 }
    }

    private static func seconds(since start: UInt64) -> Double {
        Double(MonotonicClock.now() - start) / 1e9
    }

    private static func response(_ number: Int, _ page: MoviesPage, fetchedAt: Date) -> StoredResponse {
        let body = (try? WireCoding.bytes(page)) ?? []
        return StoredResponse(
            key: "search/movie?query=bench-\(number)&language=&page=1", resource: .search, body: Data(body),
            fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(21_600), reply: Array(body), replyVersion: WireCoding.version)
    }

    private static func latencyLine(_ kind: String, _ seconds: [Double], found: Int) -> String {
        let sorted = seconds.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
        }
        return "index query=\(kind) count=\(sorted.count) found=\(found) p50_ms=\(format(percentile(0.5))) p99_ms=\(format(percentile(0.99))) max_ms=\(format((sorted.last ?? 0) * 1000))"
    }

    private static func format(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return "\(scaled)"
    }

    private static func mib(_ bytes: Int) -> String { format(Double(bytes) / 1_048_576) }
}

/// Movies with made-up words for titles and overviews, drawn as words are in real text (Zipf:
/// the k-th most common word k times rarer than the first; the commonest are English's; titles
/// have no function words but a leading "The" or "A"): most titles in Latin letters, some
/// accented, some with a Japanese or Chinese original title.
struct SyntheticCatalogue {
    let pages: [MoviesPage]
    private let titles: [[String]]
    private let overviewWords: [String]
    private let unspacedTitles: [String]

    private static let common = ["the", "of", "and", "a", "in", "to", "love", "man", "night", "day", "life", "last", "world", "story", "house", "girl", "war", "time", "dead", "black", "king", "lost", "dark", "city", "blood", "star", "home", "little", "big", "one"]
    private static let functionWords: Set<String> = ["the", "of", "and", "a", "in", "to"]
    private static let syllables = ["ka", "lo", "mi", "ra", "ten", "sho", "vel", "dar", "in", "qu", "ber", "nos", "tri", "al", "ex", "or", "um", "zen", "pa", "li", "gor", "bri", "fen", "mor", "sta", "vin", "cle", "dru", "hal", "jun", "kes", "lum", "nar", "pol", "rix", "sul", "tor", "ul", "wen", "yad"]
    private static let accented: [Character: Character] = ["e": "é", "a": "à", "o": "ô", "u": "ü", "i": "ï"]
    private static let kanji = Array("千尋神隠夢風谷城空海山月光森王女子鬼刀侍花火夜星雪恋人生死時物語君名七")

    init(movies: Int, random: inout SeededRandomGenerator) {
        var vocabulary = Self.common
        while vocabulary.count < 20_000 {
            vocabulary.append((0..<(2 + random.below(2))).map { _ in Self.syllables[random.below(Self.syllables.count)] }.joined())
        }
        // Cumulative Zipf weights over the vocabulary, for drawing a word.
        var cumulative: [Double] = []
        var total = 0.0
        for rank in 1...vocabulary.count {
            total += 1 / Double(rank)
            cumulative.append(total)
        }
        func word(_ random: inout SeededRandomGenerator) -> String {
            let target = Double(random.next() % 1_000_000_000) / 1_000_000_000 * total
            var (low, high) = (0, cumulative.count - 1)
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < target { low = middle + 1 } else { high = middle }
            }
            return vocabulary[low]
        }
        var pages: [MoviesPage] = []
        var titles: [[String]] = []
        var unspaced: [String] = []
        var current: [Movie] = []
        for id in 1...max(1, movies) {
            // Titles as English ones are: an article now and then, then words that are not
            // function words (overviews have every word).
            var words = (0..<(1 + random.below(3))).map { _ in
                var drawn = word(&random)
                while Self.functionWords.contains(drawn) { drawn = word(&random) }
                return drawn
            }
            switch random.below(100) {
            case 0..<25: words.insert("the", at: 0)
            case 25..<30: words.insert("a", at: 0)
            default: break
            }
            if random.below(25) == 0 {
                words = words.map { String($0.map { Self.accented[$0] ?? $0 }) }
            }
            let title = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
            var original = title
            if random.below(25) == 0 {
                original = String((0..<(3 + random.below(6))).map { _ in Self.kanji[random.below(Self.kanji.count)] })
                unspaced.append(original)
            }
            let overview = (0..<(25 + random.below(25))).map { _ in word(&random) }.joined(separator: " ")
            titles.append(words)
            current.append(Movie(
                id: id, title: title, originalTitle: original, overview: overview, releaseDate: "2001-02-03",
                posterPath: "/p\(id).jpg", voteAverage: Double(random.below(100)) / 10, originalLanguage: "en",
                popularity: Double(random.below(100_000)) / 100))
            if current.count == 20 {
                pages.append(MoviesPage(page: 1, totalPages: 1, totalResults: 20, movies: current))
                current = []
            }
        }
        if !current.isEmpty { pages.append(MoviesPage(page: 1, totalPages: 1, totalResults: current.count, movies: current)) }
        self.pages = pages
        self.titles = titles
        overviewWords = Array(vocabulary.prefix(5_000))
        unspacedTitles = unspaced.isEmpty ? ["千尋"] : unspaced
    }

    /// One query of the mix, with its kind: mostly what users type into `movies search` (a
    /// cached movie's title, or one word of it), then prefixes, overview words, CJK, nonsense.
    func query(_ random: inout SeededRandomGenerator) -> (String, String) {
        let words = titles[random.below(titles.count)]
        switch random.below(100) {
        case 0..<45:
            return ("title", words.joined(separator: " "))
        case 45..<65:
            return ("title_word", words[random.below(words.count)])
        case 65..<75:
            let word = words[random.below(words.count)]
            return ("prefix_4", String(word.prefix(4)))
        case 75..<80:
            return ("overview_word", overviewWords[random.below(overviewWords.count)])
        case 80..<88:
            let title = Array(unspacedTitles[random.below(unspacedTitles.count)])
            let start = random.below(max(1, title.count - 2))
            return ("cjk_3", String(title[start..<min(title.count, start + 3)]))
        case 88..<95:
            let title = Array(unspacedTitles[random.below(unspacedTitles.count)])
            let start = random.below(max(1, title.count - 1))
            return ("cjk_2", String(title[start..<min(title.count, start + 2)]))
        default:
            return ("no_match", "zzq" + String(random.below(1000)))
        }
    }
}

extension SeededRandomGenerator {
    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func below(_ bound: Int) -> Int { bound > 0 ? Int.random(in: 0..<bound, using: &self) : 0 }
}
