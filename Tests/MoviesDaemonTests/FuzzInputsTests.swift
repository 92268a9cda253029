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

    @Test func theVarlinkSeedsActAsSeveralUsers() throws {
        let users = try FuzzInputs.all("varlink").compactMap { $0.bytes.first }.map(FuzzExchange.user(selectedBy:))
        #expect(Set(users.map { $0 ?? 0 }).count == FuzzExchange.users.count, "every user of the target has a seed")
    }

    @Test func everyVarlinkInputIsAnsweredInTheProtocolAndTheConnectionClosed() async throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
        let container = try AppDIContainer(configuration: .defaults, paths: paths, credential: .none)
        let service = container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil)
        let server = container.makeServer(handlers: [service])
        let listener = try VarlinkListener.bind(path: paths.socketPath)
        // Other users connect too (the first byte picks who): the socket is everyone's.
        chmod(directory.path, 0o755)
        chmod(paths.socketPath, 0o666)
        let running = Task { try await server.run(on: listener) }
        for input in try FuzzInputs.all("varlink") where !input.bytes.isEmpty {
            // As the target: the first byte is the write size (0: all at once) and picks the user,
            // the rest is the stream.
            let chunk = input.bytes[0] == 0 ? Int.max : Int(input.bytes[0])
            let uid = FuzzExchange.user(selectedBy: input.bytes[0])
            let stream = Array(input.bytes.dropFirst())
            let replies = try await ServiceHarness.offThread {
                try FuzzExchange.run(stream, chunk: chunk, path: paths.socketPath, seconds: ProcessDeadline.seconds, as: uid)
            }
            for problem in FuzzExchange.problems(replies: replies, stream: stream, uid: uid) {
                Issue.record("\(input.name): \(problem)")
            }
            if input.name == "corpus/personal-bob", getuid() == 0 {
                // The daemon saw uid 1002 connect (SO_PEERCRED): the list is bob's.
                #expect(replies.contains { String(decoding: $0, as: UTF8.self).contains(#""owner":1002"#) }, "the uid switch did not take")
            }
            // A whole call is answered (but a oneway one); a message cut off by the close is not.
            let wholeCalls = stream.filter { $0 == 0 }.count
            #expect(wholeCalls == 0 || !replies.isEmpty || input.name.contains("oneway"), "\(input.name): no reply")
        }
        server.shutdown(gracePeriodSeconds: 0)
        _ = try? await running.value
        await container.close()
    }
}

