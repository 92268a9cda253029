import Glibc
import MoviesTestSupport
import Synchronization
import Testing
@testable import MoviesDaemon

/// The daemon's services: stopped in reverse order, each after the one started after it has
/// returned; a dead service stops the daemon with a line naming it.
@Suite struct ServiceGroupTests {
    final class Journal: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk on fire" }
    }

    /// A service that waits for its stop, then takes a few suspensions to clean up before it says so.
    private static func waiting(_ name: String, _ journal: Journal) -> LifecycleService {
        LifecycleService(name) {
            await LifecycleService.untilCancelled()
            for _ in 0..<5 { await Task.yield() }
            journal.add("stopped \(name)")
        }
    }

    @Test func aShutdownSignalStopsEveryServiceInReverseOrder() async {
        let journal = Journal()
        let events = RecordingEventLog()
        var group = ServiceGroup(services: ["a", "b", "c"].map { Self.waiting($0, journal) }, events: events)
        group.willStop = { journal.add("stopping") }
        let (signals, sink) = AsyncStream<Int32>.makeStream()
        sink.yield(SIGTERM)
        let outcome = await group.run(signals: signals)
        #expect(outcome == .signal(SIGTERM))
        #expect(outcome.exitStatus == 0)
        #expect(journal.all == ["stopping", "stopped c", "stopped b", "stopped a"])
        #expect(events.names == ["lifecycle.signal"])
    }

    @Test func otherSignalsAreHandedOnAndDoNotStopTheGroup() async {
        let journal = Journal()
        var group = ServiceGroup(services: [Self.waiting("a", journal)], events: RecordingEventLog())
        group.otherSignal = { journal.add("signal \($0)") }
        let (signals, sink) = AsyncStream<Int32>.makeStream()
        sink.yield(SIGHUP)
        sink.yield(SIGINT)
        #expect(await group.run(signals: signals) == .signal(SIGINT))
        #expect(journal.all == ["signal \(SIGHUP)", "stopped a"])
    }

    @Test func aServiceThatReturnsStopsTheOthersAndTheDaemonFails() async {
        let journal = Journal()
        let events = RecordingEventLog()
        let quitter = LifecycleService("quitter") { journal.add("quit") }
        let group = ServiceGroup(services: [Self.waiting("a", journal), quitter, Self.waiting("c", journal)], events: events)
        let (signals, _) = AsyncStream<Int32>.makeStream()
        let outcome = await group.run(signals: signals)
        #expect(outcome == .died("quitter"))
        #expect(outcome.exitStatus == 1)
        #expect(journal.all == ["quit", "stopped c", "stopped a"])
        #expect(events.events.map(\.message) == ["the quitter stopped unexpectedly (returned); shutting down"])
        #expect(events.events.first?.severity == .error)
    }

    @Test func aServiceThatThrowsIsNamedWithItsError() async {
        let events = RecordingEventLog()
        let group = ServiceGroup(services: [LifecycleService("store") { throw Failure() }], events: events)
        let (signals, _) = AsyncStream<Int32>.makeStream()
        #expect(await group.run(signals: signals) == .died("store"))
        #expect(events.events.map(\.message) == ["the store stopped unexpectedly (failed: disk on fire); shutting down"])
    }
}
