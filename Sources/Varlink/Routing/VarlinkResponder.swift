/// Answers one call: its final reply's parameters, or a ``VarlinkError``; a `more` call's
/// intermediate replies go through the writer.
public typealias VarlinkResponder = @Sendable (VarlinkCall, VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue]
