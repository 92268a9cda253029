import FoundationEssentials
import MoviesDomain

/// The `[Catalogue]` section of moviesd.conf(5): where the daily export comes from, how old the
/// last import may get before the refresh timer imports again, and whether adult entries count.
public struct CatalogueSettings: Sendable, Hashable {
    /// `URL=`: where the exports are. A value containing `MM`, `DD` and `YYYY` (as in
    /// `…/movie_ids_MM_DD_YYYY.json.gz`) is a pattern, those letters replaced by the day; any
    /// other value is a base to which `movie_ids_MM_DD_YYYY.json.gz` is appended.
    public var url = "https://files.tmdb.org/p/exports/"
    /// `MaxAge=`: the timer imports again once the last import is older (seconds; 7 days).
    public var maxAgeSeconds: Double = 7 * 86_400
    /// `IncludeAdult=`: whether adult and video entries are imported.
    public var includeAdult = false
    /// How many earlier days are tried, one by one, when a day's file is missing (404).
    public var earlierDays = 6
    /// The longest a download may take, in seconds.
    public var downloadTimeoutSeconds: Double = 900
    /// `Enabled=`: whether the refresh timer imports at all (`movies catalogue update` always can).
    public var timerImports = true

    /// The defaults: TMDB's own export files, weekly, no adult titles.
    public init() {}

    /// The export's URL for `day`, or `nil` when `url` does not make one.
    public func exportURL(for day: CalendarDay) -> URL? {
        let (year, month, date) = WireDate.civilDate(daysSince1970: day.day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp = "\(two(month))_\(two(date))_\(year)"
        let text: String
        if url.contains("MM"), url.contains("DD"), url.contains("YYYY") {
            text = url.replacing("YYYY", with: String(year)).replacing("MM", with: two(month)).replacing("DD", with: two(date))
        } else {
            text = (url.hasSuffix("/") ? url : url + "/") + "movie_ids_\(stamp).json.gz"
        }
        return URL(string: text)
    }

    /// These settings with, when `URL=` is left at TMDB's files and TMDB's API is not TMDB's own
    /// (`[Remote] URL=` of a stand-in, or of a fleet's shared cache), the exports asked of that
    /// host: `/p/exports/` of `remoteBaseURL`'s origin, where the stand-in serves them. So a
    /// daemon pointed away from TMDB never asks files.tmdb.org unless told to.
    public func following(remote remoteBaseURL: String) -> CatalogueSettings {
        guard url == CatalogueSettings().url, let remote = URL(string: remoteBaseURL), let host = remote.host,
              host != "api.themoviedb.org", let scheme = remote.scheme else { return self }
        var settings = self
        settings.url = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(remote.port.map { ":\($0)" } ?? "")/p/exports/"
        return settings
    }

    /// The newest export that should exist at `now`: TMDB's file of a day is out by 08:00 UTC.
    public static func newestExportDay(at now: Date) -> CalendarDay {
        CalendarDay(now.addingTimeInterval(-8 * 3_600))
    }
}
