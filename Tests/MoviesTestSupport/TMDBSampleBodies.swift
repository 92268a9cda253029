import FoundationEssentials
import MoviesData

/// Small TMDB-shaped response bodies and responses for repository tests.
public enum TMDBSampleBodies {
    /// A `search/movie` page whose movies have the given titles (ids 1, 2, ...).
    public static func searchPage(page: Int = 1, titles: [String], totalPages: Int = 3) -> Data {
        let results = titles.enumerated().map { index, title in
            #"{"id":\#(index + 1),"title":"\#(title)","release_date":"1999-03-31","poster_path":"/p\#(index + 1).jpg"}"#
        }
        return Data(#"{"page":\#(page),"total_pages":\#(totalPages),"total_results":\#(titles.count * totalPages),"results":[\#(results.joined(separator: ","))]}"#.utf8)
    }

    /// A `movie/{id}` record.
    public static func movie(id: Int, title: String) -> Data {
        Data(#"{"id":\#(id),"title":"\#(title)","homepage":"","release_date":"1999-03-31","runtime":136,"genres":[{"id":28,"name":"Action"}]}"#.utf8)
    }

    /// A `configuration` body with the given `secure_base_url`.
    public static func configuration(secureBaseURL: String = "https://image.tmdb.org/t/p/") -> Data {
        Data(#"{"images":{"base_url":"http://image.tmdb.org/t/p/","secure_base_url":"\#(secureBaseURL)","poster_sizes":["w92","w154","w185","w342","w500","w780","original"]}}"#.utf8)
    }

    /// A 200 response with a JSON body.
    public static func ok(_ body: Data, etag: String? = nil, maxAge: Int? = nil) -> RemoteResponse {
        RemoteResponse(httpStatus: 200, body: body, contentType: "application/json", etag: etag, maxAge: maxAge)
    }

    /// A 304 Not Modified response.
    public static func notModified(etag: String? = nil) -> RemoteResponse {
        RemoteResponse(httpStatus: 304, body: Data(), etag: etag)
    }
}
