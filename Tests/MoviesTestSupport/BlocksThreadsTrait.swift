import Testing

/// Marks tests that block the thread they run on (waiting for another process, blocking socket
/// I/O): such tests take turns, one at a time across the whole test run, so they never hold every
/// thread of Swift concurrency's small cooperative pool (one per core) while other tests'
/// in-process servers wait for one. Waiting for a turn suspends; it does not block a thread.
///
/// Apply to a suite (`@Suite(.blocksThreads)`) or a test; nested suites are covered.
public struct BlocksThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    /// Covers the tests of nested suites too.
    public var isRecursive: Bool { true }

    /// Runs one test case (not a whole suite: that would hold the turn between its tests) in its turn.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        await Self.turns.acquire()
        do {
            try await function()
        } catch {
            await Self.turns.release()
            throw error
        }
        await Self.turns.release()
    }

    private static let turns = Turns()

    /// A first-come, first-served lock that suspends its waiters.
    private actor Turns {
        private var taken = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func acquire() async {
            guard taken else {
                taken = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            if waiting.isEmpty {
                taken = false
            } else {
                waiting.removeFirst().resume()
            }
        }
    }
}

extension Trait where Self == BlocksThreadsTrait {
    /// The test blocks its thread; it takes turns with the others that do (see ``BlocksThreadsTrait``).
    public static var blocksThreads: Self { BlocksThreadsTrait() }
}
