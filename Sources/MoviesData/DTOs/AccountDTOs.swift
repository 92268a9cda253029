import FoundationEssentials
import MoviesDomain

/// `GET /3/authentication/token/new`: `{success, expires_at: "2026-11-25 18:12:00 UTC", request_token}`.
struct RequestTokenDTO: Decodable {
    var requestToken: String
    var expiresAt: String?

    enum CodingKeys: String, CodingKey {
        case requestToken = "request_token"
        case expiresAt = "expires_at"
    }

    /// `expires_at` ("YYYY-MM-DD HH:MM:SS UTC") as a date.
    var expiryDate: Date? {
        guard let text = expiresAt else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return WireDate.parse("\(parts[0])T\(parts[1])Z")
    }
}

/// `POST /3/authentication/session/new`: `{success, session_id}`.
struct SessionDTO: Decodable {
    var sessionID: String

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
    }
}

/// `GET /3/account`: `{id, username, …}`.
struct AccountDetailsDTO: Decodable {
    var id: Int
    var username: String?
}

/// One page of `GET /3/account/{id}/{list}/movies`: `{page, results: [{id, title, release_date, rating}], total_pages}`.
struct AccountListPageDTO: Decodable {
    struct Item: Decodable {
        var id: Int
        var title: String?
        var releaseDate: String?
        var rating: Double?

        enum CodingKeys: String, CodingKey {
            case id, title, rating
            case releaseDate = "release_date"
        }
    }

    var results: [Item]
    var totalPages: Int?

    enum CodingKeys: String, CodingKey {
        case results
        case totalPages = "total_pages"
    }

    /// The page as the domain sees it (empty titles and dates as absent).
    func page(of list: AccountList) -> AccountListPage {
        let items = results.filter { $0.id > 0 }.map { item in
            AccountItem(
                movieID: item.id, title: item.title.flatMap { $0.isEmpty ? nil : $0 },
                releaseDate: item.releaseDate.flatMap { $0.isEmpty ? nil : $0 }, rating: list == .rated ? item.rating : nil)
        }
        return AccountListPage(items: items, totalPages: max(1, totalPages ?? 1))
    }
}

/// A write's answer: `{success, status_code, status_message}`.
struct AccountStatusDTO: Decodable {
    var success: Bool?
    var statusCode: Int?

    enum CodingKeys: String, CodingKey {
        case success
        case statusCode = "status_code"
    }

    /// TMDB's codes for a change it made: 1 created, 12 updated, 13 deleted (TMDB-SYNC-NOTES §2).
    static let appliedCodes: Set<Int> = [1, 12, 13]

    /// Whether the body says the change was made: `success: true`, or, without `success`, a code
    /// that means applied.
    var confirmsWrite: Bool {
        if let success { return success }
        return statusCode.map(Self.appliedCodes.contains) ?? false
    }
}
