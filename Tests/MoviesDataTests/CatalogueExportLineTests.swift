import Foundation
import MoviesData
import MoviesDomain
import Testing

/// Reading the export's lines: the five members, JSON strings and numbers in full, other members
/// skipped, anything else refused.
@Suite struct CatalogueExportLineTests {
    @Test func readsTMDBsLine() {
        let entry = CatalogueExportLine.parse(#"{"adult":false,"id":3924,"original_title":"Blondie","popularity":2.744,"video":false}"#)
        #expect(entry == CatalogueExportEntry(id: 3924, originalTitle: "Blondie", popularity: 2.744))
    }

    @Test func readsEscapesUnicodeOtherMembersAndAnyOrder() {
        let entry = CatalogueExportLine.parse(
            #"{ "video" : true, "extra": {"a":[1,2,{"b":null}]}, "original_title":"L\u00e9on \"the\" Pro\\ \ud83c\udfac\/","id":5,"popularity":1e2,"adult":true }"#)
        #expect(entry == CatalogueExportEntry(id: 5, originalTitle: "Léon \"the\" Pro\\ 🎬/", popularity: 100, adult: true, video: true))
        #expect(CatalogueExportLine.parse(#"{"id":7,"original_title":"千と千尋の神隠し"}"#)?.originalTitle == "千と千尋の神隠し")
    }

    @Test(arguments: [
        "", "[]", "{}", #"{"id":1}"#, #"{"original_title":"x"}"#, #"{"id":0,"original_title":"x"}"#,
        #"{"id":1.5,"original_title":"x"}"#, #"{"id":1,"original_title":"x""#, #"{"id":1,"original_title":"x"} trailing"#,
        #"{"id":1,"original_title":"bad \q escape"}"#, #"{"id":1,"original_title":"\ud800 lone"}"#, "{\"id\":1,\"original_title\":\"tab\there\"}",
    ])
    func refusesWhatIsNotALine(line: String) {
        #expect(CatalogueExportLine.parse(line) == nil)
    }

    @Test func exportURLsFromAPatternOrABase() throws {
        var settings = CatalogueSettings()
        let day = try #require(CalendarDay("2026-03-05"))
        #expect(settings.exportURL(for: day)?.absoluteString == "https://files.tmdb.org/p/exports/movie_ids_03_05_2026.json.gz")
        settings.url = "http://127.0.0.1:8080/mirror"
        #expect(settings.exportURL(for: day)?.absoluteString == "http://127.0.0.1:8080/mirror/movie_ids_03_05_2026.json.gz")
        settings.url = "http://cache.example/YYYY/MM/DD/ids.gz"
        #expect(settings.exportURL(for: day)?.absoluteString == "http://cache.example/2026/03/05/ids.gz")
        // A daemon pointed at a stand-in asks it for the exports, unless URL= says otherwise.
        let defaults = CatalogueSettings()
        #expect(defaults.following(remote: "https://api.themoviedb.org/3/").url == defaults.url)
        #expect(defaults.following(remote: "http://127.0.0.1:8123/3/").url == "http://127.0.0.1:8123/p/exports/")
        #expect(settings.following(remote: "http://127.0.0.1:8123/3/").url == settings.url)
        // The day's file is out by 08:00 UTC: before, yesterday's is the newest.
        let march5 = day.start
        #expect(CatalogueSettings.newestExportDay(at: march5.addingTimeInterval(7 * 3_600 + 3_599)).description == "2026-03-04")
        #expect(CatalogueSettings.newestExportDay(at: march5.addingTimeInterval(8 * 3_600)).description == "2026-03-05")
    }
}
