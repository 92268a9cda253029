import Dispatch
import MoviesTestSupport
import Synchronization
import Varlink

/// `org.example.atonce`: a handler that answers some calls at once, from `answerAtOnce`, and
/// records every call that reaches `handle`.
///
/// A `Remembered` call with the text `hold` holds the server's event loop inside `answerAtOnce`
/// until ``release()`` (bounded by the hang guard): meanwhile clients can queue work that the
/// loop then finds all at once.
final class AtOnceInterface: VarlinkInterfaceHandler {
    private let handled = Mutex<[String]>([])
    private let held = DispatchSemaphore(value: 0)
    private let releasing = DispatchSemaphore(value: 0)

    /// Waits (bounded, blocking the calling thread) until the loop holds on a `hold` call.
    func waitUntilHeld() -> Bool {
        held.wait(timeout: .now() + .seconds(Int(ProcessDeadline.seconds))) == .success
    }

    /// Lets the loop held by a `hold` call go on.
    func release() {
        releasing.signal()
    }

    /// The `text` parameter of every call that reached `handle`, in order.
    var handledTexts: [String] { handled.withLock { $0 } }

    var interfaceName: String { "org.example.atonce" }

    var interfaceDescription: String {
        """
        # Calls answered at once or by a task.
        interface org.example.atonce

        # Answered at once (never by handle) when text is not empty.
        method Remembered(text: string) -> (text: string, atOnce: bool)

        # Never answered at once.
        method Computed(text: string) -> (text: string, atOnce: bool)

        """
    }

    func declares(method name: String) -> Bool { name == "Remembered" || name == "Computed" }

    func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? {
        guard call.methodName == "Remembered", let text = call.parameters["text"]?.stringValue, !text.isEmpty else { return nil }
        if text == "hold" {
            held.signal()
            _ = releasing.wait(timeout: .now() + .seconds(Int(ProcessDeadline.seconds)))
        }
        return VarlinkPreparedReply(parameters: ["text": .string(text), "atOnce": .bool(true)])
    }

    func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let text = call.parameters["text"]?.stringValue ?? ""
        handled.withLock { $0.append(text) }
        if call.more {
            await replies.send(["text": .string("\(text) (first)"), "atOnce": .bool(false)])
        }
        return ["text": .string(text), "atOnce": .bool(false)]
    }
}
