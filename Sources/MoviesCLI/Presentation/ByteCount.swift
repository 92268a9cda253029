/// Formats a byte count for people: "512 B", "3.4 KiB", "12.0 MiB".
enum ByteCount {
    /// `bytes` in the largest binary unit that keeps the number at least 1.
    static func describe(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1_024 else { return "\(bytes) B" }
        var value = Double(bytes)
        var unit = 0
        while value >= 1_024, unit < units.count - 1 {
            value /= 1_024
            unit += 1
        }
        return "\(RatingFormat.oneDecimal(value)) \(units[unit])"
    }
}
