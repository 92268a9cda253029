import Glibc
import MoviesData
import MoviesTestSupport
import Synchronization
import SystemSupport
import Testing
@testable import MoviesDaemon

/// The daemon's services, in one task group: asked to stop in reverse order, each after the one
/// started after it has returned; they return gracefully, not cancelled; one that does not return
/// in time is cancelled; a dead service stops the daemon with a line naming it.
@Suite(.timeLimit(.minutes(1))) struct ServiceGroupTests {
    final class Journal: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk on fire" }
    }

    /// A group whose stop timeouts never pass (a busy machine must not make a graceful stop
    /// look overdue): its clock sleeps until cancelled.
    private static func group(_ services: [LifecycleService], events: any EventLog) -> ServiceGroup {
        var group = ServiceGroup(services: services, events: events)
        group.sleep = { try await ManualSleeper().sleep($0) }
        return group
    }

    /// A service that waits for its stop, then takes a few suspensions to clean up before it says
    /// how it stopped: gracefully, or cancelled.
    private static func waiting(_ name: String, _ journal: Journal) -> LifecycleService {
        LifecycleService(name) { shutdown in
            shutdown.onRequest { journal.add("asked \(name)") }
            await shutdown.wait()
            for _ in 0..<5 { await Task.yield() }
            journal.add((Task.isCancelled ? "cancelled " : "stopped ") + name)
        }
    }

    @Test func aShutdownSignalStopsEveryServiceGracefullyInReverseOrder() async {
        let journal = Journal()
        let events = RecordingEventLog()
        var group = Self.group(["a", "b", "c"].map { Self.waiting($0, journal) }, events: events)
        group.willStop = { journal.add("stopping") }
        let (signals, sink) = AsyncStream<Int32>.makeStream()
        sink.yield(SIGTERM)
        let outcome = await group.run(signals: signals)
        #expect(outcome == .signal(SIGTERM))
        #expect(outcome.exitStatus == 0)
        #expect(journal.all == ["stopping", "asked c", "stopped c", "asked b", "stopped b", "asked a", "stopped a"])
        #expect(events.names == ["lifecycle.signal"])
    }

    @Test func aServiceThatDoesNotStopInTimeIsCancelledAndTheOthersStillStopGracefully() async {
        let journal = Journal()
        let events = RecordingEventLog()
        let sleeper = ManualSleeper()
        let stubborn = LifecycleService("stubborn", stopTimeoutSeconds: 7) { _ in
            await WakeSignal().wait()  // only cancellation ends it
            journal.add("stubborn cancelled: \(Task.isCancelled)")
        }
        var group = Self.group([Self.waiting("a", journal), stubborn], events: events)
        group.sleep = { try await sleeper.sleep($0) }
        let (signals, sink) = AsyncStream<Int32>.makeStream()
        sink.yield(SIGTERM)
        async let outcome = group.run(signals: signals)
        #expect(await sleeper.waitForSleepers(1), "the stubborn service's stop timeout runs")
        #expect(sleeper.requested == [7])
        #expect(journal.all.isEmpty, "nothing is cancelled before the timeout")
        sleeper.elapse()
        #expect(await outcome == .signal(SIGTERM))
        #expect(journal.all == ["stubborn cancelled: true", "asked a", "stopped a"])
        #expect(events.events.map(\.message).last == "the stubborn did not stop within 7 s; cancelling it")
    }

    @Test func aServiceThatStopsByCancellationIsCancelledAsSoonAsItIsAsked() async {
        let journal = Journal()
        let events = RecordingEventLog()
        let cancellable = LifecycleService("probe", stopTimeoutSeconds: 0) { _ in
            await WakeSignal().wait()  // only cancellation ends it
            journal.add("probe cancelled: \(Task.isCancelled)")
        }
        let group = Self.group([Self.waiting("a", journal), cancellable], events: events)
        let (signals, sink) = AsyncStream<Int32>.makeStream()
        sink.yield(SIGTERM)
        #expect(await group.run(signals: signals) == .signal(SIGTERM))
        #expect(journal.all == ["probe cancelled: true", "asked a", "stopped a"])
        #expect(events.names == ["lifecycle.signal"], "no timeout passed")
    }

    @Test func otherSignalsAreHandedOnAndDoNotStopTheGroup() async {
        let journal = Journal()
        var group = Self.group([Self.waiting("a", journal)], events: RecordingEventLog())
        group.otherSignal = { journal.add("signal \($0)") }
        let (signals, sink) = AsyncStream<Int32>.makeStream()
        sink.yield(SIGHUP)
        sink.yield(SIGINT)
        #expect(await group.run(signals: signals) == .signal(SIGINT))
        #expect(journal.all == ["signal \(SIGHUP)", "asked a", "stopped a"])
    }

    @Test func aServiceThatReturnsStopsTheOthersAndTheDaemonFails() async {
        let journal = Journal()
        let events = RecordingEventLog()
        let quitter = LifecycleService("quitter") { _ in journal.add("quit") }
        let group = Self.group([Self.waiting("a", journal), quitter, Self.waiting("c", journal)], events: events)
        let (signals, _) = AsyncStream<Int32>.makeStream()
        let outcome = await group.run(signals: signals)
        #expect(outcome == .died("quitter"))
        #expect(outcome.exitStatus == 1)
        #expect(journal.all == ["quit", "asked c", "stopped c", "asked a", "stopped a"])
        #expect(events.events.map(\.message) == ["the quitter stopped unexpectedly (returned); shutting down"])
        #expect(events.events.first?.severity == .error)
    }

    @Test func aServiceThatThrowsIsNamedWithItsError() async {
        let events = RecordingEventLog()
        let group = Self.group([LifecycleService("store") { _ in throw Failure() }], events: events)
        let (signals, _) = AsyncStream<Int32>.makeStream()
        #expect(await group.run(signals: signals) == .died("store"))
        #expect(events.events.map(\.message) == ["the store stopped unexpectedly (failed: disk on fire); shutting down"])
    }
}
