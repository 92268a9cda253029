/// The help screen (`?` in list mode and on details, F1 anywhere): every key, by screen.
enum BrowseHelpView {
    /// The keys, as shown.
    static let text = """
        movies browse — keys

        Typing (the search bar has the cursor; readline's keys, as in fzf)
          letters, digits…   go in at the cursor: the local index answers at once, TMDB after a pause
          ← → Ctrl-B Ctrl-F  move the cursor;  Alt-B Alt-F Ctrl-← Ctrl-→: a word
          Home End Ctrl-A/E  to the start, the end of the query
          Backspace Delete   delete a character;  Ctrl-W Alt-Backspace Alt-D: a word
          Ctrl-U Ctrl-K      delete to the start, to the end
          ↑ ↓ PgUp PgDn      move in the list (Ctrl-P/Ctrl-N: up/down)
          Enter              open the movie (on a recent search: search it again)
          Esc or Tab         list keys (the letters below become commands)

        List keys
          j k  ↓ ↑           down, up;  g G  Home End: first, last
          Ctrl-F Ctrl-B      page down, up;  Ctrl-D Ctrl-U: half a page
          Enter or l         open the movie
          / i Tab            type in the search bar again
          r                  ask TMDB again now
          q or Esc           quit

        On a movie (list keys, and on its details)
          w                  add to the watchlist (moviesd keeps it prefetched for offline use)
          a  A               put on / take off the TMDB account's watchlist
          f  F               mark / unmark as a TMDB favourite
                             offline, an edit is saved and pending until TMDB can be reached
          o  y               open its TMDB page in the browser; copy the page's address (OSC 52)
        Details
          j k PgDn PgUp      scroll;  Esc q ← Backspace: back to the list

        Mouse (unless --no-mouse)
          wheel              move in the list, scroll the details
          click, double      select a row; open it (a click on the search bar types there)

        A search is saved to your recent searches when you open or act on one of its movies,
        not while you type.

        Anywhere
          F1                 this help;  Ctrl-L redraw;  Ctrl-Z suspend;  Ctrl-C quit
        """

    /// The help's lines, cut to `width`.
    static func lines(width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { TextFitting.truncate(String($0), to: width) }
    }
}
