import FoundationEssentials
import MoviesData

/// Conversions between `StoredResponse` and rows of the `responses` table.
enum ResponseRow {
    /// Loads the entry for `key`, or `nil`. A row of an unknown resource class (written by hand
    /// or by a newer moviesd) throws, or is `nil` when `skippingUnknown`. `bodyUnlessReplyVersion`:
    /// an entry with a stored reply of that version comes without its body, which is then not
    /// read (the memory keeps the reply alone: `ResponseMemory`).
    static func load(
        key: String, from connection: SQLiteConnection, skippingUnknown: Bool = false, bodyUnlessReplyVersion: Int? = nil
    ) throws -> StoredResponse? {
        let body = bodyUnlessReplyVersion == nil ? "body" : "CASE WHEN http_status = 200 AND reply IS NOT NULL AND reply_version = ?2 THEN x'' ELSE body END"
        let statement = try connection.prepare("""
            SELECT resource, \(body), content_type, http_status, fetched_at, expires_at, etag, last_modified, reply, reply_version
            FROM responses WHERE key = ?1
            """, [.text(key)] + (bodyUnlessReplyVersion.map { [.int($0)] } ?? []))
        guard try statement.step() else { return nil }
        guard let resource = ResourceClass(rawValue: statement.text(at: 0) ?? "") else {
            if skippingUnknown { return nil }
            throw SQLiteError(reason: .sqlite, message: "a cached entry in '\(connection.path)' has an unknown resource class")
        }
        return StoredResponse(
            key: key,
            resource: resource,
            body: statement.blob(at: 1),
            contentType: statement.text(at: 2) ?? "application/octet-stream",
            httpStatus: Int(statement.int64(at: 3)),
            fetchedAt: Date(timeIntervalSince1970: statement.double(at: 4)),
            expiresAt: Date(timeIntervalSince1970: statement.double(at: 5)),
            etag: statement.text(at: 6),
            lastModified: statement.text(at: 7),
            reply: statement.isNull(at: 8) ? nil : Array(statement.blob(at: 8)),
            replyVersion: statement.isNull(at: 9) ? nil : Int(statement.int64(at: 9))
        )
    }

    /// The bytes an entry takes in the byte budget: its body and its stored reply.
    static func size(of response: StoredResponse) -> Int {
        response.body.count + (response.reply?.count ?? 0)
    }

    /// The INSERT values, in column order: key, resource, body, content_type, http_status,
    /// fetched_at, expires_at, etag, last_modified, last_access, size, reply, reply_version.
    static func values(of response: StoredResponse, lastAccess: Double) -> [SQLiteValue] {
        [
            .text(response.key), .text(response.resource.rawValue), .blob(response.body),
            .text(response.contentType), .int(response.httpStatus), .date(response.fetchedAt),
            .date(response.expiresAt), .optionalText(response.etag), .optionalText(response.lastModified),
            .real(lastAccess), .int(size(of: response)), response.reply.map { .blob(Data($0)) } ?? .null,
            response.reply == nil ? .null : response.replyVersion.map { .int($0) } ?? .null,
        ]
    }
}
