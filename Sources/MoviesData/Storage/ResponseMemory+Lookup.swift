import MoviesDomain
import MoviesWire

extension ResponseMemory.Remembered {
    /// A call's lookup made from memory: the entry's reply when it is a page or details with a
    /// reply of today's `WireCoding.version`, or TMDB's "not found"; `nil` when memory cannot say
    /// (an older shape to decode: the call reads the database). `maxStaleSeconds`: the configured
    /// bound of the entry's resource class.
    public func lookup(maxStaleSeconds: Int) -> CacheLookup? {
        switch response.httpStatus {
        case 404:
            return CacheLookup(.negative(expiresAt: response.expiresAt), maxStaleSeconds: maxStaleSeconds)
        case 200:
            guard let reply = response.reply(atVersion: WireCoding.version) else { return nil }
            let answer = CachedAnswer(json: reply, fetchedAt: response.fetchedAt, expiresAt: response.expiresAt)
            return CacheLookup(.answer(answer), maxStaleSeconds: maxStaleSeconds)
        default:
            return nil
        }
    }
}
