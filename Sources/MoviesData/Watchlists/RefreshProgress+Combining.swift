import MoviesDomain

extension RefreshProgress {
    /// Several refreshes' progress as one (a refresh of several owners' lists, or what `Status`
    /// shows of those running): their counts added up, the list and step of `newest`.
    static func combined(_ parts: some Sequence<RefreshProgress>, newest: RefreshProgress) -> RefreshProgress {
        var combined = RefreshProgress(watchlist: newest.watchlist, step: newest.step, done: 0, failed: 0, skipped: 0, total: 0)
        for part in parts {
            combined.done += part.done
            combined.failed += part.failed
            combined.skipped += part.skipped
            combined.total += part.total
            if let current = part.current { combined.current = (combined.current ?? 0) + current }
        }
        return combined
    }
}
