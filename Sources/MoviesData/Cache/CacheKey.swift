/// Canonical cache keys: endpoint plus normalized parameters, so equivalent requests share an entry.
///
/// Search keys start with `search/movie?query=<canonical>&` so every page, language, region and year of one
/// query shares a prefix (used by invalidate and purge); movie keys start with `movie/<id>?`.
public enum CacheKey {
    /// The key of one search page. A region and a year, which change TMDB's answer, follow the
    /// page when given (`…&page=1&region=GB&year=1999`); without them the key is the one moviesd
    /// 0.1 wrote, so caches upgrade in place.
    public static func search(_ query: MovieQuery, page: Int, language: String?, region: String? = nil, year: Int? = nil) -> String {
        // Appended in place, into room for most keys: one allocation (a cached search makes one).
        var key = ""
        key.reserveCapacity(80)
        key += "search/movie?query="
        key += escape(query.canonical)
        key += "&language="
        key += language ?? ""
        key += "&page="
        key += String(page)
        if let region { key += "&region=" + escape(region) }
        if let year { key += "&year=" + String(year) }
        return key
    }

    /// The key of the search page `request` asks for.
    public static func search(_ request: SearchRequest) -> String {
        search(request.query, page: request.page, language: request.language, region: request.region, year: request.year)
    }

    /// The prefix shared by every page and language of `query`.
    public static func searchPrefix(_ query: MovieQuery) -> String {
        "search/movie?query=\(escape(query.canonical))&"
    }

    /// The key of one movie's details.
    public static func movie(id: Int, language: String?) -> String {
        "\(moviePrefix(id: id))language=\(language ?? "")"
    }

    /// The prefix shared by every language of one movie.
    public static func moviePrefix(id: Int) -> String { "movie/\(id)?" }

    /// The language a search or movie key asks for (`nil`: TMDB's default; also for other keys).
    /// Read after the key's last `language=`: a query's own `=` and `&` are escaped.
    public static func language(ofKey key: String) -> String? {
        guard let marker = key.range(of: "language=", options: .backwards) else { return nil }
        let language = key[marker.upperBound...].prefix { $0 != "&" }
        return language.isEmpty ? nil : String(language)
    }

    /// The key of the TMDB configuration.
    public static let configuration = "configuration"

    /// The key of one poster image.
    public static func poster(path: String, size: PosterSize) -> String {
        "\(posterPrefix)\(size.rawValue)\(path)"
    }

    /// The prefix shared by every poster.
    public static let posterPrefix = "image/"

    /// Escapes `&`, `=`, `%` and control characters so a query cannot forge another key's shape.
    static func escape(_ text: String) -> String {
        // Most queries need no escaping: return them as they are, without rebuilding the string.
        let needsEscaping = text.utf8.contains { byte in
            byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "&")
                || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        }
        guard needsEscaping else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%", "&", "=", "?", "#":
                out += "%" + String(scalar.value, radix: 16, uppercase: true)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "%" + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

import MoviesDomain
