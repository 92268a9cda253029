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

    @Test func differentKeysRunIndependently() async throws {
        let flights = SingleFlight<String, Int>()
        async let a = flights.run("a") { 1 }
        async let b = flights.run("b") { 2 }
        #expect(try await [a, b] == [1, 2])
    }
}
