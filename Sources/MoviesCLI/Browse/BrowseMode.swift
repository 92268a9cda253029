/// Where keys go on the list screen.
///
/// As in fzf, typing goes to the query at once (`query`); as in tig and less, a list mode gives
/// letters to commands: `j`/`k`, `g`/`G`, `q`, `?`, `w`, `a`, `f`. Esc or Tab goes from the
/// query to the list; `/`, `i` or Tab goes back, keeping the query.
enum BrowseMode: Sendable, Hashable {
    /// Keys edit the query; arrows and pages move in the list.
    case query
    /// Letters are commands (vi keys).
    case list
}

/// Which screen is shown.
enum BrowseScreen: Sendable, Hashable {
    /// The search bar and the list (results, or recent queries when the query is empty).
    case list
    /// One movie's details.
    case details
    /// The keys; any key goes back to `returnTo`.
    case help(returnTo: BrowseHelpReturn)
}

/// The screen help returns to.
enum BrowseHelpReturn: Sendable, Hashable {
    case list
    case details
}
