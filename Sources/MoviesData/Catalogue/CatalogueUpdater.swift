#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MoviesDomain
import Networking

/// Brings the catalogue up to date with TMDB's daily ID export: downloads the newest day's file
/// (falling back to earlier days when it is missing) to a file beside the catalogue, streams it
/// through gzip into the storage's staging, and swaps it in (`CatalogueStorage`). One update at a
/// time; a failure at any step leaves the catalogue of before whole and is thrown as a
/// `CatalogueError` that says why.
public actor CatalogueUpdater: CatalogueRepository {
    private let storage: any CatalogueStorage
    private let transport: any HTTPTransport
    private let settings: CatalogueSettings
    private let downloadPath: String
    private let now: @Sendable () -> Date
    private let events: any EventLog
    private var running: Task<CatalogueImportSummary, any Error>?

    /// Creates an updater.
    /// - Parameters:
    ///   - downloadPath: where the export is downloaded (removed after each import).
    ///   - transport: HTTP (the export needs no TMDB key: none is sent).
    ///   - events: the journal: each import (notice) and each failure (error, with why, and that
    ///     the catalogue of before is kept).
    public init(
        storage: any CatalogueStorage, transport: any HTTPTransport, settings: CatalogueSettings, downloadPath: String,
        now: @escaping @Sendable () -> Date = { Date() }, events: any EventLog = DiscardingEventLog()
    ) {
        self.events = events
        self.storage = storage
        self.transport = transport
        self.settings = settings
        self.downloadPath = downloadPath
        self.now = now
    }

    /// What the catalogue holds.
    public func status() async throws -> CatalogueStatus {
        try await storage.status()
    }

    /// Whether the timer should import: never imported, or the last import older than `MaxAge=`.
    public func isDue() async -> Bool {
        guard settings.timerImports else { return false }
        guard let status = try? await storage.status(), let importedAt = status.importedAt else { return true }
        return now().timeIntervalSince(importedAt) >= settings.maxAgeSeconds
    }

    /// Downloads and imports the newest export now; a caller arriving while an update runs
    /// joins it.
    public func update() async throws -> CatalogueImportSummary {
        if let running { return try await running.value }
        let task = Task { try await self.downloadAndImport() }
        running = task
        defer { running = nil }
        do {
            let summary = try await task.value
            events.record(DataEvent(
                .notice, "catalogue.imported",
                "catalogue: imported TMDB's export of \(summary.exportDate): \(summary.titles) titles (\(summary.added) new, "
                    + "\(summary.removed) removed, \(summary.retitled) changed, \(summary.skipped) adult or video left out, \(summary.unreadable) unreadable)"))
            return summary
        } catch {
            let kept = (try? await storage.status().exportDate).flatMap { $0 }.map { "the catalogue of \($0) is kept" } ?? "there is no catalogue yet"
            events.record(DataEvent(.error, "catalogue.failed", "catalogue: the import failed: \(error); \(kept)"))
            throw error
        }
    }

    /// The timer: runs until cancelled, importing whenever `isDue()` (never imported, or older
    /// than `[Catalogue] MaxAge=`), checked `firstCheckSeconds` after the start (not to compete
    /// with it) and every `checkEverySeconds` after; a failed import is tried again at the next
    /// check. Nothing with `[Catalogue] Enabled=no`.
    public func runSchedule(
        firstCheckSeconds: Double = 60, checkEverySeconds: Double = 3_600,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) async {
        do { try await sleep(firstCheckSeconds) } catch { return }
        while !Task.isCancelled {
            if await isDue() { _ = try? await update() }
            do { try await sleep(checkEverySeconds) } catch { return }
        }
    }

    private func downloadAndImport() async throws -> CatalogueImportSummary {
        defer { unlink(downloadPath) }
        let newest = CatalogueSettings.newestExportDay(at: now())
        var tried: [String] = []
        for back in 0...max(0, settings.earlierDays) {
            let day = newest.adding(days: -back)
            guard let url = settings.exportURL(for: day) else {
                throw CatalogueError(.downloadFailed, "[Catalogue] URL= does not make a URL: \(settings.url)")
            }
            let response: HTTPResponse
            do {
                response = try await transport.send(HTTPRequest(url: url, timeoutSeconds: settings.downloadTimeoutSeconds, bodyFile: downloadPath))
            } catch {
                throw CatalogueError(.downloadFailed, "Downloading \(url.absoluteString) failed: \(error)")
            }
            if response.status == 404 || response.status == 403 {
                // files.tmdb.org answers a missing file 403 (S3) or 404.
                tried.append(day.description)
                continue
            }
            guard (200..<300).contains(response.status) else {
                throw CatalogueError(.downloadFailed, "Downloading \(url.absoluteString) failed: HTTP \(response.status).")
            }
            return try await importFile(downloadPath, exportDate: day.description)
        }
        throw CatalogueError(.exportNotFound, "No export was found for \(tried.joined(separator: ", ")) at \(settings.url).")
    }

    /// Imports the gzip export at `path`, of `exportDate`: staged, then swapped in. On failure,
    /// what was staged is discarded and the catalogue stays as it was.
    public func importFile(_ path: String, exportDate: String) async throws -> CatalogueImportSummary {
        let storage = self.storage
        do {
            try await storage.beginImport()
            let counts = try await CatalogueExportReader(includeAdult: settings.includeAdult).read(file: path) { batch in
                try await storage.stage(batch)
            }
            var summary = try await storage.commitImport(exportDate: exportDate, importedAt: now().timeIntervalSince1970)
            summary.skipped = counts.skipped
            summary.unreadable = counts.unreadable
            return summary
        } catch {
            await storage.abandonImport()
            throw error
        }
    }
}
