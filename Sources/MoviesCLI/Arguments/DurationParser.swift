/// Parses durations such as `30d`, `6h`, `90m`, `45s` or `1h30m` (a bare number means seconds).
enum DurationParser {
    /// The number of seconds `text` stands for, or `nil` when it is not a duration.
    static func seconds(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        if let plain = Int(text), plain >= 0 { return plain }
        var total = 0
        var digits = ""
        for character in text {
            if let _ = character.wholeNumberValue, character.isASCII {
                digits.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            case "w": unit = 604_800
            default: return nil
            }
            guard let number = Int(digits) else { return nil }
            let (product, overflow) = number.multipliedReportingOverflow(by: unit)
            guard !overflow else { return nil }
            let (sum, overflowed) = total.addingReportingOverflow(product)
            guard !overflowed else { return nil }
            total = sum
            digits = ""
        }
        return digits.isEmpty ? total : nil
    }
}
