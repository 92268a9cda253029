/// Answers the control port: `GET /faults`, `POST /faults`, `POST /reset`, `GET /stats`.
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
        default:
            return Self.error(404, "Unknown control endpoint; use GET/POST /faults, POST /reset or GET /stats.")
        }
    }

    private static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(.object([("error", .string(message))]), status: status)
    }
}
