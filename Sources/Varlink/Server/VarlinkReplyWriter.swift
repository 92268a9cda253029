/// Sends the intermediate replies (`continues: true`) of a `more` call.
///
/// Calling ``send(_:)`` for a call without `more` (or a `oneway` one) is a programming error:
/// the reply is dropped. So is a reply sent after the call ended or was cancelled.
public final class VarlinkReplyWriter: Sendable {
    private let deliver: @Sendable ([[UInt8]]) -> Void
    private let isStreaming: Bool
    /// Sees each reply's parameters before it is queued (``observing(_:)``).
    private let observer: (@Sendable ([String: JSONValue]) -> Void)?

    init(isStreaming: Bool, observer: (@Sendable ([String: JSONValue]) -> Void)? = nil, deliver: @escaping @Sendable ([[UInt8]]) -> Void) {
        self.isStreaming = isStreaming
        self.observer = observer
        self.deliver = deliver
    }

    /// A writer that sends what this one does and hands each reply's parameters to `observe`
    /// first (for middleware that counts replies; only replies that are sent are seen).
    public func observing(_ observe: @escaping @Sendable ([String: JSONValue]) -> Void) -> VarlinkReplyWriter {
        let earlier = observer
        return VarlinkReplyWriter(isStreaming: isStreaming, observer: { parameters in
            earlier?(parameters)
            observe(parameters)
        }, deliver: deliver)
    }

    /// Queues one intermediate reply with `parameters`; never blocks on the socket.
    public func send(_ parameters: [String: JSONValue]) async {
        guard isStreaming, !Task.isCancelled else { return }
        observer?(parameters)
        deliver(VarlinkMessage.encodeReplyPieces(parameters, continues: true))
    }
}
