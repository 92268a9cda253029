/// Sends the intermediate replies (`continues: true`) of a `more` call.
///
/// Calling ``send(_:)`` for a call without `more` (or a `oneway` one) is a programming error:
/// the reply is dropped. So is a reply sent after the call ended or was cancelled.
public final class VarlinkReplyWriter: Sendable {
    private let deliver: @Sendable ([[UInt8]]) -> Void
    private let isStreaming: Bool

    init(isStreaming: Bool, deliver: @escaping @Sendable ([[UInt8]]) -> Void) {
        self.isStreaming = isStreaming
        self.deliver = deliver
    }

    /// Queues one intermediate reply with `parameters`; never blocks on the socket.
    public func send(_ parameters: [String: JSONValue]) async {
        guard isStreaming, !Task.isCancelled else { return }
        deliver(VarlinkMessage.encodeReplyPieces(parameters, continues: true))
    }
}
