import Gzip
import MoviesDomain

/// Streams a downloaded export (gzip, one JSON object a line) into the catalogue's staging, in
/// batches, never holding the file: memory stays one read buffer, one decoded buffer and one batch.
public struct CatalogueExportReader: Sendable {
    /// Whether adult and video entries are kept.
    public var includeAdult: Bool
    /// Titles staged per transaction.
    public var batchSize = 10_000

    /// A reader keeping adult and video entries only with `includeAdult`.
    public init(includeAdult: Bool) {
        self.includeAdult = includeAdult
    }

    /// What one read found.
    public struct Counts: Sendable, Hashable {
        /// Titles staged.
        public var staged = 0
        /// Lines left out (adult or video).
        public var skipped = 0
        /// Lines that could not be read.
        public var unreadable = 0
    }

    /// Reads the gzip file at `path` and hands its kept titles to `stage`, `batchSize` at a time.
    /// Throws `CatalogueError` (`.corrupt`, `.truncated`, `.unusable` when more than 1 % of the
    /// lines, or every line, cannot be read) or what `stage` throws.
    public func read(file path: String, stage: ([CatalogueTitle]) async throws -> Void) async throws -> Counts {
        var counts = Counts()
        var batch: [CatalogueTitle] = []
        batch.reserveCapacity(batchSize + 16_384)
        let includeAdult = includeAdult
        do {
            let reader = try GzipLineReader(path: path)
            var more = true
            while more {
                more = try reader.readPiece { line in
                    if line.isEmpty { return }
                    guard let entry = CatalogueExportLine.parse(line) else {
                        counts.unreadable += 1
                        return
                    }
                    guard entry.isKept(includeAdult: includeAdult) else {
                        counts.skipped += 1
                        return
                    }
                    batch.append(CatalogueTitle(id: entry.id, title: entry.originalTitle, popularity: entry.popularity))
                }
                if batch.count >= batchSize || (!more && !batch.isEmpty) {
                    try await stage(batch)
                    counts.staged += batch.count
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch let error as GzipError {
            throw Self.catalogueError(error)
        }
        let lines = counts.staged + counts.skipped + counts.unreadable
        if counts.staged == 0 || counts.unreadable * 100 > lines {
            throw CatalogueError(.unusable, "The export cannot be used: \(counts.unreadable) of its \(lines) lines could not be read.")
        }
        return counts
    }

    static func catalogueError(_ error: GzipError) -> CatalogueError {
        switch error.code {
        case .corrupt: CatalogueError(.corrupt, "The export is damaged: \(error.description)")
        case .truncated: CatalogueError(.truncated, "The export is cut short: \(error.description)")
        case .io: CatalogueError(.storage, error.description)
        case .zlibUnavailable: CatalogueError(.zlibUnavailable, error.description)
        }
    }
}
