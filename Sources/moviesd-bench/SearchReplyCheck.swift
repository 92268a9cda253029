import Varlink

/// Checks one `Search` reply (or `Movie` reply): not an error, a page with results (a movie), the
/// expected origin.
enum SearchReplyCheck {
    /// Why `bytes` is not an acceptable reply, or nil.
    static func problem(in bytes: [UInt8], expectedOrigin: String?) -> String? {
        guard let message = try? JSONValue.parse(bytes) else { return "the reply is not JSON" }
        if let error = message["error"]?.stringValue {
            return "the daemon answered \(error): \(String(decoding: bytes.prefix(300), as: UTF8.self))"
        }
        guard let parameters = message["parameters"],
              parameters["page"]?["movies"]?.arrayValue != nil || parameters["movie"]?["id"]?.intValue != nil else {
            return "the reply has no page of results and no movie"
        }
        let origin = parameters["freshness"]?["origin"]?.stringValue
        if let expectedOrigin, origin != expectedOrigin {
            return "expected freshness.origin \(expectedOrigin), got \(origin ?? "none") (is the page cached?)"
        }
        return nil
    }
}
