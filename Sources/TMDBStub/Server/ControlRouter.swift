import Foundation
import MoviesDomain

/// Answers the control port: `GET /faults`, `POST /faults`, `POST /reset`, `GET /stats`,
/// `GET /movies` (`{"ids":[…]}`, every movie of the catalogue, for benchmarks that pin many), the
/// change log: `GET /changes`, `POST /changes` (`{"ids":[603],"date":"2026-11-25","time":"10:13:00",
/// "keys":["title"]}`; by default today, 23:59:59, `title`), `DELETE /changes`, and the account:
/// `GET /account`, `POST /account` (`{"watchlist":[603],"favorite":[],"rated":{"550":7}}`),
/// `DELETE /account`, `POST /account/approve` (`{"request_token":"…"}` or `{}` for all),
/// `POST /account/expire-sessions` (see ``accountResponse(to:)``). `/reset` keeps the log and the account.
struct ControlRouter {
    let server: TMDBStubServer

    /// The answer to one control request.
    func response(to request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/faults"):
            return .json(server.faults.json)
        case ("POST", "/faults"):
            do {
                let faults = try server.faults.applying(jsonBody: request.body)
                try server.updateFaults(faults)
                return .json(server.faults.json)
            } catch let error as StubFaults.InvalidFaults {
                return Self.error(400, error.description)
            } catch {
                return Self.error(500, "Could not apply the faults: \(error)")
            }
        case ("POST", "/reset"):
            do {
                try server.resetFaultsAndCounters()
                return .json(server.faults.json)
            } catch {
                return Self.error(500, "Could not re-open the main port: \(error)")
            }
        case ("GET", "/stats"):
            return .json(server.statisticsJSON)
        case ("GET", "/movies"):
            return .json(.object([("ids", .array(server.catalogue.movies.map { .int($0.id) }))]))
        case ("GET", "/changes"):
            return .json(Self.json(server.changes.all))
        case ("POST", "/changes"):
            guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
                  let ids = object["ids"] as? [Int], !ids.isEmpty else {
                return Self.error(400, "The body must be a JSON object such as {\"ids\":[603],\"date\":\"2026-11-25\",\"keys\":[\"title\"]}.")
            }
            let today = CalendarDay(Date())
            guard let day = (object["date"] as? String).map(CalendarDay.init) ?? today else {
                return Self.error(400, "\"date\" must be a day such as 2026-11-25.")
            }
            let keys = object["keys"] as? [String] ?? ["title"]
            let time = object["time"] as? String ?? "23:59:59"
            guard time.split(separator: ":").compactMap({ Int($0) }).count == 3 else {
                return Self.error(400, "\"time\" must be a time of day such as 10:13:00.")
            }
            server.changes.record(ids: ids, day: day, time: time, keys: keys)
            return .json(Self.json(server.changes.all))
        case ("DELETE", "/changes"):
            server.changes.removeAll()
            return .json(.array([]))
        case ("GET", "/account"), ("POST", "/account"), ("DELETE", "/account"), ("POST", "/account/approve"),
             ("POST", "/account/expire-sessions"):
            return accountResponse(to: request)
        default:
            return Self.error(404, "Unknown control endpoint; use GET/POST /faults, POST /reset, GET /stats, GET /movies, GET/POST/DELETE /changes, "
                + "GET/POST/DELETE /account, POST /account/approve or POST /account/expire-sessions.")
        }
    }

    private static func json(_ changes: [StubChangeLog.Change]) -> JSONValue {
        .array(changes.map { change in
            .object([
                ("id", .int(change.movieID)), ("date", .string(change.day.description)), ("time", .string(change.time)),
                ("keys", .array(change.keys.map { .string($0) })),
            ])
        })
    }

    /// A control-port error: `{"error":message}` with HTTP `status`.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(.object([("error", .string(message))]), status: status)
    }
}
