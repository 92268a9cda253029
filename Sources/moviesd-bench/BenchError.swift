/// Why a benchmark could not run; printed as one line and the exit status is 1.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong and, where possible, what to do.
    let description: String

    /// Creates an error with `description`.
    init(_ description: String) { self.description = description }
}
