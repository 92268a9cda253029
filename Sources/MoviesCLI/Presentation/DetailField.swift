/// A labelled value on a details screen ("Homepage", "https://...").
struct DetailField: Sendable, Hashable {
    /// The label.
    let label: String
    /// The value.
    let value: String
}
