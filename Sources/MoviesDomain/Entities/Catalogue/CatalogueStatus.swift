import FoundationEssentials

/// What the catalogue holds: the day of the export last imported, how many titles, and when.
public struct CatalogueStatus: Sendable, Hashable, Codable {
    /// The export's day (`YYYY-MM-DD`, the date in its file name); `nil` before the first import.
    public var exportDate: String?
    /// Titles in the catalogue.
    public var titles: Int
    /// When the last import finished; `nil` before the first import.
    public var importedAt: Date?
    /// The catalogue's size on disk in bytes.
    public var bytesOnDisk: Int

    /// Creates a status.
    public init(exportDate: String? = nil, titles: Int = 0, importedAt: Date? = nil, bytesOnDisk: Int = 0) {
        self.exportDate = exportDate
        self.titles = titles
        self.importedAt = importedAt
        self.bytesOnDisk = bytesOnDisk
    }
}
