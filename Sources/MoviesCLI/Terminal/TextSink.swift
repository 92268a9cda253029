/// Where a view writes its text: standard output, standard error, or a buffer in tests.
protocol TextSink: AnyObject {
    /// Writes `text` as is.
    func write(_ text: String)
}
