import Glibc
import MoviesTestSupport
import Testing
@testable import MoviesDaemon

@Suite struct SignalWatcherTests {
    @Test func deliversProcessDirectedSignalsInsteadOfTheirDefaultAction() async throws {
        let watcher = try SignalWatcher(watching: [SIGUSR2, SIGURG])
        // Process-directed, as systemd and a terminal send them. (A thread-directed raise(3) from a
        // test would stay pending forever: libdispatch worker threads block signals.)
        kill(getpid(), SIGUSR2)
        kill(getpid(), SIGURG)
        // Bounded: a lost signal fails the test after 5 s instead of hanging the run.
        let received = await withTaskGroup(of: [Int32].self) { group in
            group.addTask {
                var received: [Int32] = []
                for await number in watcher.signals {
                    received.append(number)
                    if received.count == 2 { break }
                }
                return received
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(ProcessDeadline.seconds))  // a hang guard only
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
        #expect(received.sorted() == [SIGUSR2, SIGURG].sorted())
    }

    @Test func shutdownSignalsAreTermAndInt() {
        #expect(SignalWatcher.shutdownSignals == [SIGTERM, SIGINT])
    }
}
