import Foundation
import Glibc
import MoviesTestSupport
import Testing
@testable import MoviesDaemon
@testable import Varlink

/// The config and varlink fuzz targets' seeds and regressions (Fuzz/config, Fuzz/varlink), replayed
/// with the targets' checks; and the varlink seeds cover every method.
@Suite struct FuzzInputsTests {
    @Test func theVarlinkSeedsCallEveryMethodOfTheInterface() throws {
        let seeds = try FuzzInputs.all("varlink").map { String(decoding: $0.bytes, as: UTF8.self) }.joined(separator: "\n")
        let methods = InterfaceDescription(text: MoviesInterface.description).methodNames
        #expect(methods.count >= 12)
        for method in methods {
            #expect(seeds.contains("\"\(MoviesInterface.name).\(method)\""), "no seed in Fuzz/varlink/corpus calls \(method)")
        }
    }

    @Test func everyConfigInputIsAcceptedOrRefusedInOneCleanLine() throws {
        let inputs = try FuzzInputs.all("config")
        #expect(inputs.contains { $0.name == "corpus/all-sections" })
        for input in inputs {
            let contents = String(decoding: input.bytes, as: UTF8.self)
            let lines = contents.unicodeScalars.filter { $0 == "\n" }.count + 1
            do {
                let file = try ConfigurationFile(contents: contents, path: "/fuzz/moviesd.conf")
                #expect(file.entries.allSatisfy { $0.line >= 1 && $0.line <= lines }, "\(input.name)")
                _ = try file.applied(to: DaemonConfiguration())
            } catch {
                #expect(error.description.hasPrefix("moviesd: /fuzz/moviesd.conf"), "\(input.name): \(error)")
                #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(input.name): \(error)")
                #expect(error.line.map { $0 >= 1 && $0 <= lines } ?? true, "\(input.name): \(error)")
            }
        }
        // The seeds that must be accepted are.
        for name in ["corpus/shipped", "corpus/all-sections", "corpus/crlf", "corpus/continuation"] {
            let input = try #require(inputs.first { $0.name == name })
            #expect(throws: Never.self, "\(name)") {
                try ConfigurationFile(contents: String(decoding: input.bytes, as: UTF8.self), path: "/fuzz/moviesd.conf").applied(to: DaemonConfiguration())
            }
        }
    }

    @Test func everyVarlinkInputIsAnsweredInTheProtocolAndTheConnectionClosed() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
        let container = try AppDIContainer(configuration: .defaults, paths: paths, credential: .none)
        let service = container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil)
        let server = container.makeServer(handlers: [service])
        let listener = try VarlinkListener.bind(path: paths.socketPath)
        let running = Task { try await server.run(on: listener) }
        for input in try FuzzInputs.all("varlink") where !input.bytes.isEmpty {
            // As the target: the first byte is the write size (0: all at once), the rest the stream.
            let chunk = input.bytes[0] == 0 ? Int.max : Int(input.bytes[0])
            let stream = Array(input.bytes.dropFirst())
            let replies = try await ServiceHarness.offThread { try FuzzExchange.run(stream, chunk: chunk, path: paths.socketPath) }
            let calls = stream.filter { $0 == 0 }.count + (stream.last == 0 || stream.isEmpty ? 0 : 1)
            var finals = 0
            for reply in replies {
                guard case .object(let members)? = try? JSONValue.parse(reply) else {
                    Issue.record("\(input.name): a reply is not a JSON object")
                    continue
                }
                #expect(Set(members.keys).isSubset(of: ["parameters", "error", "continues"]), "\(input.name): \(members.keys.sorted())")
                if let error = members["error"] {
                    #expect(error.stringValue.map(VarlinkMessage.isValidMethodName) == true, "\(input.name): \(error)")
                }
                if members["continues"] != .bool(true) { finals += 1 }
            }
            #expect(finals <= calls, "\(input.name): \(finals) final replies to \(calls) calls")
            // A whole call is answered (but a oneway one); a message cut off by the close is not.
            let wholeCalls = stream.filter { $0 == 0 }.count
            #expect(wholeCalls == 0 || !replies.isEmpty || input.name.contains("oneway"), "\(input.name): no reply")
        }
        server.shutdown(gracePeriodSeconds: 0)
        _ = try? await running.value
        await container.close()
    }
}

/// One client connection of the varlink fuzz target: writes the stream in pieces while reading,
/// half-closes, reads until the server closes (bounded by `ProcessDeadline.seconds`).
enum FuzzExchange {
    enum Failure: Error { case socket(Int32), timedOut(written: Int) }

    static func run(_ stream: [UInt8], chunk: Int, path: String) throws -> [[UInt8]] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path) else { throw Failure.socket(ENAMETOOLONG) }
        guard address.withSocketAddress({ connect(fd, $0, $1) }) == 0 else { throw Failure.socket(errno) }
        let deadline = ContinuousClock.now + .seconds(ProcessDeadline.seconds)
        var written = 0
        var halfClosed = false
        var input: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 65_536)
        while true {
            if written == stream.count, !halfClosed {
                shutdown(fd, Int32(SHUT_WR))
                halfClosed = true
            }
            guard ContinuousClock.now < deadline else { throw Failure.timedOut(written: written) }
            var request = pollfd(fd: fd, events: Int16(POLLIN) | (halfClosed ? 0 : Int16(POLLOUT)), revents: 0)
            _ = poll(&request, 1, 100)
            if request.revents & Int16(POLLOUT) != 0, !halfClosed {
                let count = min(chunk, stream.count - written)
                let sent = stream.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + written }, count, Int32(MSG_NOSIGNAL)) }
                if sent > 0 { written += sent } else if errno != EAGAIN && errno != EINTR { halfClosed = true }
            }
            if request.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    input.append(contentsOf: scratch[0..<count])
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    break
                }
            }
        }
        var replies = input.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        if replies.last?.isEmpty == true { replies.removeLast() }
        return replies
    }
}
