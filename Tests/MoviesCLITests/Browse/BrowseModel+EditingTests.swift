@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// Issue 46: the query is edited with readline's keys, as in fzf, and the mouse works where the
/// terminal reports it.
@Suite struct BrowseModelEditingTests {
    typealias T = BrowseModelTests

    /// A model whose query is `text`, typed, with the cursor at its end.
    static func model(typed text: String) -> BrowseModel {
        var model = T.model()
        _ = T.type(text, into: &model, at: T.start)
        return model
    }

    @Test func leftAndRightMoveTheCursorAndTypingGoesInThere() {
        var model = Self.model(typed: "matix")
        _ = model.handle(.key(.left), now: T.start)
        #expect(model.handle(.key(.left), now: T.start).isEmpty, "a move searches nothing")
        let effects = model.handle(.key(.character("r")), now: T.start)
        #expect(model.state.query == "matrix")
        #expect(T.searches(effects).map(\.parameters.query) == ["matrix"], "an edit searches the local index again")
        _ = model.handle(.key(.control("b")), now: T.start)
        _ = model.handle(.key(.control("f")), now: T.start)
        _ = model.handle(.key(.right), now: T.start)
        _ = model.handle(.key(.right), now: T.start)
        _ = model.handle(.key(.right), now: T.start)
        _ = model.handle(.key(.character("!")), now: T.start)
        #expect(model.state.query == "matrix!")
    }

    @Test(arguments: [
        ([Key.home], "Xblade runner"), ([.control("a")], "Xblade runner"), ([.end], "blade runnerX"), ([.control("e")], "blade runnerX"),
        ([.alt("b")], "blade Xrunner"), ([.wordLeft], "blade Xrunner"), ([.home, .alt("f")], "bladeX runner"), ([.home, .wordRight], "bladeX runner"),
    ])
    func cursorKeys(keys: [Key], result: String) {
        var model = Self.model(typed: "blade runner")
        for key in keys { _ = model.handle(.key(key), now: T.start) }
        _ = model.handle(.key(.character("X")), now: T.start)
        #expect(model.state.query == result)
        #expect(model.state.selection == 0, "Home and End edit the query in query mode, they do not move in the list")
    }

    @Test(arguments: [
        (Key.delete, "blade unner"), (.control("d"), "blade unner"), (.backspace, "bladerunner"), (.control("w"), "runner"),
        (.altBackspace, "runner"), (.alt("d"), "blade "), (.control("u"), "runner"), (.control("k"), "blade "),
    ])
    func deletingKeys(key: Key, result: String) {
        var model = Self.model(typed: "blade runner")
        for _ in 0..<6 { _ = model.handle(.key(.left), now: T.start) }
        let effects = model.handle(.key(key), now: T.start)
        #expect(model.state.query == result)
        #expect(T.searches(effects).map(\.parameters.query) == [result.trimmed])
    }

    @Test func theCursorIsDrawnWhereTheQueryIsEdited() {
        var model = Self.model(typed: "matrix")
        for _ in 0..<2 { _ = model.handle(.key(.left), now: T.start) }
        let frame = BrowseScreenView.frame(model.state, usesColor: false)
        #expect(frame.cursor?.column == DisplayWidth.of(BrowseListView.prompt) + 4)
    }

    @Test func aQueryLongerThanTheBarKeepsTheCursorInView() {
        var model = BrowseModel.start(query: "", watchlistName: "browse", width: 20, height: 10, now: T.start).0
        _ = T.type(String(repeating: "x", count: 30) + "END", into: &model, at: T.start)
        let shown = BrowseListView.shownQuery(model.state, width: 20)
        #expect(shown.text.hasSuffix("END"))
        #expect(shown.cursorColumn < 20 - DisplayWidth.of(BrowseListView.prompt))
        _ = model.handle(.key(.home), now: T.start)
        #expect(BrowseListView.shownQuery(model.state, width: 20).cursorColumn == 0)
    }

    @Test func altWithAnotherKeyIsEscapeThenTheKey() {
        var model = Self.model(typed: "matrix")
        _ = model.handle(.key(.alt("q")), now: T.start)
        #expect(model.state.mode == .list)
        #expect(model.state.query == "matrix")
    }

    // MARK: The mouse

    /// A model listing 20 movies of "movie" on a 80×13 terminal (rows 2 to 11 are the list).
    static func listing() throws -> BrowseModel {
        try BrowseModelTests.modelWithThreePages()
    }

    static func click(row: Int, _ model: inout BrowseModel, at time: UInt64) -> [BrowseEffect] {
        model.handle(.mouse(MouseEvent(action: .press, column: 5, row: row)), now: time)
    }

    @Test func aClickSelectsTheRowAndADoubleClickOpensIt() throws {
        var model = try Self.listing()
        #expect(Self.click(row: BrowseModel.listTopRow + 3, &model, at: T.start).isEmpty)
        #expect(model.state.selection == 3)
        #expect(model.state.screen == .list)
        let effects = Self.click(row: BrowseModel.listTopRow + 3, &model, at: T.start + 200 * T.millisecond)
        #expect(model.state.screen == .details)
        #expect(model.state.details?.movieID == 4)
        #expect(effects.contains { if case .loadMovie(_, 4) = $0 { return true } else { return false } })
    }

    @Test func twoSlowClicksOrClicksOnTwoRowsOpenNothing() throws {
        var model = try Self.listing()
        _ = Self.click(row: 4, &model, at: T.start)
        _ = Self.click(row: 4, &model, at: T.start + BrowseModel.doubleClickNanoseconds + 1)
        #expect(model.state.screen == .list)
        _ = Self.click(row: 5, &model, at: T.start + BrowseModel.doubleClickNanoseconds + 2)
        #expect(model.state.screen == .list)
        #expect(model.state.selection == 3)
        // Below the list (the keys row) and beyond the rows: nothing.
        _ = Self.click(row: 12, &model, at: T.start + 10 * BrowseModel.doubleClickNanoseconds)
        #expect(model.state.selection == 3)
    }

    @Test func theWheelMovesInTheListAndScrollsTheDetails() throws {
        var model = try Self.listing()
        _ = model.handle(.mouse(MouseEvent(action: .wheelDown, column: 0, row: 5)), now: T.start)
        _ = model.handle(.mouse(MouseEvent(action: .wheelDown, column: 0, row: 5)), now: T.start)
        _ = model.handle(.mouse(MouseEvent(action: .wheelUp, column: 0, row: 5)), now: T.start)
        #expect(model.state.selection == 1)
        _ = model.handle(.key(.enter), now: T.start)
        _ = model.handle(.mouse(MouseEvent(action: .wheelDown, column: 0, row: 5)), now: T.start)
        #expect(model.state.details?.scroll == 1)
    }

    @Test func aClickOnTheSearchBarTypesThere() throws {
        var model = try Self.listing()
        _ = model.handle(.key(.escape), now: T.start)
        #expect(model.state.mode == .list)
        _ = Self.click(row: 0, &model, at: T.start)
        #expect(model.state.mode == .query)
    }
}
