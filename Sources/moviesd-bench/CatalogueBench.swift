import FoundationEssentials
import Glibc
import MoviesData
import MoviesDomain
import Networking
import SQLiteStore

/// `moviesd-bench catalogue`: the catalogue at scale, on the daemon's own code: the import of an
/// export file (time, the process's memory growth, the size on disk), a later export applied as
/// a difference, and search latency for one-, two- and three-word queries and 2-character
/// prefixes drawn from the catalogue's own titles.
struct CatalogueBench {
    var export = ""
    var later: String?
    var database = ""
    var queries = 2_000
    var seed: UInt64 = 1
    /// A cache database with the local search index (`moviesd-bench index --indexed-only`): the
    /// queries are then also timed as the daemon's local search runs them, the cached movies'
    /// index first, then the catalogue (`LocalCatalogueMatches`: its matches and its status).
    var cache: String?

    func run() async throws -> [String] {
        var lines: [String] = []
        for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) }
        let catalogue = try SQLiteCatalogue(path: database)
        let updater = CatalogueUpdater(
            storage: catalogue, transport: CurlTransport(), settings: CatalogueSettings(), downloadPath: database + ".download")
        let rssBefore = Self.status("VmRSS") ?? 0
        let clock = ContinuousClock()
        var start = clock.now
        let first = try await updater.importFile(export, exportDate: "2026-03-05")
        let importSeconds = Self.seconds(clock.now - start)
        let peak = Self.status("VmHWM") ?? 0
        let status = try await catalogue.status()
        lines.append(
            "catalogue import titles=\(first.titles) skipped=\(first.skipped) seconds=\(Self.format(importSeconds, 2)) "
                + "rss_before_kib=\(rssBefore) rss_peak_kib=\(peak) rss_growth_mib=\(Self.format(Double(peak - rssBefore) / 1024, 1)) "
                + "disk_mib=\(Self.format(Double(status.bytesOnDisk) / 1_048_576, 1)) export_mib=\(Self.format(Double(Self.size(export)) / 1_048_576, 1))")
        if let later {
            start = clock.now
            let diff = try await updater.importFile(later, exportDate: "2026-03-12")
            let seconds = Self.seconds(clock.now - start)
            let after = try await catalogue.status()
            lines.append(
                "catalogue difference titles=\(diff.titles) added=\(diff.added) removed=\(diff.removed) moved_or_retitled=\(diff.retitled) "
                    + "seconds=\(Self.format(seconds, 2)) rss_peak_kib=\(Self.status("VmHWM") ?? 0) disk_mib=\(Self.format(Double(after.bytesOnDisk) / 1_048_576, 1))")
        }
        var index: SQLiteMovieTextIndex?
        var cacheStore: SQLiteStore?
        if let cache {
            let store = try SQLiteStore(path: cache, readers: 2, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations), durability: .consistent)
            cacheStore = store
            index = SQLiteMovieTextIndex(store: store)
        }
        lines += try await searchLatency(catalogue, index: index)
        await cacheStore?.close()
        await catalogue.store.close()
        return lines
    }

    /// Queries drawn from the catalogue's titles, each kind timed on its own.
    private func searchLatency(_ catalogue: SQLiteCatalogue, index: SQLiteMovieTextIndex?) async throws -> [String] {
        let count = queries
        let titles: [String] = try await catalogue.store.read { connection in
            let rows = try connection.prepare("SELECT title FROM catalogue_title WHERE id % 7 = 3 LIMIT ?", [.int(count * 4)])
            var titles: [String] = []
            while try rows.step() { titles.append(rows.text(at: 0) ?? "") }
            return titles
        }
        var random = SystemRandomNumberGenerator()
        var kinds: [(String, [String])] = [("one_word", []), ("two_words", []), ("three_words", []), ("prefix_2", [])]
        for title in titles.shuffled(using: &random) {
            let words = title.split(separator: " ").map(String.init).filter { $0.count >= 2 }
            guard let word = words.randomElement(using: &random) else { continue }
            if kinds[0].1.count < count { kinds[0].1.append(word.lowercased()) }
            if words.count >= 2, kinds[1].1.count < count { kinds[1].1.append(words.prefix(2).joined(separator: " ").lowercased()) }
            if words.count >= 3, kinds[2].1.count < count { kinds[2].1.append(words.prefix(3).joined(separator: " ").lowercased()) }
            if kinds[3].1.count < count { kinds[3].1.append(String(word.prefix(2)).lowercased()) }
        }
        var lines: [String] = []
        let clock = ContinuousClock()
        for (kind, texts) in kinds where !texts.isEmpty {
            var times: [Double] = [], cpu: [Double] = []
            var combined: [Double] = [], combinedCPU: [Double] = []
            var found = 0
            for text in texts {
                var start = clock.now
                var cpuStart = Self.processCPUSeconds()
                let matches = try await catalogue.search(text, limit: 20, offset: 0)
                times.append(Self.seconds(clock.now - start) * 1000)
                cpu.append((Self.processCPUSeconds() - cpuStart) * 1000)
                if !matches.titles.isEmpty { found += 1 }
                if let index {
                    // As DefaultMoviesRepository.searchLocally: the cached movies' page, then the
                    // catalogue's part of it (page 1: 20 asked for, as LocalCatalogueMatches does)
                    // and its status.
                    start = clock.now
                    cpuStart = Self.processCPUSeconds()
                    let cached = try await index.search(LocalSearchQuery(text: text, language: "", page: 1, pageSize: 20))
                    _ = cached
                    _ = try await catalogue.search(text, limit: 20, offset: 0)
                    _ = try await catalogue.status()
                    combined.append(Self.seconds(clock.now - start) * 1000)
                    combinedCPU.append((Self.processCPUSeconds() - cpuStart) * 1000)
                }
            }
            lines.append(Self.latencyLine("catalogue query=\(kind) found=\(found)", times) + " " + Self.latencyLine("cpu", cpu, prefix: "cpu_"))
            if !combined.isEmpty {
                lines.append(Self.latencyLine("local_search query=\(kind)", combined) + " " + Self.latencyLine("cpu", combinedCPU, prefix: "cpu_"))
            }
        }
        return lines
    }

    /// CPU time of this process so far (`CLOCK_PROCESS_CPUTIME_ID`): what a query costs whatever
    /// else the machine runs (the bench does nothing else meanwhile).
    static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// "LABEL count=N p50_ms=… p99_ms=… max_ms=…"; with a `prefix`, only the percentiles, named
    /// with it ("cpu_p50_ms=…").
    static func latencyLine(_ label: String, _ values: [Double], prefix: String = "") -> String {
        let times = values.sorted()
        func percentile(_ share: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * share))] }
        let figures = "\(prefix)p50_ms=\(format(percentile(0.5), 3)) \(prefix)p99_ms=\(format(percentile(0.99), 3)) \(prefix)max_ms=\(format(times.last ?? 0, 3))"
        return prefix.isEmpty ? "\(label) count=\(times.count) " + figures : figures
    }

    static func status(_ field: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(field + ":") else { continue }
            return Int(text.dropFirst(field.count + 1).filter { $0.isNumber })
        }
        return nil
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ value: Double, _ digits: Int) -> String {
        let scale = pow(10.0, Double(digits))
        return String((value * scale).rounded() / scale)
    }
}
