import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// The two databases' health: each fault is cleared by the next operation that proves it gone,
/// never by one that could not have met it; a damaged file stays damaged; Status shows the latest.
@Suite struct StorageHealthMonitorTests {
    let events = RecordingEventLog()
    let clock = TestClock()

    func monitor() -> StorageHealthMonitor { StorageHealthMonitor(events: events, now: clock.now) }

    @Test func aFaultAWriteMetIsNotClearedByAReadButByTheNextWrite() {
        let monitor = monitor()
        monitor.recordFailure(FakeStorageFault(.full), during: "writing", in: .state)
        monitor.recordSuccess(in: .state, operation: .read)
        #expect(monitor.state(of: .state) == .full, "reads work on a full disk: they prove nothing")
        monitor.recordSuccess(in: .cache, operation: .write)
        #expect(monitor.state(of: .state) == .full, "the other database's write proves nothing either")
        monitor.recordSuccess(in: .state, operation: .write)
        #expect(monitor.state(of: .state) == .ok)
        #expect(events.names == ["storage.full", "storage.ok"])
    }

    @Test func aFaultAReadMetIsClearedByTheNextRead() {
        let monitor = monitor()
        monitor.recordFailure(FakeStorageFault(.unavailable), during: "reading", in: .cache, operation: .read)
        monitor.recordSuccess(in: .cache, operation: .read)
        #expect(monitor.storageHealth().state == .ok)
    }

    @Test func aDamagedFileStaysDamagedUntilARestart() {
        let monitor = monitor()
        monitor.recordFailure(FakeStorageFault(.corrupt), during: "writing", in: .state)
        monitor.recordSuccess(in: .state, operation: .write)
        monitor.recordFailure(FakeStorageFault(.locked), during: "writing", in: .state)
        #expect(monitor.state(of: .state) == .corrupt)
        #expect(events.names == ["storage.corrupt"], "one line, not one per operation")
    }

    @Test func everyFaultIsLoggedAtErrorOnceAndSaysWhichDatabase() {
        let monitor = monitor()
        for _ in 0..<3 { monitor.recordFailure(FakeStorageFault(.locked), during: "writing", in: .state) }
        #expect(events.events.map(\.severity) == [.error])
        #expect(events.events.first?.message.contains("(state database)") == true)
        #expect(events.events.first?.message.contains("edits are not being saved") == true)
    }

    @Test func statusShowsTheLatestFaultOfEitherDatabase() {
        let monitor = monitor()
        monitor.recordFailure(FakeStorageFault(.full), during: "writing", in: .cache)
        clock.advance(by: 5)
        monitor.recordFailure(FakeStorageFault(.locked), during: "writing", in: .state)
        #expect(monitor.storageHealth().state == .locked)
        #expect(monitor.storageHealth().lastError?.hasPrefix("the state database: ") == true)
        monitor.recordSuccess(in: .state)
        #expect(monitor.storageHealth().state == .full, "the cache's fault still holds")
        monitor.recordSuccess(in: .cache)
        #expect(monitor.storageHealth().state == .ok)
        #expect(monitor.storageHealth().since == clock.date, "ok since the last recovery")
    }
}
