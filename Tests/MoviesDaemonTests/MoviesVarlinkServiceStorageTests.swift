import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import MoviesDaemon
@testable import Varlink

/// Storage failures reach clients typed: `Status` reports the health, a network answer that could
/// not be stored says so, and a damaged cache found after start is a `StorageFailure` with its fault
/// and a journal line, never "internal error: SQLiteError".
@Suite struct MoviesVarlinkServiceStorageTests {
    @Test func aSearchAnswerThatCouldNotBeStoredSaysSoAndStatusReportsTheFault() async throws {
        let events = RecordingEventLog()
        let harness = ServiceHarness(events: events)
        await harness.scriptSearch("alien", titles: ["Alien"])
        await harness.storage.setWriteFailure(FakeStorageFault(.full))
        let reply = try #require(await harness.call("Search", ["query": .string("alien")]).reply)
        #expect(reply["freshness"]?["origin"] == .string("network"))
        #expect(reply["freshness"]?["stored"] == .bool(false))
        #expect(reply["freshness"]?["storageFault"] == .string("full"))
        _ = await harness.call("Search", ["query": .string("alien")])
        let status = try #require(await harness.call("Status").reply)
        #expect(status["storage"]?["state"] == .string("full"))
        #expect(status["storage"]?["lastError"]?.stringValue?.contains("disk") == true)
        #expect(events.names.filter { $0.hasPrefix("storage.") } == ["storage.full"])
    }

    @Test func aHealthyStoreReportsOkAndStoredAnswersCarryNoStorageFields() async throws {
        let harness = ServiceHarness()
        await harness.scriptSearch("alien", titles: ["Alien"])
        let reply = try #require(await harness.call("Search", ["query": .string("alien")]).reply)
        #expect(reply["freshness"]?["stored"] == nil)
        #expect(reply["freshness"]?["storageFault"] == nil)
        #expect(try #require(await harness.call("Status").reply)["storage"]?["state"] == .string("ok"))
    }

    @Test func aDamagedCacheFoundAfterStartIsATypedErrorAndStatusStillAnswers() async throws {
        let events = RecordingEventLog()
        let harness = ServiceHarness(events: events)
        try await harness.seedSearch("matrix", titles: ["The Matrix"])
        await harness.storage.setFailure(FakeStorageFault(.corrupt))

        let status = try #require(await harness.call("Status").reply)
        #expect(status["storage"]?["state"] == .string("corrupt"))
        #expect(status["cache"]?["entries"] == .int(0))

        let purge = try #require(await harness.call("Purge", ["all": .bool(true)]).error)
        #expect(purge.name == "io.moviesd.Movies.StorageFailure")
        #expect(purge.parameters["fault"] == .string("corrupt"))
        let reason = try #require(purge.parameters["reason"]?.stringValue)
        #expect(!reason.contains("internal error"))
        #expect(reason.contains("restart moviesd"))

        let cached = try #require(await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_only")]).error)
        #expect(cached.name == "io.moviesd.Movies.StorageFailure")
        #expect(cached.parameters["fault"] == .string("corrupt"))

        let logged = events.events.filter { $0.name == "storage.corrupt" }
        #expect(logged.count == 1)
        #expect(logged.first?.severity == .error)
    }

    @Test func anUntypedStorageErrorIsStillAStableStorageFailure() {
        struct Opaque: Error {}
        let error = VarlinkError.from(Opaque())
        #expect(error.name == "io.moviesd.Movies.StorageFailure")
        #expect(error.parameters["fault"] == .string("unavailable"))
    }
}
