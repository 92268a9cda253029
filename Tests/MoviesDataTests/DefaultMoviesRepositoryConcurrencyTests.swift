import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Single-flight across callers, clearing of the in-flight entry, and consumer cancellation.
@Suite(.timeLimit(.minutes(1))) struct DefaultMoviesRepositoryConcurrencyTests {
    typealias H = RepositoryHarness

    /// Waits (bounded) until `count` callers wait on `key`'s flight.
    private func waitForWaiters(_ h: H, key: String, count: Int) async -> Bool {
        for _ in 0..<5000 {
            if await h.repository.loader.flights.waiterCount(for: key) >= count { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    @Test func tenConcurrentIdenticalSearchesMakeOneRemoteCall() async throws {
        let h = RepositoryHarness()
        await h.remote.setHandler { _, _ in TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Shared"])) }
        await h.remote.hold()
        let request = try H.request("  The   MATRIX ")
        let equivalent = try H.request("the matrix")
        let records = try await withThrowingTaskGroup(of: FetchedRecord<MoviesPage>.self) { group in
            for index in 0..<10 {
                let policy: FetchPolicy = index.isMultiple(of: 2) ? .cacheThenNetwork : .networkOnly
                let repository = h.repository
                let asked = index < 5 ? request : equivalent
                group.addTask { await FetchedRecord { try await repository.searchMovies(asked, policy: policy, maxStaleSeconds: nil, emit: $0) } }
            }
            #expect(await waitForWaiters(h, key: H.key("the matrix"), count: 10))
            await h.remote.release()
            var all: [FetchedRecord<MoviesPage>] = []
            for try await record in group { all.append(record) }
            return all
        }
        #expect(await h.remote.fetchCount == 1)
        #expect(records.count == 10)
        #expect(records.allSatisfy { $0.origins == [.network] && $0.error == nil })
    }

    @Test func inFlightEntryIsClearedAfterAnError() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .failure(H.offline))
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Later"]))))
        let failed = try await h.search(.networkOnly)
        #expect(failed.error?.code == .remoteUnavailable)
        let succeeded = try await h.search(.networkOnly)
        #expect(succeeded.origins == [.network])
        #expect(await h.remote.fetchCount == 2)
        #expect(await h.repository.loader.flights.inFlightCount == 0)
    }

    @Test func cancellingTheConsumerTerminatesPromptlyAndClearsTheFlight() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Late"]))))
        await h.remote.hold()
        let (repository, request) = (h.repository, try H.request())
        let consumer = Task { await FetchedRecord { try await repository.searchMovies(request, policy: .networkOnly, maxStaleSeconds: nil, emit: $0) } }
        #expect(await h.remote.waitForHeldFetches(1))
        consumer.cancel()
        // Returns without the held fetch ever being released.
        let record = await consumer.value
        #expect(record.updates.isEmpty)
        var cleared = false
        for _ in 0..<5000 where !cleared {
            let inFlight = await h.repository.loader.flights.inFlightCount
            let held = await h.remote.heldCount
            cleared = inFlight == 0 && held == 0
            if !cleared { try? await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(cleared)
        #expect(await h.storage.peek(H.key()) == nil)

        await h.remote.release()
        let again = try await h.search(.networkOnly)
        #expect(again.origins == [.network])
        #expect(await h.remote.fetchCount == 2)
    }

    @Test func olderResponseNeverOverwritesNewerOne() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Newer"], ageSeconds: -3600)
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Older"]))))
        let record = try await h.search(.networkOnly)
        #expect(await h.storage.peek(H.key())?.body == TMDBSampleBodies.searchPage(titles: ["Newer"]))
        #expect(record.updates.map(\.titles) == [["Newer"]])
    }
}
