import MoviesData
import MoviesDomain

/// The sections and keys `moviesd.conf` accepts, each with its value syntax.
///
/// An empty `Socket=`, `Database=`, `AuthorizedGroup=` or `PinnedBytesPerUser=` resets the setting
/// to its default, as an empty assignment does in systemd.
public enum ConfigurationSchema {
    /// The known section names, in file order.
    public static let sections = ["Daemon", "Remote", "Cache", "Refresh", "Users", "Catalogue"]

    /// The setting for `key` in `section`, or nil when there is none.
    public static func setting(section: String, key: String) -> ConfigurationSetting? {
        settings.first { $0.section == section && $0.key == key }
    }

    /// The sections that have `key`, in file order (`RequestsPerSecond`: `Remote` and `Refresh`).
    public static func sections(having key: String) -> [String] {
        sections.filter { setting(section: $0, key: key) != nil }
    }

    /// Section names as a reader lists them: `[Daemon]`, `[Remote] or [Cache]`, `[A], [B] or [C]`.
    public static func list(_ names: [String], conjunction: String = "or") -> String {
        let bracketed = names.map { "[\($0)]" }
        guard let last = bracketed.last else { return "" }
        let rest = bracketed.dropLast()
        return rest.isEmpty ? last : rest.joined(separator: ", ") + " \(conjunction) " + last
    }

    /// Every setting, in documentation order.
    public static var settings: [ConfigurationSetting] { daemon + remote + cache + refresh + users + catalogue }

    private typealias V = ConfigurationValue
    private static let positive = 1...Int.max
    private static let nonNegative = 0...Int.max

    /// One key of `section`, whose value `assign` parses into the settings at `settings`.
    private static func setting<Settings>(
        _ section: String,
        _ settings: WritableKeyPath<DaemonConfiguration, Settings> & Sendable,
        _ key: String,
        _ assign: @escaping @Sendable (inout Settings, String) throws(ConfigurationValueError) -> Void
    ) -> ConfigurationSetting {
        ConfigurationSetting(section: section, key: key) { (configuration: inout DaemonConfiguration, value: String) throws(ConfigurationValueError) in
            try assign(&configuration[keyPath: settings], value)
        }
    }

    private static var daemon: [ConfigurationSetting] {
        func daemon(_ key: String, _ assign: @escaping @Sendable (inout DaemonSettings, String) throws(ConfigurationValueError) -> Void) -> ConfigurationSetting {
            setting("Daemon", \.daemon, key, assign)
        }
        return [
            daemon("Socket") { (s, v) throws(ConfigurationValueError) in s.socketPath = v.isEmpty ? nil : try V.absolutePath(v) },
            daemon("SocketMode") { (s, v) throws(ConfigurationValueError) in s.socketMode = try V.octalMode(v) },
            daemon("Database") { (s, v) throws(ConfigurationValueError) in s.databasePath = v.isEmpty ? nil : try V.absolutePath(v) },
            daemon("AuthorizedGroup") { (s, v) throws(ConfigurationValueError) in s.authorizedGroup = v.isEmpty ? nil : try AuthorizedGroup(parsing: v) },
            daemon("LogLevel") { (s, v) throws(ConfigurationValueError) in s.logLevel = try V.logLevel(v) },
            daemon("MaxConnections") { (s, v) throws(ConfigurationValueError) in s.maxConnections = try V.integer(v, in: 1...1_000_000) },
            daemon("MaxConnectionsPerUser") { (s, v) throws(ConfigurationValueError) in s.maxConnectionsPerUser = try V.integer(v, in: 0...1_000_000) },
            daemon("EventLoops") { (s, v) throws(ConfigurationValueError) in s.eventLoops = try V.integer(v, in: 0...1024) },
            daemon("MaxMessageBytes") { (s, v) throws(ConfigurationValueError) in
                s.maxMessageBytes = Int(try V.byteCount(v, in: 1024...(1 << 30)))
            },
            daemon("IdleTimeoutSec") { (s, v) throws(ConfigurationValueError) in s.idleTimeoutSeconds = try V.durationSeconds(v, in: positive) },
            daemon("CallDeadlineSec") { (s, v) throws(ConfigurationValueError) in s.callDeadlineSeconds = try V.durationSeconds(v, in: positive) },
            daemon("AnswerDeadlineSec") { (s, v) throws(ConfigurationValueError) in s.answerDeadlineSeconds = try V.durationSeconds(v, in: nonNegative) },
        ]
    }

    private static var remote: [ConfigurationSetting] {
        func remote(_ key: String, _ assign: @escaping @Sendable (inout RemoteSettings, String) throws(ConfigurationValueError) -> Void) -> ConfigurationSetting {
            setting("Remote", \.remote, key, assign)
        }
        return [
            remote("URL") { (s, v) throws(ConfigurationValueError) in s.baseURL = try V.baseURL(v) },
            remote("RequestsPerSecond") { (s, v) throws(ConfigurationValueError) in s.requestsPerSecond = try V.positiveNumber(v) },
            remote("RequestTimeoutSec") { (s, v) throws(ConfigurationValueError) in s.requestTimeoutSeconds = try V.durationSeconds(v, in: positive) },
            remote("DeadlineSec") { (s, v) throws(ConfigurationValueError) in s.deadlineSeconds = try V.durationSeconds(v, in: positive) },
            remote("MaxRetries") { (s, v) throws(ConfigurationValueError) in s.maxRetries = try V.integer(v, in: 0...10) },
            remote("Language") { (s, v) throws(ConfigurationValueError) in s.language = try V.language(v) },
        ]
    }

    private static var cache: [ConfigurationSetting] {
        func cache(_ key: String, _ assign: @escaping @Sendable (inout CacheSettings, String) throws(ConfigurationValueError) -> Void) -> ConfigurationSetting {
            setting("Cache", \.cache, key, assign)
        }
        return [
            cache("SearchFreshSec") { (s, v) throws(ConfigurationValueError) in s.searchFreshSeconds = try V.durationSeconds(v, in: nonNegative) },
            cache("MovieFreshSec") { (s, v) throws(ConfigurationValueError) in s.movieFreshSeconds = try V.durationSeconds(v, in: nonNegative) },
            cache("ConfigurationFreshSec") { (s, v) throws(ConfigurationValueError) in s.configurationFreshSeconds = try V.durationSeconds(v, in: nonNegative) },
            cache("SearchMaxStaleSec") { (s, v) throws(ConfigurationValueError) in s.searchMaxStaleSeconds = try V.durationSeconds(v, in: nonNegative) },
            cache("MovieMaxStaleSec") { (s, v) throws(ConfigurationValueError) in s.movieMaxStaleSeconds = try V.durationSeconds(v, in: nonNegative) },
            cache("NegativeSec") { (s, v) throws(ConfigurationValueError) in s.negativeSeconds = try V.durationSeconds(v, in: nonNegative) },
            cache("MaxBytes") { (s, v) throws(ConfigurationValueError) in s.maxBytes = try V.byteCount(v, in: 0...Int64.max) },
            cache("MemoryMaxBytes") { (s, v) throws(ConfigurationValueError) in s.memoryMaxBytes = try V.byteCount(v, in: 0...(Int64(1) << 40)) },
            cache("HonorRemoteMaxAge") { (s, v) throws(ConfigurationValueError) in s.honorRemoteMaxAge = try V.boolean(v) },
        ]
    }

    private static var refresh: [ConfigurationSetting] {
        func refresh(_ key: String, _ assign: @escaping @Sendable (inout RefreshSettings, String) throws(ConfigurationValueError) -> Void) -> ConfigurationSetting {
            setting("Refresh", \.refresh, key, assign)
        }
        return [
            refresh("Enabled") { (s, v) throws(ConfigurationValueError) in s.enabled = try V.boolean(v) },
            refresh("RequestsPerSecond") { (s, v) throws(ConfigurationValueError) in s.requestsPerSecond = try V.positiveNumber(v) },
            refresh("Posters") { (s, v) throws(ConfigurationValueError) in s.posters = try V.boolean(v) },
            refresh("DeadlineSec") { (s, v) throws(ConfigurationValueError) in s.deadlineSeconds = try V.durationSeconds(v, in: nonNegative) },
            refresh("ChangeFeed") { (s, v) throws(ConfigurationValueError) in s.changeFeed = try V.boolean(v) },
            refresh("ChangeFeedIntervalSec") { (s, v) throws(ConfigurationValueError) in s.changeFeedIntervalSeconds = try V.durationSeconds(v, in: 60...(30 * 86_400)) },
            refresh("AccountPullIntervalSec") { (s, v) throws(ConfigurationValueError) in s.accountPullIntervalSeconds = try V.durationSeconds(v, in: 60...(7 * 86_400)) },
        ]
    }

    private static var users: [ConfigurationSetting] {
        func users(_ key: String, _ assign: @escaping @Sendable (inout UserQuotas, String) throws(ConfigurationValueError) -> Void) -> ConfigurationSetting {
            setting("Users", \.users, key, assign)
        }
        return [
            users("WatchlistsPerUser") { (s, v) throws(ConfigurationValueError) in s.watchlists = try V.integer(v, in: 0...10_000) },
            users("EntriesPerUser") { (s, v) throws(ConfigurationValueError) in s.entries = try V.integer(v, in: 0...1_000_000) },
            users("PendingEditsPerUser") { (s, v) throws(ConfigurationValueError) in s.pendingEdits = try V.integer(v, in: 0...1_000_000) },
            users("PinnedBytesPerUser") { (s, v) throws(ConfigurationValueError) in s.pinnedBytes = v.isEmpty ? nil : try V.byteCount(v, in: 0...Int64.max) },
        ]
    }
}

extension ConfigurationSchema {
    fileprivate static var catalogue: [ConfigurationSetting] {
        func catalogue(_ key: String, _ assign: @escaping @Sendable (inout CatalogueSettings, String) throws(ConfigurationValueError) -> Void) -> ConfigurationSetting {
            ConfigurationSetting(section: "Catalogue", key: key) { (configuration: inout DaemonConfiguration, value: String) throws(ConfigurationValueError) in
                try assign(&configuration.catalogue, value)
            }
        }
        return [
            catalogue("Enabled") { (s, v) throws(ConfigurationValueError) in s.timerImports = try ConfigurationValue.boolean(v) },
            catalogue("URL") { (s, v) throws(ConfigurationValueError) in s.url = try ConfigurationValue.exportURL(v) },
            catalogue("MaxAge") { (s, v) throws(ConfigurationValueError) in s.maxAgeSeconds = Double(try ConfigurationValue.durationSeconds(v, in: 60...Int.max)) },
            catalogue("IncludeAdult") { (s, v) throws(ConfigurationValueError) in s.includeAdult = try ConfigurationValue.boolean(v) },
        ]
    }
}

/// One `Key=` of one `[Section]`: how to parse its value into a ``DaemonConfiguration``.
public struct ConfigurationSetting: Sendable {
    /// The section name without brackets, e.g. `Daemon`.
    public let section: String
    /// The key, e.g. `MaxConnections`.
    public let key: String
    private let assign: @Sendable (inout DaemonConfiguration, String) throws(ConfigurationValueError) -> Void

    /// Creates a setting whose value `assign` parses and stores.
    public init(
        section: String,
        key: String,
        assign: @escaping @Sendable (inout DaemonConfiguration, String) throws(ConfigurationValueError) -> Void
    ) {
        self.section = section
        self.key = key
        self.assign = assign
    }

    /// Parses `value` and stores it in `configuration`.
    public func apply(_ value: String, to configuration: inout DaemonConfiguration) throws(ConfigurationValueError) {
        try assign(&configuration, value)
    }
}
