/// One full screen to show: a styled text per row, where the cursor stands, and an image.
struct ScreenFrame: Sendable, Equatable {
    /// One text per row, top to bottom, each at most the screen's width (SGR styles allowed).
    var rows: [String]
    /// Where the cursor is shown (0-based row and column); `nil` hides it.
    var cursor: (row: Int, column: Int)?
    /// An image drawn at the left of some rows; those rows' text starts right of it.
    var image: ScreenImage?

    /// Creates a frame.
    init(rows: [String], cursor: (row: Int, column: Int)? = nil, image: ScreenImage? = nil) {
        self.rows = rows
        self.cursor = cursor
        self.image = image
    }

    static func == (left: ScreenFrame, right: ScreenFrame) -> Bool {
        left.rows == right.rows && left.cursor?.row == right.cursor?.row
            && left.cursor?.column == right.cursor?.column && left.image == right.image
    }

    /// The column where text of `row` starts: right of the image on the rows it covers.
    func textColumn(of row: Int) -> Int {
        guard let image, image.rowRange.contains(row) else { return 0 }
        return image.columns + 1
    }
}

/// An image in a box of cells, at column 0 from `row` down.
struct ScreenImage: Sendable, Equatable {
    /// What it shows (a poster's path and size): two images with one id are the same image.
    let id: String
    /// Its first row.
    let row: Int
    /// Its box, in cells.
    let columns: Int
    let rows: Int
    /// The image file's bytes, base64.
    let base64: String
    /// How the terminal draws it.
    let graphics: GraphicsProtocol

    /// The rows it covers.
    var rowRange: Range<Int> { row..<(row + rows) }

    static func == (left: ScreenImage, right: ScreenImage) -> Bool {
        left.id == right.id && left.row == right.row && left.columns == right.columns
            && left.rows == right.rows && left.graphics == right.graphics
    }
}
