import Foundation
import Glibc
import Testing
@testable import MoviesDaemon

@Suite struct SystemdNotifierTests {
    @Test func sendsReadyStatusStoppingAndWatchdogToAPathSocket() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("notify")
        let receiver = try TestSocket.datagramReceiver(path)
        defer { receiver.close() }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.isEnabled)
        notifier.ready(status: "Serving on /run/x")
        #expect(receiver.receive() == "READY=1\nSTATUS=Serving on /run/x")
        notifier.status("line one\nINJECTED=1")
        #expect(receiver.receive() == "STATUS=line one INJECTED=1")
        notifier.stopping()
        #expect(receiver.receive() == "STOPPING=1")
        notifier.watchdog()
        #expect(receiver.receive() == "WATCHDOG=1")
        notifier.mainPID(123)
        #expect(receiver.receive() == "MAINPID=123")
    }

    @Test func sendsToAnAbstractSocket() throws {
        let name = "@moviesd-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        let receiver = try TestSocket.datagramReceiver(name)
        defer { receiver.close() }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        notifier.ready()
        #expect(receiver.receive() == "READY=1")
        notifier.status("warming up")
        #expect(receiver.receive() == "STATUS=warming up")
    }

    @Test func withoutNotifySocketEverythingIsANoOp() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        #expect(!notifier.notify(["READY=1"]))
        #expect(notifier.watchdogInterval == nil)
    }

    @Test func failedSendIsReportedNotThrown() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let pipe = try LogPipe()
        defer { pipe.close() }
        let logger = Logger(minimumLevel: .debug, usesJournalFormat: true, fileDescriptor: pipe.writeEnd)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": directory.file("nobody")], logger: logger)
        #expect(!notifier.notify(["READY=1"]))
        #expect(pipe.readAvailable().hasPrefix("<4>cannot notify systemd at \(directory.file("nobody")): sendto: "))
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUSec() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000"], pid: 10) == .seconds(15))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "10"], pid: 10) == .seconds(15))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "11"], pid: 10) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "0"], pid: 10) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "soon"], pid: 10) == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000"], pid: getpid()).watchdogInterval == .seconds(1))
    }
}
