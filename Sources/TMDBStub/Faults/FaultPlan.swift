/// The faults drawn for one request from the current ``StubFaults`` shares.
struct FaultPlan {
    var hang: Bool
    var reset: Bool
    var rateLimited: Bool
    var serverError: Bool
    var malformedJSON: Bool
    var truncateBody: Bool
    /// Apply the account write, then close with a TCP RST instead of answering.
    var dropAfterApply: Bool
    /// Answer the account write `200` with an unreadable body, without applying it.
    var unreadableWrite: Bool
    var retryAfter: Int

    /// Rolls each fault independently with its share. `route` is the request's account route, if
    /// any: only writes can be dropped after applying, and with `writesOnly` (`listsOnly`) only
    /// writes (list reads) can hang, be reset, rate-limited or answered 500.
    init(faults: StubFaults, route: AccountRoute? = nil) {
        func roll(_ share: Double) -> Bool { share > 0 && Double.random(in: 0..<1) < share }
        let isAccountWrite = route?.isWrite ?? false
        let isListRead = if case .list? = route { true } else { false }
        let aimed = (!faults.writesOnly && !faults.listsOnly) || (faults.writesOnly && isAccountWrite) || (faults.listsOnly && isListRead)
        hang = aimed && roll(faults.hang)
        reset = aimed && roll(faults.reset)
        rateLimited = aimed && roll(faults.rateLimit.share)
        serverError = aimed && roll(faults.errorRate)
        malformedJSON = roll(faults.malformedJSON)
        truncateBody = roll(faults.truncateBody)
        dropAfterApply = isAccountWrite && roll(faults.dropAfterApply)
        unreadableWrite = isAccountWrite && roll(faults.unreadableWrites)
        retryAfter = faults.rateLimit.retryAfter
    }

    /// The 429 or 500 answer replacing the real one, if one was drawn.
    var injectedResponse: HTTPResponse? {
        if rateLimited {
            var response = HTTPResponse.tmdbError(status: 429, code: 25, message: "Your request count (#) is over the allowed limit of (40).")
            response.headers.append(("Retry-After", String(retryAfter)))
            return response
        }
        if serverError {
            return .tmdbError(status: 500, code: 11, message: "Internal error: Something went wrong, contact TMDB.")
        }
        if unreadableWrite {
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html><body>Request accepted</body></html>".utf8))
        }
        return nil
    }

    /// Breaks a 200 JSON body, and/or announces more bytes than are sent, as drawn.
    func corrupt(_ response: inout HTTPResponse) {
        let isJSON = response.header("Content-Type")?.hasPrefix("application/json") ?? false
        if malformedJSON, response.status == 200, isJSON {
            response.body = Array(response.body.prefix(response.body.count / 2)) + Array("\",,{<!-- broken".utf8)
        }
        if truncateBody, response.status != 304, !response.body.isEmpty {
            response.announcedLength = response.body.count
            response.body = Array(response.body.prefix(response.body.count / 2))
        }
    }
}
