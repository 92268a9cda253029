/// Where a view writes its text: standard output, standard error, or a buffer in tests
/// (`BufferSink`, below).
protocol TextSink: AnyObject {
    /// Writes `text` as is.
    func write(_ text: String)
}

/// A `TextSink` that keeps everything written, for tests.
final class BufferSink: TextSink {
    /// Everything written so far.
    private(set) var text = ""

    /// Creates an empty buffer.
    init() {}

    func write(_ text: String) { self.text += text }
}
