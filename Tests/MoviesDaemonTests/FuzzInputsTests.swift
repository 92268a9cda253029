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
            let replies = try await ServiceHarness.offThread {
                try FuzzExchange.run(stream, chunk: chunk, path: paths.socketPath, seconds: ProcessDeadline.seconds)
            }
            for problem in FuzzExchange.problems(replies: replies, stream: stream) {
                Issue.record("\(input.name): \(problem)")
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

