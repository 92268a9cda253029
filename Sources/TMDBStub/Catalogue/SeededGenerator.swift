import SystemSupport

extension SeededRandomGenerator {
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
