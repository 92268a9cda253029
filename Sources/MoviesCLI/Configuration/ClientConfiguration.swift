import CommandLineSupport
import MoviesDomain

/// The user's defaults for `movies`, from `movies.conf` (`ClientConfigurationFile`): how to
/// search and show movies, and colour. Every setting is what a command-line flag would say;
/// a flag given wins.
struct ClientConfiguration: Sendable, Hashable {
    /// `[Search]`: the policy, language and region of `search`, `browse` and `show`.
    var search = SearchDefaults()
    /// `[Output] Color=`: `--color`'s default.
    var color: ColorChoice?

    /// No settings: every command asks as the daemon's defaults do.
    init() {}

    /// One key of the file: its section, name, what it takes, and how it sets the configuration.
    struct Setting: Sendable {
        /// The section, without brackets.
        let section: String
        /// The key.
        let key: String
        /// The values it takes, as a phrase ("default, cache-first, fresh or offline").
        let takes: String
        /// The values it takes, when they are few words (for "did you mean").
        var choices: [String] = []
        /// Sets `value` (never empty: an empty value resets the setting) in `configuration`;
        /// `false` when the value is not one it takes.
        let apply: @Sendable (_ value: String, _ configuration: inout ClientConfiguration) -> Bool
        /// Resets the setting to its default (an empty value, as in systemd).
        let reset: @Sendable (_ configuration: inout ClientConfiguration) -> Void
    }

    /// The policies `[Search] Policy=` takes: the command-line flags' names (`PolicyOptions`), and
    /// `default` for the daemon's own.
    static let policies: [(name: String, policy: FetchPolicy?)] = [("default", nil)] + PolicyOptions.named.map { ($0.name, $0.policy) }

    /// Every setting, in documentation order: the file's schema.
    static let settings: [Setting] = [
        Setting(section: "Search", key: "Policy", takes: policies.dropLast().map(\.name).joined(separator: ", ") + " or " + (policies.last?.name ?? ""), choices: policies.map(\.name), apply: { value, configuration in
            guard let match = policies.first(where: { $0.name == value }) else { return false }
            configuration.search.policy = match.policy
            return true
        }, reset: { $0.search.policy = nil }),
        Setting(section: "Search", key: "Language", takes: "a language tag such as en or de-DE", apply: { value, configuration in
            guard SearchRequest.isValidLanguage(value) else { return false }
            configuration.search.language = value
            return true
        }, reset: { $0.search.language = nil }),
        Setting(section: "Search", key: "Region", takes: "a two-letter country code (ISO 3166-1) such as GB", apply: { value, configuration in
            guard SearchRequest.isValidRegion(value.uppercased()) else { return false }
            configuration.search.region = value.uppercased()
            return true
        }, reset: { $0.search.region = nil }),
        Setting(section: "Output", key: "Color", takes: "auto, always or never", choices: ColorChoice.allCases.map(\.rawValue), apply: { value, configuration in
            guard let choice = ColorChoice(rawValue: value) else { return false }
            configuration.color = choice
            return true
        }, reset: { $0.color = nil }),
    ]

    /// The sections, in documentation order.
    static var sections: [String] {
        settings.map(\.section).reduce(into: []) { names, name in if !names.contains(name) { names.append(name) } }
    }
}
