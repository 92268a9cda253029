/// What an import changed.
public struct CatalogueImportSummary: Sendable, Hashable, Codable {
    /// The export's day (`YYYY-MM-DD`).
    public var exportDate: String
    /// Titles in the catalogue after the import.
    public var titles: Int
    /// Titles new to the catalogue.
    public var added: Int
    /// Titles no longer in the export, removed.
    public var removed: Int
    /// Titles whose text changed, or whose popularity moved far enough to change their place in
    /// the search's order (a row of the text index written again).
    public var retitled: Int
    /// Export lines left out: adult or video entries (without `IncludeAdult=yes`).
    public var skipped: Int
    /// Export lines that could not be read.
    public var unreadable: Int

    /// Creates a summary.
    public init(exportDate: String, titles: Int, added: Int, removed: Int, retitled: Int, skipped: Int = 0, unreadable: Int = 0) {
        self.exportDate = exportDate
        self.titles = titles
        self.added = added
        self.removed = removed
        self.retitled = retitled
        self.skipped = skipped
        self.unreadable = unreadable
    }
}
