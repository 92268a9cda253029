import Foundation
import Gzip
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import SQLiteStore

/// The catalogue: an export imported through gzip into its own database, searched most popular
/// first, a later export applied as a difference, and every failure leaving the catalogue of
/// before whole.
@Suite struct SQLiteCatalogueTests {
    /// One export line.
    static func line(_ id: Int, _ title: String, _ popularity: Double, adult: Bool = false, video: Bool = false) -> String {
        let escaped = title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "{\"adult\":\(adult),\"id\":\(id),\"original_title\":\"\(escaped)\",\"popularity\":\(popularity),\"video\":\(video)}"
    }

    static let first = [
        line(11, "Star Wars", 80.5), line(12, "Finding Nemo", 60), line(13, "Amélie", 30.2),
        line(14, "千と千尋の神隠し", 55), line(15, "Stargate", 12), line(16, "Starman", 3.1),
        line(17, "Adult Star", 99, adult: true), line(18, "Star Video", 98, video: true),
        line(19, "Сталкер", 20), line(20, "The \"Quoted\" Star", 1.5),
    ]

    /// Writes `lines` as a gzip file in `directory`; `cut` keeps only that share of its bytes.
    static func export(_ lines: [String], in directory: URL, name: String = "export.json.gz", cut: Double = 1, corrupt: Bool = false) throws -> String {
        var bytes = try GzipEncoder.compress(Array((lines.joined(separator: "\n") + "\n").utf8))
        bytes = Array(bytes.prefix(Int(Double(bytes.count) * cut)))
        if corrupt { for index in bytes.count / 2..<min(bytes.count, bytes.count / 2 + 8) { bytes[index] ^= 0x5A } }
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func updater(_ catalogue: SQLiteCatalogue, in directory: URL, includeAdult: Bool = false) -> CatalogueUpdater {
        var settings = CatalogueSettings()
        settings.includeAdult = includeAdult
        return CatalogueUpdater(
            storage: catalogue, transport: FakeHTTPTransport(), settings: settings,
            downloadPath: directory.appendingPathComponent("download.json.gz").path, now: { Date(timeIntervalSince1970: 1_772_700_000) })
    }

    static func ids(_ catalogue: SQLiteCatalogue, _ text: String, limit: Int = 20) async throws -> [Int] {
        try await catalogue.search(text, limit: limit, offset: 0).titles.map(\.id)
    }

    @Test func importsAnExportAndSearchesItMostPopularFirst() async throws {
        try await TemporaryDatabase.with { database in
            let catalogue = try SQLiteCatalogue(path: database.path)
            let summary = try await Self.updater(catalogue, in: database.directory)
                .importFile(try Self.export(Self.first, in: database.directory), exportDate: "2026-03-05")
            #expect(summary.titles == 8 && summary.added == 8 && summary.removed == 0 && summary.skipped == 2)
            let status = try await catalogue.status()
            #expect(status.exportDate == "2026-03-05" && status.titles == 8 && status.importedAt == Date(timeIntervalSince1970: 1_772_700_000))
            #expect(status.bytesOnDisk > 0)
            // Words and a prefix, most popular first; adult and video entries left out.
            let star = try await Self.ids(catalogue, "star")
            #expect(star == [11, 15, 16, 20])
            #expect(try await Self.ids(catalogue, "sta") == [11, 15, 16, 20])
            #expect(try await Self.ids(catalogue, "st") == [11, 15, 16, 20])
            #expect(try await Self.ids(catalogue, "star ") == [11, 15, 16, 20])
            #expect(try await Self.ids(catalogue, "ст") == [19])
            #expect(try await Self.ids(catalogue, "star wa") == [11])
            // Diacritics folded, CJK by 2 characters, Cyrillic, quotes.
            #expect(try await Self.ids(catalogue, "amelie") == [13])
            #expect(try await Self.ids(catalogue, "千尋") == [14])
            #expect(try await Self.ids(catalogue, "神隠し") == [14])
            #expect(try await Self.ids(catalogue, "сталкер") == [19])
            #expect(try await Self.ids(catalogue, "\"quoted\"") == [20])
            #expect(try await Self.ids(catalogue, "-- ** ").isEmpty)
            #expect(try await catalogue.title(id: 13) == CatalogueTitle(id: 13, title: "Amélie", popularity: 30.2))
            #expect(try await catalogue.title(id: 17) == nil)
            // Offset and limit.
            #expect(try await catalogue.search("st", limit: 2, offset: 1).titles.map(\.id) == [15, 16])
            #expect(try await catalogue.search("st", limit: 2, offset: 0).total == 4)
        }
    }

    @Test func includeAdultKeepsAdultAndVideoEntries() async throws {
        try await TemporaryDatabase.with { database in
            let catalogue = try SQLiteCatalogue(path: database.path)
            _ = try await Self.updater(catalogue, in: database.directory, includeAdult: true)
                .importFile(try Self.export(Self.first, in: database.directory), exportDate: "2026-03-05")
            #expect(try await Self.ids(catalogue, "star") == [17, 18, 11, 15, 16, 20])
        }
    }

    @Test func aLaterExportAppliesOnlyTheDifference() async throws {
        try await TemporaryDatabase.with { database in
            let catalogue = try SQLiteCatalogue(path: database.path)
            let updater = Self.updater(catalogue, in: database.directory)
            _ = try await updater.importFile(try Self.export(Self.first, in: database.directory), exportDate: "2026-03-05")
            var later = Self.first.filter { !$0.contains("\"id\":16,") && !$0.contains("\"id\":12,") }
            later = later.map { $0.contains("\"id\":15,") ? Self.line(15, "Stargate SG-1", 12) : $0 }
            later = later.map { $0.contains("\"id\":13,") ? Self.line(13, "Amélie", 300) : $0 }  // 10 × : its row moves
            later = later.map { $0.contains("\"id\":19,") ? Self.line(19, "Сталкер", 21) : $0 }  // 5 %: the row stays
            later.append(Self.line(30, "Star Trek", 90))
            let summary = try await updater.importFile(try Self.export(later, in: database.directory), exportDate: "2026-03-12")
            #expect(summary.added == 1 && summary.removed == 2 && summary.retitled == 2 && summary.titles == 7)
            #expect(try await Self.ids(catalogue, "st") == [30, 11, 15, 20])
            #expect(try await Self.ids(catalogue, "sg") == [15])
            #expect(try await Self.ids(catalogue, "nemo").isEmpty)
            #expect(try await Self.ids(catalogue, "amelie") == [13])
            #expect(try await catalogue.title(id: 19)?.popularity == 21)
            #expect(try await catalogue.status().exportDate == "2026-03-12")
            // The text index holds exactly the titles: FTS5's own check against what was written.
            try await catalogue.store.write { connection in
                try connection.execute("INSERT INTO catalogue_text(catalogue_text, rank) VALUES ('integrity-check', 0)")
            }
            #expect(!FileManager.default.fileExists(atPath: database.path + "-incoming"))
        }
    }

    /// A row left in its place (popularity moved within the tolerance) still ranks by the
    /// popularity of the last export.
    @Test func rowsLeftInPlaceRankByTheirPopularityOfNow() async throws {
        try await TemporaryDatabase.with { database in
            let catalogue = try SQLiteCatalogue(path: database.path)
            let updater = Self.updater(catalogue, in: database.directory)
            let before = [Self.line(1, "Alpha One", 10), Self.line(2, "Alpha Two", 12), Self.line(3, "Alpha Three", 11.5)]
            _ = try await updater.importFile(try Self.export(before, in: database.directory), exportDate: "2026-03-05")
            #expect(try await Self.ids(catalogue, "alpha") == [2, 3, 1])
            let after = [Self.line(1, "Alpha One", 13), Self.line(2, "Alpha Two", 12), Self.line(3, "Alpha Three", 11.5)]
            let summary = try await updater.importFile(try Self.export(after, in: database.directory), exportDate: "2026-03-06")
            #expect(summary.retitled == 0)
            #expect(try await Self.ids(catalogue, "alpha") == [1, 2, 3])
            #expect(try await Self.ids(catalogue, "alpha", limit: 1) == [1])
        }
    }

    /// Each bad file fails with its code, and the catalogue of before answers as it did.
    @Test(arguments: [("truncated", CatalogueError.Code.truncated), ("corrupt", .corrupt), ("unreadable", .unusable), ("empty", .unusable)])
    func aBadExportLeavesTheCatalogueWhole(kind: String, code: CatalogueError.Code) async throws {
        try await TemporaryDatabase.with { database in
            let catalogue = try SQLiteCatalogue(path: database.path)
            let updater = Self.updater(catalogue, in: database.directory)
            _ = try await updater.importFile(try Self.export(Self.first, in: database.directory), exportDate: "2026-03-05")
            let big = (100..<5_100).map { Self.line($0, "Filler \($0)", 1) }
            let path: String
            switch kind {
            case "truncated": path = try Self.export(big, in: database.directory, name: "bad.gz", cut: 0.6)
            case "corrupt": path = try Self.export(big, in: database.directory, name: "bad.gz", corrupt: true)
            case "unreadable": path = try Self.export(big.map { String($0.dropLast(3)) }, in: database.directory, name: "bad.gz")
            default: path = try Self.export([], in: database.directory, name: "bad.gz")
            }
            await #expect(throws: CatalogueError.self) { try await updater.importFile(path, exportDate: "2026-03-12") }
            do {
                _ = try await updater.importFile(path, exportDate: "2026-03-12")
            } catch let error as CatalogueError {
                #expect(error.code == code)
            }
            let status = try await catalogue.status()
            #expect(status.exportDate == "2026-03-05" && status.titles == 8)
            #expect(try await Self.ids(catalogue, "st") == [11, 15, 16, 20])
            #expect(try await Self.ids(catalogue, "filler").isEmpty)
            #expect(!FileManager.default.fileExists(atPath: database.path + "-incoming"))
        }
    }

    @Test func aFullDiskLeavesTheCatalogueWhole() async throws {
        try await TemporaryDatabase.with { database in
            let catalogue = try SQLiteCatalogue(path: database.path)
            let updater = Self.updater(catalogue, in: database.directory)
            _ = try await updater.importFile(try Self.export(Self.first, in: database.directory), exportDate: "2026-03-05")
            let pages = try await catalogue.store.read { try $0.integer("PRAGMA page_count") } ?? 0
            try await catalogue.limitSize(pages: Int(pages) + 40)
            let big = (100..<20_100).map { Self.line($0, "Filler title number \($0)", Double($0 % 97)) }
            do {
                _ = try await updater.importFile(try Self.export(big, in: database.directory, name: "big.gz"), exportDate: "2026-03-12")
                Issue.record("the import should have found the disk full")
            } catch let error as CatalogueError {
                #expect(error.code == .diskFull)
            }
            #expect(try await catalogue.status().exportDate == "2026-03-05")
            #expect(try await Self.ids(catalogue, "st") == [11, 15, 16, 20])
        }
    }

    /// A daemon killed mid-import leaves staged rows; they are not the catalogue, and the next
    /// import starts over.
    @Test func whatAnInterruptedImportStagedIsNeitherSeenNorKept() async throws {
        try await TemporaryDatabase.with { database in
            do {
                let catalogue = try SQLiteCatalogue(path: database.path)
                _ = try await Self.updater(catalogue, in: database.directory)
                    .importFile(try Self.export(Self.first, in: database.directory), exportDate: "2026-03-05")
                try await catalogue.beginImport()
                try await catalogue.stage([CatalogueTitle(id: 99, title: "Half Imported Star", popularity: 500)])
                await catalogue.store.close()
            }
            let reopened = try SQLiteCatalogue(path: database.path)
            #expect(try await Self.ids(reopened, "star") == [11, 15, 16, 20])
            #expect(try await reopened.status().titles == 8)
            let later = Self.first + [Self.line(40, "Star Dust", 5)]
            let summary = try await Self.updater(reopened, in: database.directory)
                .importFile(try Self.export(later, in: database.directory), exportDate: "2026-03-12")
            #expect(summary.added == 1 && summary.titles == 9)
            #expect(try await Self.ids(reopened, "star") == [11, 15, 40, 16, 20])
        }
    }
}
