import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing

/// `lookupSearch`: the cached page in the reply's shape, stored with the response when TMDB's
/// answer was saved, so that reading it decodes nothing.
@Suite struct DefaultMoviesRepositoryCachedAnswerTests {
    typealias H = RepositoryHarness

    static func wire(_ page: MoviesPage) throws -> [UInt8] {
        Array(try WireCoding.bytes(page))
    }

    @Test func aNetworkAnswerIsStoredWithItsValueInTheReplysShape() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Fresh"]))))
        let record = try await h.search(.networkOnly)
        let fetched = try #require(record.updates.last)
        let stored = try #require(await h.storage.peek(H.key()))
        #expect(stored.reply == (try Self.wire(fetched.value)))

        let answer = try #require(await h.repository.lookupSearch(try H.request()).answer)
        #expect(answer.json == (try Self.wire(fetched.value)))
        #expect(answer.fetchedAt == stored.fetchedAt)
        #expect(answer.expiresAt == stored.expiresAt)
        #expect(await h.remote.fetchCount == 1, "reading the answer never asks TMDB")
    }

    @Test func theStoredReplyIsAnsweredAsItIsWithoutDecodingTheBody() async throws {
        let h = RepositoryHarness()
        let date = h.clock.date
        // A body no decoder accepts: only the stored reply can make an answer of it.
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data("{not json".utf8),
            fetchedAt: date, expiresAt: date.addingTimeInterval(600), reply: Array(#"{"as":"stored"}"#.utf8), replyVersion: WireCoding.version))
        #expect(await h.repository.lookupSearch(try H.request()).answer?.json == Array(#"{"as":"stored"}"#.utf8))
    }

    /// The reply format changed (`WireCoding.version` bumped since the row was stored): the old
    /// shape is never served; the body is decoded and the value sent in today's shape, by the
    /// cached answer and by the loader alike.
    @Test func aReplyStoredAtAnotherVersionIsNotServedTheBodyIsDecodedInTodaysShape() async throws {
        let h = RepositoryHarness()
        let date = h.clock.date
        let body = TMDBSampleBodies.searchPage(titles: ["Today"])
        for version in [WireCoding.version - 1, WireCoding.version + 1] {
            await h.storage.seed(StoredResponse(
                key: H.key(), resource: .search, body: body,
                fetchedAt: date, expiresAt: date.addingTimeInterval(600), reply: Array(#"{"old":"shape"}"#.utf8), replyVersion: version))
            let today = try Self.wire(MoviesResponseDTO.decode(body).toDomain())
            #expect(await h.repository.lookupSearch(try H.request()).answer?.json == today, "version \(version)")
            // Decoded once, the row now holds its reply in today's shape: later reads use it.
            let upgraded = try #require(await h.storage.peek(H.key()))
            #expect(upgraded.reply == today && upgraded.replyVersion == WireCoding.version)
            #expect(upgraded.fetchedAt == date && upgraded.expiresAt == date.addingTimeInterval(600), "nothing else of the entry changes")
            let record = try await h.search(.cacheOnly)
            let update = try #require(record.updates.last)
            #expect(update.encoded == today)
            #expect(try Self.wire(update.value) == today)
        }
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func aRowReadAfterItWasFetchedAgainIsNotUpgradedOverTheNewerOne() async throws {
        let h = RepositoryHarness()
        let date = h.clock.date
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: TMDBSampleBodies.searchPage(titles: ["Old"]),
            fetchedAt: date.addingTimeInterval(-60), expiresAt: date.addingTimeInterval(600)))
        let old = try #require(await h.storage.peek(H.key()))
        // The page was fetched again between the read and the upgrade: the upgrade is for the old row only.
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: TMDBSampleBodies.searchPage(titles: ["New"]),
            fetchedAt: date, expiresAt: date.addingTimeInterval(600), reply: Array(#"{"new":1}"#.utf8), replyVersion: WireCoding.version))
        try await h.storage.upgradeReply(key: H.key(), fetchedAt: old.fetchedAt, reply: Array(#"{"old":1}"#.utf8), version: WireCoding.version)
        #expect(await h.storage.peek(H.key())?.reply == Array(#"{"new":1}"#.utf8))
    }

    @Test func aCurrentStoredReplyIsWhatTheLoaderHandsOn() async throws {
        let h = RepositoryHarness()
        await h.remote.script(H.remoteRequest(), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Fresh"]))))
        let network = try #require(try await h.search(.networkOnly).updates.last)
        let stored = try #require(await h.storage.peek(H.key()))
        #expect(stored.replyVersion == WireCoding.version)
        #expect(network.encoded == stored.reply, "a 200 is encoded once: the bytes stored are the bytes sent")
        let cached = try #require(try await h.search(.cacheOnly).updates.last)
        #expect(cached.encoded == stored.reply)
        #expect(cached.value == network.value, "the value read back from the stored reply")
    }

    @Test func anEntryStoredBeforeRepliesWereIsDecodedAndEncodedOnce() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60, withReply: false)
        let answer = try #require(await h.repository.lookupSearch(try H.request()).answer)
        let page = try MoviesResponseDTO.decode(TMDBSampleBodies.searchPage(titles: ["Cached"])).toDomain()
        #expect(answer.json == (try Self.wire(page)))
        #expect(answer.freshness(at: h.clock.date).ageSeconds == 60)
        #expect(answer.freshness(at: h.clock.date).stale == false)
    }

    @Test func aStaleEntryIsAnsweredAndSaysSo() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 7 * 3600)
        let answer = try #require(await h.repository.lookupSearch(try H.request()).answer)
        #expect(answer.isStale(at: h.clock.date))
        #expect(answer.freshness(at: h.clock.date).stale)
    }

    @Test func aReadGoesThroughStorageSoTheAccessIsRecorded() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        let before = await h.storage.readCount
        _ = try #require(await h.repository.lookupSearch(try H.request()).answer)
        #expect(await h.storage.readCount == before + 1)
    }

    @Test func aMissANegativeEntryACorruptBodyOrAStorageFailureIsNil() async throws {
        let h = RepositoryHarness()
        #expect(await h.repository.lookupSearch(try H.request()).answer == nil)

        let date = h.clock.date
        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data(), httpStatus: 404,
            fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        #expect(await h.repository.lookupSearch(try H.request()).found == .negative(expiresAt: date.addingTimeInterval(600)))

        await h.storage.seed(StoredResponse(
            key: H.key(), resource: .search, body: Data("{not json".utf8),
            fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        #expect(await h.repository.lookupSearch(try H.request()).answer == nil)

        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        await h.storage.setFailure(MoviesError(code: .storage, message: "disk gone"))
        #expect(await h.repository.lookupSearch(try H.request()).answer == nil)
        #expect(await h.remote.fetchCount == 0)
    }

    @Test func anotherPageOrLanguageIsAnotherKey() async throws {
        let h = RepositoryHarness()
        await h.seedSearch(titles: ["Cached"], ageSeconds: 60)
        #expect(await h.repository.lookupSearch(try H.request(page: 2)).answer == nil)
        let french = try SearchRequest(query: H.matrix, page: 1, language: "fr-FR")
        #expect(await h.repository.lookupSearch(french).answer == nil)
    }
}
