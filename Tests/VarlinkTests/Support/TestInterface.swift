import Glibc
import MoviesTestSupport
import Synchronization
import Varlink

/// Records which handler calls saw their task cancelled.
final class CancellationProbe: Sendable {
    private struct State {
        var tags: Set<String> = []
        var waiters: [UInt64: (tag: String, continuation: CheckedContinuation<Bool, Never>)] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    func record(_ tag: String) {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.tags.insert(tag)
            let matching = state.waiters.filter { $0.value.tag == tag }
            for key in matching.keys { state.waiters[key] = nil }
            return matching.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Whether `tag` has been recorded by now.
    func wasRecorded(_ tag: String) -> Bool {
        state.withLock { $0.tags.contains(tag) }
    }

    /// Waits until `tag` is recorded (woken by `record`, no polling); false if that has not
    /// happened within the hang guard `ProcessDeadline.seconds`.
    func waitFor(_ tag: String) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.recorded(tag) }
            group.addTask {
                try? await Task.sleep(for: .seconds(ProcessDeadline.seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// True once `tag` is recorded; false if the task is cancelled first.
    private func recorded(_ tag: String) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer = state.withLock { state -> Bool? in
                    if state.tags.contains(tag) { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = (tag, continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in state.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: false)
        }
    }
}

/// `org.example.test`: a small interface exercising every server feature.
struct TestInterface: VarlinkInterfaceHandler {
    let probe: CancellationProbe
    /// Method name → its own deadline in seconds.
    var deadlines: [String: Int] = [:]

    func deadlineSeconds(forMethod name: String) -> Int? { deadlines[name] }

    func declares(method name: String) -> Bool {
        ["Echo", "Count", "Sleep", "WhoAmI", "Hang", "Note", "Unimplemented"].contains(name)
    }

    var interfaceName: String { "org.example.test" }

    var interfaceDescription: String {
        """
        # A small interface for testing the Varlink server.
        interface org.example.test

        # Returns its input.
        method Echo(text: string) -> (text: string)

        # Streams count replies numbered from 0, each padded with padding bytes.
        method Count(count: int, padding: ?int) -> (index: int, pad: ?string)

        # Replies after milliseconds.
        method Sleep(milliseconds: int) -> ()

        # Returns the caller's credentials.
        method WhoAmI() -> (pid: int, uid: int, gid: int)

        # Never replies; records tag when cancelled.
        method Hang(tag: string) -> ()

        # Records done:tag once it has run to the end, after milliseconds (not when cancelled).
        method Note(tag: string, milliseconds: ?int) -> ()

        # Declared but not implemented.
        method Unimplemented() -> ()

        # Something failed.
        error Failed (reason: string)

        """
    }

    func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        switch call.methodName {
        case "Echo":
            guard let text = call.parameters["text"]?.stringValue else { throw .invalidParameter("text") }
            return ["text": .string(text)]
        case "Count":
            guard let count = call.parameters["count"]?.intValue, count > 0 else { throw .invalidParameter("count") }
            let padding = Int(call.parameters["padding"]?.intValue ?? 0)
            let pad: JSONValue = padding > 0 ? .string(String(repeating: "x", count: padding)) : .null
            if !call.more, count > 1 { throw .expectedMore }
            for index in 0..<(count - 1) {
                await replies.send(["index": .int(index), "pad": pad])
            }
            return ["index": .int(count - 1)]
        case "Sleep":
            let milliseconds = call.parameters["milliseconds"]?.intValue ?? 0
            probe.record("started:sleep")
            try? await Task.sleep(for: .milliseconds(milliseconds))
            return [:]
        case "WhoAmI":
            guard let peer = call.peer else { throw .permissionDenied }
            return ["pid": .int(Int64(peer.pid)), "uid": .int(Int64(peer.uid)), "gid": .int(Int64(peer.gid))]
        case "Hang":
            let tag = call.parameters["tag"]?.stringValue ?? ""
            probe.record("started:\(tag)")
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                probe.record(tag)
            }
            throw VarlinkError(name: "org.example.test.Failed", parameters: ["reason": .string("cancelled")])
        case "Note":
            let tag = call.parameters["tag"]?.stringValue ?? ""
            do {
                try await Task.sleep(for: .milliseconds(call.parameters["milliseconds"]?.intValue ?? 0))
                probe.record("done:\(tag)")
            } catch {
                probe.record("cancelled:\(tag)")
            }
            return [:]
        default:
            throw .methodNotImplemented(call.method)
        }
    }
}
