/// A counter-based generator (SplitMix64 over a key): the same movie, day and seed always draw
/// the same numbers, whatever order the export is written in.
struct ExportRandom {
    private var state: UInt64

    /// A generator keyed by `parts`.
    init(_ parts: UInt64...) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for part in parts { state = Self.mix(state ^ part) }
        self.state = state
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    /// A number in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
