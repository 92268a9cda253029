/// 64-bit FNV-1a: a fast, stable (not seeded per process) hash of bytes, for ETags, digests and
/// colours that must come out the same in every run. Not for anything an attacker chooses keys of.
public struct FNV1a: Sendable {
    /// The hash of everything added so far.
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// An empty hash.
    public init() {}

    /// The hash of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(bytes)
        return hasher.value
    }

    /// Adds `bytes`.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }

    /// Adds `bytes` and then a separator, so that ("ab", "c") and ("a", "bc") differ.
    public mutating func addField(_ bytes: some Sequence<UInt8>) {
        add(bytes)
        add(CollectionOfOne(0xFF))
    }
}
