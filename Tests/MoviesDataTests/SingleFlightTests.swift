import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct SingleFlightTests {
    /// An operation that goes through a held scripted remote, so a test decides when it finishes.
    private func operation(_ remote: ScriptedMoviesRemote) -> @Sendable () async throws -> Int {
        { try await remote.fetch(.configuration, etag: nil).httpStatus }
    }

    private func waitForWaiters(_ flights: SingleFlight<String, Int>, _ count: Int) async -> Bool {
        for _ in 0..<5000 {
            if await flights.waiterCount(for: "k") >= count { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    @Test func concurrentCallersShareOneOperation() async throws {
        let flights = SingleFlight<String, Int>()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data())))
        await remote.hold()
        let op = operation(remote)
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await flights.run("k", operation: op) } }
            #expect(await waitForWaiters(flights, 10))
            await remote.release()
            var all: [Int] = []
            for try await value in group { all.append(value) }
            return all
        }
        #expect(results == Array(repeating: 200, count: 10))
        #expect(await remote.fetchCount == 1)
        #expect(await flights.inFlightCount == 0)
    }

    @Test func errorsReachEveryWaiterAndAreNotCached() async throws {
        let flights = SingleFlight<String, Int>()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .failure(MoviesError(code: .remoteUnavailable, message: "down")))
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 204, body: Data())))
        await remote.hold()
        let op = operation(remote)
        let failures = await withTaskGroup(of: MoviesError?.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do { _ = try await flights.run("k", operation: op); return nil } catch { return error as? MoviesError }
                }
            }
            #expect(await waitForWaiters(flights, 3))
            await remote.release()
            var all: [MoviesError?] = []
            for await failure in group { all.append(failure) }
            return all
        }
        #expect(failures.allSatisfy { $0?.code == .remoteUnavailable })
        #expect(await flights.inFlightCount == 0)
        #expect(try await flights.run("k", operation: op) == 204)
        #expect(await remote.fetchCount == 2)
    }

    @Test func aCancelledWaiterLeavesTheSharedWorkRunning() async throws {
        let flights = SingleFlight<String, Int>()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data())))
        await remote.hold()
        let op = operation(remote)
        let leaving = Task { try await flights.run("k", operation: op) }
        let staying = Task { try await flights.run("k", operation: op) }
        #expect(await waitForWaiters(flights, 2))
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(await flights.waiterCount(for: "k") == 1)
        #expect(await remote.heldCount == 1)
        await remote.release()
        #expect(try await staying.value == 200)
        #expect(await remote.fetchCount == 1)
    }

    @Test func whenEveryWaiterIsGoneTheWorkIsCancelledAndCleared() async throws {
        let flights = SingleFlight<String, Int>()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data())))
        await remote.hold()
        let op = operation(remote)
        let only = Task { try await flights.run("k", operation: op) }
        #expect(await remote.waitForHeldFetches(1))
        only.cancel()
        await #expect(throws: CancellationError.self) { try await only.value }
        #expect(await flights.inFlightCount == 0)
        var released = false
        for _ in 0..<5000 where !released {
            released = await remote.heldCount == 0
            if !released { try? await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(released)
        await remote.release()
        #expect(try await flights.run("k", operation: op) == 200)
        #expect(await remote.fetchCount == 2)
    }

    private struct OutOfPatience: Error, Equatable {}

    /// A patience that runs out when `sleeper` elapses (virtual time: the test decides).
    private func patience(_ sleeper: ManualSleeper) -> SingleFlight<String, Int>.Patience {
        {
            do {
                try await sleeper.sleep(3)
            } catch {
                return nil
            }
            return OutOfPatience()
        }
    }

    @Test func aJoinerOutOfPatienceGetsItsErrorAtOnceAndTheWorkGoesOnForTheOthers() async throws {
        let flights = SingleFlight<String, Int>()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data())))
        await remote.hold()
        let sleeper = ManualSleeper()
        let op = operation(remote)
        let starter = Task { try await flights.run("k", operation: op) }
        #expect(await remote.waitForHeldFetches(1))
        // Joins the flight that is already hanging, with a deadline of its own.
        let joiner = Task { try await flights.run("k", patience: patience(sleeper), operation: op) }
        #expect(await sleeper.waitForSleepers(1))
        #expect(await flights.waiterCount(for: "k") == 2)
        sleeper.elapse()
        await #expect(throws: OutOfPatience.self) { try await joiner.value }
        // The work is neither cancelled nor restarted: the starter still gets its result.
        #expect(await flights.inFlightCount == 1)
        #expect(await remote.heldCount == 1)
        await remote.release()
        #expect(try await starter.value == 200)
        #expect(await remote.fetchCount == 1)
    }

    @Test func whenEveryWaiterRanOutOfPatienceTheWorkGoesOnInTheBackground() async throws {
        let flights = SingleFlight<String, Int>()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data())))
        await remote.hold()
        let sleeper = ManualSleeper()
        let op = operation(remote)
        let waiters = (0..<3).map { _ in Task { try await flights.run("k", patience: patience(sleeper), operation: op) } }
        #expect(await sleeper.waitForSleepers(3))
        #expect(await remote.waitForHeldFetches(1))
        sleeper.elapse()
        for waiter in waiters {
            await #expect(throws: OutOfPatience.self) { try await waiter.value }
        }
        // Nobody waits, and the fetch is still running (not cancelled): its entry stays until it ends.
        #expect(await flights.inFlightCount == 1)
        #expect(await remote.heldCount == 1)
        await remote.release()
        var cleared = false
        for _ in 0..<5000 where !cleared {
            cleared = await flights.inFlightCount == 0
            if !cleared { try? await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(cleared)
        #expect(await remote.fetchCount == 1)
    }

    @Test func aFlightSomeoneGaveUpOnIsNotJoinedAgain() async throws {
        let flights = SingleFlight<String, Int>()
        let remote = ScriptedMoviesRemote()
        await remote.script(.configuration, .success(RemoteResponse(httpStatus: 200, body: Data())))
        await remote.hold()
        let sleeper = ManualSleeper()
        let op = operation(remote)
        let first = Task { try await flights.run("k", patience: patience(sleeper), operation: op) }
        #expect(await sleeper.waitForSleepers(1))
        #expect(await remote.waitForHeldFetches(1))
        sleeper.elapse()
        await #expect(throws: OutOfPatience.self) { try await first.value }
        // The slow fetch still runs; a new caller asks again instead of waiting on it.
        let second = Task { try await flights.run("k", operation: op) }
        #expect(await remote.waitForHeldFetches(2))
        #expect(await flights.inFlightCount == 2)
        await remote.release()
        #expect(try await second.value == 200)
        #expect(await remote.fetchCount == 2)
        #expect(await Eventually.until { await flights.inFlightCount == 0 })
    }

    @Test func aPatienceThatHasNotRunOutDoesNotDisturbTheResult() async throws {
        let flights = SingleFlight<String, Int>()
        let sleeper = ManualSleeper()
        #expect(try await flights.run("k", patience: patience(sleeper)) { 7 } == 7)
        // The waiter's timer ended with it: nothing is left asleep.
        #expect(await Eventually.until { sleeper.sleeping == 0 })
    }

    @Test func differentKeysRunIndependently() async throws {
        let flights = SingleFlight<String, Int>()
        async let a = flights.run("a") { 1 }
        async let b = flights.run("b") { 2 }
        #expect(try await [a, b] == [1, 2])
    }
}
