/// A deterministic SplitMix64 random number generator, so a seed always yields the same catalogue.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `share` (0...1).
    public mutating func chance(_ share: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < share
    }

    /// A uniformly chosen element of a non-empty array (the first element's fallback is never used
    /// for the non-empty word lists this is called with).
    public mutating func pick<Element>(_ elements: [Element], or fallback: Element) -> Element {
        elements.randomElement(using: &self) ?? fallback
    }
}
