import Synchronization
import Testing
@testable import SQLiteStore

/// The pool's waits end by a reader given back or by cancellation; every test asserts which, and
/// that no reader is lost. (`SQLiteStoreTests` shows a waiting read holds no thread.)
@Suite(.timeLimit(.minutes(1))) struct ReaderPoolTests {
    /// A pool of `readers` that reports each read starting to wait on the returned stream.
    static func pool(_ readers: [Int]) -> (ReaderPool<Int>, AsyncStream<Void>.Iterator) {
        let (waits, waitContinuation) = AsyncStream.makeStream(of: Void.self)
        return (ReaderPool(readers, onWait: { waitContinuation.yield() }), waits.makeAsyncIterator())
    }

    @Test func anIdleReaderIsTakenAtOnceAndGivenBack() async throws {
        let (pool, _) = Self.pool([1, 2])
        let first = try await pool.take()
        let second = try await pool.take()
        #expect(Set([first, second]) == [1, 2])
        #expect(pool.idleCount == 0)
        pool.giveBack(first)
        pool.giveBack(second)
        #expect(pool.idleCount == 2)
    }

    @Test func waitingReadsGetTheReaderInTheOrderTheyCame() async throws {
        var (pool, waits) = Self.pool([7])
        let held = try await pool.take()
        let order = Shared<[Int]>([])
        var waiting: [Task<Void, any Error>] = []
        for index in 0..<3 {
            waiting.append(Task {
                let reader = try await pool.take()
                order.value.withLock { $0.append(index) }
                pool.giveBack(reader)
            })
            _ = await waits.next()  // this one waits before the next starts
        }
        pool.giveBack(held)
        for task in waiting { try await task.value }
        #expect(order.value.withLock { $0 } == [0, 1, 2])
        #expect(pool.idleCount == 1)
    }

    @Test func aCancelledWaitThrowsAndTakesNoReader() async throws {
        var (pool, waits) = Self.pool([7])
        let held = try await pool.take()
        let waiting = Task { try await pool.take() }
        _ = await waits.next()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }

        pool.giveBack(held)
        #expect(pool.idleCount == 1, "the reader went back to the idle ones, not to the cancelled wait")
        #expect(try await pool.take() == 7)
    }

    @Test func aWaitStartedCancelledThrowsAtOnce() async throws {
        let (pool, _) = Self.pool([7])
        let held = try await pool.take()
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.take()
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        pool.giveBack(held)
        #expect(pool.idleCount == 1)
    }

    @Test func thousandsOfTakersShareTwoReadersWithoutLosingOne() async throws {
        let (pool, _) = Self.pool([1, 2])
        let inUse = Shared(0)
        let mostInUse = Shared(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2_000 {
                group.addTask {
                    let reader = try await pool.take()
                    let now = inUse.value.withLock { $0 += 1; return $0 }
                    mostInUse.value.withLock { $0 = max($0, now) }
                    await Task.yield()
                    inUse.value.withLock { $0 -= 1 }
                    pool.giveBack(reader)
                }
            }
            try await group.waitForAll()
        }
        #expect(mostInUse.value.withLock { $0 } <= 2, "never more reads at once than readers")
        #expect(pool.idleCount == 2)
    }
}

/// A value the test's tasks share.
private final class Shared<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
}
