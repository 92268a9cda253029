import Foundation
import Glibc
@testable import MoviesDaemon
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
import Varlink

/// The interface text served by the daemon, against the `.varlink` file beside it, and the service
/// that implements it, over a real socket.
@Suite struct MoviesInterfaceTests {
    /// `Sources/MoviesDaemon/Interface/io.moviesd.Movies.varlink`, found from this file's path.
    static var interfaceFile: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/MoviesDaemon/Interface/io.moviesd.Movies.varlink")
    }

    /// The methods the description declares, in order.
    static var declaredMethods: [String] {
        MoviesInterface.description.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("method ") else { return nil }
            let rest = line.dropFirst("method ".count)
            return rest.firstIndex(of: "(").map { String(rest[..<$0]).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Parameters each known method accepts; methods added later are called without parameters
    /// (the harness may leave their dependencies out, which answers `MethodNotImplemented`).
    static let validParameters: [String: [String: JSONValue]] = [
        "Search": ["query": .string("matrix")],
        "Movie": ["id": .int(603)],
        "Poster": ["path": .string("/p1.jpg")],
        "RecentQueries": ["limit": .int(5)],
        "SaveRecentQuery": ["query": .string("matrix")],
        "Status": [:],
        "Invalidate": ["all": .bool(true)],
        "Purge": ["movieId": .int(603)],
    ]

    @Test func descriptionIsByteIdenticalToTheVarlinkFile() throws {
        let file = Array(try Data(contentsOf: MoviesInterfaceTests.interfaceFile))
        let description = Array(MoviesInterface.description.utf8)
        let identical = file == description
        let firstDifference = zip(file, description).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(file.count, description.count)
        #expect(identical, "differs from byte \(firstDifference) (file \(file.count) bytes, description \(description.count) bytes)")
    }

    @Test func descriptionUsesOnlyConstructsEveryVarlinkToolAccepts() {
        let text = MoviesInterface.description
        #expect(!text.contains("\r"))
        #expect(!text.contains("[][]"))
        #expect(!text.contains("[]?"))
        #expect(!text.contains("\t"))
        #expect(text.hasSuffix("\n"))
        #expect(text.contains("interface \(MoviesInterface.name)\n"))
    }

    /// Types, methods and errors share one namespace: systemd's parser refuses a name defined twice
    /// ("Symbol 'Movie' defined twice in interface, refusing."), and the Python client resolves a
    /// field's type to whichever symbol it finds first.
    @Test func everySymbolIsDefinedOnce() {
        let keywords = ["type ", "method ", "error "]
        let symbols: [String] = MoviesInterface.description.split(separator: "\n").compactMap { line in
            guard let keyword = keywords.first(where: { line.hasPrefix($0) }) else { return nil }
            let rest = line.dropFirst(keyword.count)
            let end = rest.firstIndex { $0 == "(" || $0 == " " } ?? rest.endIndex
            return String(rest[..<end])
        }
        #expect(symbols.count >= 20)
        let repeated = Dictionary(grouping: symbols, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "defined more than once: \(repeated)")
    }

    @Test func descriptionDeclaresTheDocumentedMethods() {
        let methods = Set(MoviesInterfaceTests.declaredMethods)
        #expect(methods.isSuperset(of: ["Search", "Movie", "Poster", "RecentQueries", "Status", "Invalidate", "Purge"]))
    }

    @Test func everyDeclaredMethodIsHandled() async throws {
        let harness = ServiceHarness()
        await harness.scriptSearch("matrix", titles: ["The Matrix"])
        let methods = MoviesInterfaceTests.declaredMethods
        #expect(methods.count >= 7)
        for method in methods {
            let outcome = await harness.call(method, MoviesInterfaceTests.validParameters[method] ?? [:])
            #expect(outcome.error?.name != "org.varlink.service.MethodNotFound", "\(method)")
            if MoviesInterfaceTests.validParameters[method] != nil {
                #expect(outcome.error?.name.hasPrefix("org.varlink.service.") != true, "\(method): \(String(describing: outcome.error))")
            }
        }
    }

    @Test func servesTheInterfaceOverARealSocket() async throws {
        let harness = ServiceHarness(daemonUID: getuid())
        await harness.scriptSearch("matrix", titles: ["The Matrix"])
        try await harness.seedSearch("alien", titles: ["Alien"])
        await harness.scriptSearch("alien", titles: ["Aliens"])

        let replies = try await harness.overARealSocket { client in
            var replies: [VarlinkReply] = []
            try client.call("org.varlink.service.GetInterfaceDescription", parameters: ["interface": .string(MoviesInterface.name)]) { replies.append($0) }
            try client.call("io.moviesd.Movies.Search", parameters: ["query": .string("matrix")]) { replies.append($0) }
            try client.call("io.moviesd.Movies.Search", parameters: ["query": .string("alien"), "policy": .string("cache_only")], more: true) { replies.append($0) }
            try client.call("io.moviesd.Movies.Search", parameters: ["query": .string("alien")], more: true) { replies.append($0) }
            try client.call("io.moviesd.Movies.Invalidate", parameters: ["query": .string("alien")]) { replies.append($0) }
            try client.call("io.moviesd.Movies.Movie", parameters: ["id": .string("x")]) { replies.append($0) }
            return replies
        }

        #expect(replies.count == 7)
        guard replies.count == 7 else { return }
        #expect(replies[0].parameters["description"]?.stringValue == MoviesInterface.description)
        let search = try WireCoding.decode(SearchReply.self, from: Array(replies[1].parameters.serialized()))
        #expect(search.page.movies.map(\.title) == ["The Matrix"])
        #expect(search.freshness.origin == .network)
        #expect(replies[1].error == nil && !replies[1].continues)
        #expect(replies[2].parameters["freshness"]?["origin"] == .string("cache"))
        #expect(!replies[2].continues)
        #expect(replies[3].continues)
        #expect(replies[3].parameters["page"]?["movies"]?.arrayValue?.first?["title"] == .string("Alien"))
        #expect(!replies[4].continues)
        #expect(replies[4].parameters["page"]?["movies"]?.arrayValue?.first?["title"] == .string("Aliens"))
        #expect(replies[5].error == nil)
        #expect(replies[5].parameters["entries"] == .int(1))
        #expect(replies[6].error == "org.varlink.service.InvalidParameter")
        #expect(replies[6].parameters["parameter"] == .string("id"))
    }
}
