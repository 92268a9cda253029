/// One movie of TMDB's daily ID export as the catalogue keeps it: its id, its original title and
/// its popularity (which ranks catalogue titles in the local search).
public struct CatalogueTitle: Sendable, Hashable {
    /// TMDB's movie id.
    public var id: Int
    /// The original title, as the export gives it (the export has no localized title).
    public var title: String
    /// TMDB's popularity score on the export's day.
    public var popularity: Double

    /// Creates a catalogue title.
    public init(id: Int, title: String, popularity: Double) {
        self.id = id
        self.title = title
        self.popularity = popularity
    }
}
