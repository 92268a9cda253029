/// A number of seconds as people say an age: "just now", "5 min ago", "2 h ago", "3 days ago".
enum RelativeAge {
    /// The age of something `seconds` old.
    static func describe(seconds: Int) -> String {
        switch seconds {
        case ..<60: "just now"
        case ..<3_600: "\(seconds / 60) min ago"
        case ..<86_400: "\(seconds / 3_600) h ago"
        case ..<172_800: "1 day ago"
        default: "\(seconds / 86_400) days ago"
        }
    }

    /// A duration without "ago": "45 s", "5 min", "2 h 10 min", "3 days 4 h".
    static func duration(seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(max(seconds, 0)) s"
        case ..<3_600: "\(seconds / 60) min"
        case ..<86_400: seconds % 3_600 >= 60 ? "\(seconds / 3_600) h \(seconds % 3_600 / 60) min" : "\(seconds / 3_600) h"
        default:
            (seconds / 86_400 == 1 ? "1 day" : "\(seconds / 86_400) days")
                + (seconds % 86_400 >= 3_600 ? " \(seconds % 86_400 / 3_600) h" : "")
        }
    }
}
