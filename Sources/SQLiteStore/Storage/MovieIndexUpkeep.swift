import MoviesData
import SystemSupport

/// Indexes the responses queued in the cache's `movie_index_queue` (`MovieTextIndexSchema`), off
/// the path that stores them: storing a search page costs one queue row, and its movies are
/// indexed shortly after, in transactions of up to `batchSize` responses. Measured (BENCHMARKS.md,
/// 100,000 movies): indexing a page of 20 movies takes 2–3 ms, where storing it takes
/// 0.1 ms; 8 pages in one transaction cost a third less each than alone.
///
/// `run()` is the daemon's service: it indexes what a crash left queued, then, after each
/// `wake()`, gathers what else is stored for a moment (`gather`: a refresh stores about 9 pages in
/// 250 ms at the default 35 requests/s) and indexes it. `catchUp()` is what a search calls
/// first, so a search sees every response stored before it, whether or not the service has run
/// yet. Index transactions do not move the store's change counter: they change no stored response.
public final class MovieIndexUpkeep: Sendable {
    /// The most responses indexed in one write transaction (8 × 2–3 ms: a response stored
    /// meanwhile waits up to that long for the writer).
    static let batchSize = 8

    /// The queue rows from which a catch-up asked to checkpoint copies the WAL into the database
    /// first: a backlog (a restart after a crash, a burst of stores) whose index pages outnumber
    /// the stores' between two catch-ups. A catch-up of the few pages stored in one gathering
    /// pause leaves the WAL to SQLite's own checkpoint at 1,000 pages: a checkpoint before each
    /// of them synced the database 4 times a second while 35 pages a second were stored, a tenth
    /// of the machine's time per page stored (BENCHMARKS.md).
    static let checkpointBacklog = 4 * batchSize

    private let store: SQLiteStore
    private let gather: @Sendable () async -> Void
    private let report: @Sendable (Result<Int, any Error>) -> Void
    private let wakes = WakeSignal()

    /// Creates the upkeep of `store`'s index.
    /// - Parameters:
    ///   - gather: waited for between a `wake()` and indexing, while more responses are stored
    ///     (250 ms; tests pass one that returns at once). Ends early when the service is stopped.
    ///   - report: told after each catch-up that indexed something (how many queue rows) or
    ///     failed (the error; what was not indexed stays queued for the next one).
    public init(
        store: SQLiteStore,
        gather: @escaping @Sendable () async -> Void = { try? await Task.sleep(for: .milliseconds(250)) },
        report: @escaping @Sendable (Result<Int, any Error>) -> Void = { _ in }
    ) {
        self.store = store
        self.gather = gather
        self.report = report
    }

    /// Says that a response was queued (never waits).
    public func wake() {
        wakes.signal()
    }

    /// Indexes what is queued, then what each `wake()` queues, until the calling task is cancelled
    /// (between two transactions: what is still queued then is indexed at the next start).
    public func run() async {
        await catchUpReporting(checkpointing: true)
        while !Task.isCancelled {
            await wakes.wait()
            await gather()
            guard !Task.isCancelled else { break }
            await catchUpReporting(checkpointing: true)
        }
    }

    /// Indexes every response queued when it starts, oldest first, and stops there (a search
    /// never waits behind a burst of writes that began after it); how many queue rows it took.
    /// Throws the store's error; what it did not index stays queued.
    /// - Parameter checkpointing: copy the WAL into the database first when at least
    ///   `checkpointBacklog` rows are queued (the service asks; a search does not wait for it).
    @discardableResult
    public func catchUp(checkpointing: Bool = false) async throws -> Int {
        let (queued, ceiling) = try await store.read { connection in
            let rows = try connection.prepare("SELECT count(*), max(seq) FROM movie_index_queue")
            guard try rows.step(), !rows.isNull(at: 1) else { return (Int64(0), Int64(0)) }
            return (rows.int64(at: 0), rows.int64(at: 1))
        }
        guard queued > 0 else { return 0 }
        // A backlog's index writes far more pages than the stores between its transactions. The
        // service copies the WAL into the database first, so that its own transactions start the
        // WAL over (and pay for syncing its header), and the stores after them append to a short
        // WAL instead of paying for a checkpoint of the index's pages when one of them passes the
        // threshold. Only an optimisation: a failed checkpoint (a full disk) does not stop the
        // indexing.
        if checkpointing, queued >= Self.checkpointBacklog { try? await store.checkpoint() }
        var taken = 0
        // Rows are taken in order, those there at the start first (a row numbered at or below
        // the ceiling later only once the queue was empty); stopped between transactions when
        // the caller is cancelled (the rest stays queued).
        while taken < queued, !Task.isCancelled {
            let batch = try await store.writeCountingNothing { connection in
                try MovieTextIndexWriter.indexQueued(upTo: Self.batchSize, through: ceiling, in: connection)
            }
            guard batch > 0 else { break }
            taken += batch
        }
        return taken
    }

    /// `catchUp()`, its outcome reported rather than thrown.
    func catchUpReporting(checkpointing: Bool = false) async {
        do {
            let indexed = try await catchUp(checkpointing: checkpointing)
            if indexed > 0 { report(.success(indexed)) }
        } catch {
            report(.failure(error))
        }
    }
}
