/// What a list is waiting for, if anything: the whole list or one more page.
enum LoadingState: Sendable, Hashable {
    /// Nothing is shown yet; the whole screen waits.
    case fullScreen
    /// The list is shown and the next page is on its way.
    case nextPage
}
