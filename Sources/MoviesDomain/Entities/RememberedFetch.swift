/// A fresh cached answer handed out from memory, with the cache revision it was valid at.
///
/// The revision changes whenever the cache may have changed, so a caller may keep work derived
/// from the value (an encoded reply, say) for as long as the revision it was made from comes back.
public struct RememberedFetch<Value: Sendable>: Sendable {
    public var fetched: Fetched<Value>
    public var revision: UInt64

    /// Creates a remembered answer.
    public init(fetched: Fetched<Value>, revision: UInt64) {
        self.fetched = fetched
        self.revision = revision
    }
}
