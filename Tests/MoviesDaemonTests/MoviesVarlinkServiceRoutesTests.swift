import Testing
@testable import MoviesDaemon
import Varlink

/// The service's routing table against the interface file: every declared method is routed, and
/// the methods the file documents as "authorised callers only" are exactly those registered so.
@Suite struct MoviesVarlinkServiceRoutesTests {
    /// Each method of the interface file, and whether its comment says it is for authorised callers.
    private static func documentedAccess() -> [String: VarlinkAccess] {
        var access: [String: VarlinkAccess] = [:]
        var comment = ""
        for line in MoviesInterface.description.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                comment += " " + line.dropFirst()
            } else if line.hasPrefix("method ") {
                let name = String(line.dropFirst(7).prefix { $0 != "(" })
                access[name] = comment.replacingOccurrences(of: "  ", with: " ").contains("authorised callers only") ? .authorized : .anyone
                comment = ""
            } else {
                comment = ""
            }
        }
        return access
    }

    @Test func everyDeclaredMethodIsRoutedAndNothingElse() {
        let router = ServiceHarness().service.router
        #expect(router.mismatchedMethods.unregistered.isEmpty)
        #expect(router.mismatchedMethods.undeclared.isEmpty)
    }

    @Test func theMethodsDocumentedForAuthorisedCallersAreTheOnesRegisteredSo() {
        let router = ServiceHarness().service.router
        let documented = Self.documentedAccess()
        #expect(documented.count == 21)
        #expect(
            documented.values.filter { $0 == .authorized }.count == 3,
            "Invalidate, Purge and UpdateCatalogue: watchlists and accounts are their owners' (issue 31)")
        for (method, access) in documented {
            #expect(router.route(method)?.access == access, "\(method)")
        }
    }

    /// Issue 41: what a method may touch is declared where it is registered, and a call names an
    /// owner only through the parameters the interface file declares for it, which its
    /// declaration must honour: `system` and `owner` for one owner's data to change, `allUsers`
    /// for what the caller may see.
    @Test func everyMethodDeclaresWhatItMayTouchAsItsParametersSay() {
        let routes = ServiceHarness().service.routes
        for (method, parameters) in InterfaceModel.movies.methods {
            let names = Set(parameters.map(\.name))
            guard let reach = routes.reaches[method] else {
                Issue.record("\(method) is registered without what it may touch")
                continue
            }
            #expect(!names.isDisjoint(with: ["system", "owner"]) == (reach == .managed), "\(method): \(reach), parameters \(names.sorted())")
            #expect(names.contains("allUsers") == false || reach == .visible, "\(method): \(reach)")
        }
        #expect(Set(routes.reaches.keys) == Set(InterfaceModel.movies.methods.map(\.name)))
    }

    @Test func refreshHasItsOwnDeadlineAndTheRestTheServers() {
        let router = ServiceHarness().service.router
        #expect(router.deadlineSeconds(forMethod: "Search") == nil)
        #expect(router.deadlineSeconds(forMethod: "Refresh") == nil)
        let settings = MoviesVarlinkService.Settings(
            version: "1", startedAt: .init(), answerDeadlineSeconds: 5, daemonUID: 0, authorizedGID: nil, refreshDeadlineSeconds: 3600)
        let service = MoviesVarlinkService(dependencies: ServiceHarness().service.dependencies, settings: settings)
        #expect(service.deadlineSeconds(forMethod: "Refresh") == 3600)
        #expect(service.deadlineSeconds(forMethod: "Status") == nil)
    }
}
