import Foundation
import Glibc

extension TMDBStubServer {
    /// Starts the thread that accepts connections on `role`'s port until the server stops.
    ///
    /// The listening socket may be closed and re-opened under it (the `down` fault), so it polls with a
    /// short timeout and accepts only while holding the lock and only if the socket is still current.
    func startAcceptLoop(role: ServerState.Role) {
        let thread = Thread { [self] in
            while let listener = currentListener(role: role) {
                guard listener >= 0 else {
                    usleep(20_000)
                    continue
                }
                guard TCPSocket.waitReadable(listener, milliseconds: 50) else { continue }
                if let connection = acceptIfCurrent(listener, role: role) {
                    startConnection(connection, role: role)
                }
            }
        }
        thread.name = "tmdb-stub accept"
        thread.start()
    }

    /// The listening socket for `role`, -1 while it is down, nil once the server has stopped.
    private func currentListener(role: ServerState.Role) -> Int32? {
        state.withLock { state in
            guard state.isRunning else { return nil }
            return state.listener(for: role) ?? -1
        }
    }

    private func acceptIfCurrent(_ listener: Int32, role: ServerState.Role) -> Int32? {
        let limit = configuration.maxConnections
        return state.withLock { state in
            guard state.isRunning, state.listener(for: role) == listener,
                  let connection = TCPSocket.acceptPending(listener) else { return nil }
            guard state.connections.count < limit else {
                close(connection)
                return nil
            }
            state.connections[connection] = role
            return connection
        }
    }

    private func startConnection(_ fd: Int32, role: ServerState.Role) {
        let thread = Thread { [self] in
            let ending = serveConnection(fd, role: role)
            state.withLock { _ = $0.connections.removeValue(forKey: fd) }
            switch ending {
            case .close: close(fd)
            case .reset: TCPSocket.reset(fd)
            }
        }
        thread.name = "tmdb-stub connection"
        thread.start()
    }
}
