import SystemSupport
import Foundation

/// Builds the deterministic pseudo-random part of the catalogue from a seed.
struct CatalogueGenerator {
    private var random: SeededRandomGenerator

    init(seed: UInt64) {
        random = SeededRandomGenerator(seed: seed)
    }

    /// `count` generated movies with ascending ids that avoid `reservedIDs`.
    mutating func movies(count: Int, avoiding reservedIDs: Set<Int>) -> [StubMovie] {
        var movies: [StubMovie] = []
        movies.reserveCapacity(count)
        var nextID = 30_000
        while movies.count < count {
            nextID += Int.random(in: 1...97, using: &random)
            if reservedIDs.contains(nextID) { continue }
            movies.append(movie(id: nextID))
        }
        return movies
    }

    private mutating func movie(id: Int) -> StubMovie {
        let (title, originalTitle, language) = titles()
        let year = Int.random(in: 1925...2026, using: &random)
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...28, using: &random)
        let released = random.chance(0.94)
        let releaseDate = released ? String(format: "%04d-%02d-%02d", year, month, day) : ""
        let voteCount = random.chance(0.08) ? 0 : Int.random(in: 1...30_000, using: &random)
        let voteAverage = voteCount == 0 ? 0 : (Double.random(in: 2...9.3, using: &random) * 10).rounded() / 10
        let genreCount = random.chance(0.05) ? 0 : Int.random(in: 1...3, using: &random)
        let allGenres = CatalogueWords.genreNames.keys.sorted()
        let genres = (0..<genreCount).map { _ in random.pick(allGenres, or: 18) }
        let companyCount = Int.random(in: 0...3, using: &random)
        let companies = (0..<companyCount).map { _ in company() }
        let homepageRoll = Int.random(in: 0..<3, using: &random)
        let homepage: String? = homepageRoll == 0 ? nil : homepageRoll == 1 ? "" : "https://example.org/films/\(id)"
        return StubMovie(
            id: id, title: title, originalTitle: originalTitle, originalLanguage: language,
            overview: random.chance(0.02) ? "" : overview(),
            releaseDate: releaseDate,
            posterPath: random.chance(0.12) ? nil : imagePath(),
            backdropPath: random.chance(0.25) ? nil : imagePath(),
            genreIDs: Array(Set(genres)).sorted(),
            popularity: (Double.random(in: 0.6...250, using: &random) * 1000).rounded() / 1000,
            voteAverage: voteAverage, voteCount: voteCount,
            adult: random.chance(0.01), video: random.chance(0.03),
            runtime: released ? Int.random(in: 70...190, using: &random) : 0,
            tagline: random.pick(CatalogueWords.taglines, or: ""),
            homepage: homepage,
            imdbID: random.chance(0.85) ? String(format: "tt%07d", Int.random(in: 1...9_999_999, using: &random)) : nil,
            status: released ? "Released" : random.pick(["Post Production", "In Production", "Planned"], or: "Planned"),
            budget: random.chance(0.5) ? 0 : Int.random(in: 1...250, using: &random) * 1_000_000,
            revenue: random.chance(0.5) ? 0 : Int.random(in: 1...2_000, using: &random) * 1_000_000,
            productionCompanies: companies,
            originCountry: companies.first.map { [$0.originCountry].filter { !$0.isEmpty } } ?? [],
            searchKey: ""
        )
    }

    private mutating func titles() -> (title: String, originalTitle: String, language: String) {
        let english = englishTitle()
        let roll = Double.random(in: 0..<1, using: &random)
        if roll < 0.55 { return (english, english, "en") }
        if roll < 0.75 {
            let (language, words) = random.pick(CatalogueWords.latinWithDiacritics, or: ("fr", ["Rêve"]))
            let original = phrase(from: words, separator: " ")
            return (random.chance(0.5) ? english : original, original, language)
        }
        let (language, words, separator) = random.pick(CatalogueWords.otherScripts, or: ("ru", ["Ночь"], " "))
        let original = phrase(from: words, separator: separator)
        return (random.chance(0.6) ? english : original, original, language)
    }

    private mutating func phrase(from words: [String], separator: String) -> String {
        let count = Int.random(in: 1...3, using: &random)
        return (0..<count).map { _ in random.pick(words, or: "") }.joined(separator: separator)
    }

    private mutating func englishTitle() -> String {
        let noun = random.chance(0.3)
            ? random.pick(CatalogueWords.featured, or: "Star")
            : random.pick(CatalogueWords.englishNouns, or: "River")
        let other = random.pick(CatalogueWords.englishNouns, or: "Road")
        let adjective = random.pick(CatalogueWords.englishAdjectives, or: "Last")
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return "The \(adjective) \(noun)"
        case 1: return "\(noun) of the \(other)"
        case 2: return "\(adjective) \(noun)"
        case 3: return "\(noun) \(Int.random(in: 2...4, using: &random))"
        case 4: return "\(noun)light"
        case 5: return "A \(noun) in \(other) City"
        default: return "\(noun): \(adjective) \(other)"
        }
    }

    private mutating func overview() -> String {
        var sentences = [
            "\(random.pick(CatalogueWords.overviewSubjects, or: "")) \(random.pick(CatalogueWords.overviewActions, or: ""))."
        ]
        let twists = CatalogueWords.overviewTwists.shuffled(using: &random)
        sentences += twists.prefix(Int.random(in: 2...5, using: &random))
        return sentences.joined(separator: " ")
    }

    private mutating func imagePath() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let name = String((0..<27).map { _ in random.pick(alphabet, or: "a") })
        return "/\(name).jpg"
    }

    private mutating func company() -> StubMovie.Company {
        let entry = random.pick(CatalogueWords.companies, or: (25, "20th Century Fox", "US"))
        let logo = random.chance(0.7) ? imagePath().replacingOccurrences(of: ".jpg", with: ".png") : nil
        return StubMovie.Company(id: entry.id, name: entry.name, logoPath: logo, originCountry: entry.country)
    }
}
