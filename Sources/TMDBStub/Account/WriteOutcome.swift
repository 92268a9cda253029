/// What an applied account write did, which decides TMDB's answer to it.
public enum WriteOutcome: Sendable, Equatable {
    /// A new item: HTTP 201, `status_code` 1 "Success.".
    case created
    /// An item already there was set again: HTTP 201, `status_code` 12.
    case updated
    /// An item was removed (or was not there): HTTP 200, `status_code` 13.
    case deleted
}
