/// The kinds of cached resources; each has its own fresh lifetime and max-stale bound.
public enum ResourceClass: String, Sendable, Hashable, Codable, CaseIterable {
    case search
    case movie
    case configuration
    case poster
}
