import Synchronization
import Testing
@testable import Varlink

/// The router: parameters checked against the interface file, access levels, middleware order,
/// per-method deadlines, and a fast path that never skips a check.
@Suite struct VarlinkRouterTests {
    static let description = """
        interface org.example.routed
        method Read(text: string, page: ?int) -> (text: string)
        method Change(name: string) -> ()
        method Declared() -> ()
        """
    static let member = PeerCredentials(pid: 1, uid: 1000, gid: 1000)
    static let stranger = PeerCredentials(pid: 2, uid: 2000, gid: 2000)

    /// Names the calls that reached the method or a middleware, in order.
    final class Trace: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    struct Tag: VarlinkEventLoopMiddleware {
        let name: String
        let trace: Trace
        func handle(_ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder) async throws(VarlinkError) -> [String: JSONValue] {
            trace.add("\(name):\(route.method)")
            return try await next(call, replies)
        }
        func answerAtOnce(_ call: VarlinkCall, route: VarlinkRoute, next: (VarlinkCall) -> VarlinkPreparedReply?) -> VarlinkPreparedReply? {
            trace.add("\(name) at once:\(route.method)")
            return next(call)
        }
    }

    private func router(_ trace: Trace) -> VarlinkRouter {
        var router = VarlinkRouter(interfaceName: "org.example.routed", interfaceDescription: Self.description) { peer in
            peer?.uid == Self.member.uid
        }
        router.add(Tag(name: "first", trace: trace))
        router.add(Tag(name: "second", trace: trace))
        router.on("Read", access: .anyone, answerAtOnce: { call in
            call.parameters["text"]?.stringValue == "remembered" ? VarlinkPreparedReply(parameters: ["text": .string("at once")]) : nil
        }) { call, _ throws(VarlinkError) in
            trace.add("Read")
            return ["text": call.parameters["text"] ?? .null]
        }
        router.on("Change", access: .authorized, deadlineSeconds: 7, answerAtOnce: { _ in VarlinkPreparedReply(parameters: [:]) }) { _, _ throws(VarlinkError) in
            trace.add("Change")
            return [:]
        }
        return router
    }

    private func call(_ router: VarlinkRouter, _ method: String, _ parameters: [String: JSONValue], peer: PeerCredentials? = member) async -> Result<[String: JSONValue], VarlinkError> {
        let call = VarlinkCall(method: "org.example.routed.\(method)", parameters: parameters, peer: peer)
        do throws(VarlinkError) {
            return .success(try await router.handle(call, replies: VarlinkReplyWriter(isStreaming: false) { _ in }))
        } catch {
            return .failure(error)
        }
    }

    @Test func aCallRunsTheMiddlewareInOrderThenTheMethod() async {
        let trace = Trace()
        #expect(await call(router(trace), "Read", ["text": .string("hi")]) == .success(["text": .string("hi")]))
        #expect(trace.all == ["first:Read", "second:Read", "Read"])
    }

    @Test func parametersTheInterfaceDoesNotDeclareOrLacksAreRefusedBeforeAnyMiddleware() async {
        let trace = Trace()
        let router = router(trace)
        #expect(await call(router, "Read", ["text": .string("hi"), "zebra": .int(1)]) == .failure(.invalidParameter("zebra")))
        #expect(await call(router, "Read", ["page": .int(2)]) == .failure(.invalidParameter("text")))
        #expect(await call(router, "Read", ["text": .null]) == .failure(.invalidParameter("text")))
        #expect(await call(router, "Read", ["text": .string("hi"), "page": .null]) == .success(["text": .string("hi")]))
        #expect(trace.all == ["first:Read", "second:Read", "Read"])
    }

    @Test func anAuthorizedMethodRunsOnlyForPeersTheRouterAdmits() async {
        let trace = Trace()
        let router = router(trace)
        #expect(await call(router, "Change", ["name": .string("x")], peer: Self.stranger) == .failure(.permissionDenied))
        #expect(await call(router, "Change", ["name": .string("x")], peer: nil) == .failure(.permissionDenied))
        #expect(trace.all.isEmpty)
        #expect(await call(router, "Change", ["name": .string("x")]) == .success([:]))
        #expect(await call(router, "Read", ["text": .string("open")], peer: Self.stranger) == .success(["text": .string("open")]))
        #expect(trace.all == ["first:Change", "second:Change", "Change", "first:Read", "second:Read", "Read"])
    }

    @Test func anAnswerFromMemoryPassesTheSameChecksAndMiddlewareAsATask() {
        let trace = Trace()
        let router = router(trace)
        let remembered = VarlinkCall(method: "org.example.routed.Read", parameters: ["text": .string("remembered")], peer: Self.stranger)
        #expect(router.answerAtOnce(remembered) != nil)
        #expect(trace.all == ["first at once:Read", "second at once:Read"], "every middleware saw the answer from memory, in order")
        let unknown = VarlinkCall(method: remembered.method, parameters: ["text": .string("remembered"), "zebra": .int(1)], peer: Self.stranger)
        #expect(router.answerAtOnce(unknown) == nil, "a parameter the interface does not declare: the task replies with the error")
        // Registered with an answer from memory, authorised callers only: at once for them alone.
        let change = VarlinkCall(method: "org.example.routed.Change", parameters: ["name": .string("x")], peer: Self.stranger)
        #expect(router.answerAtOnce(change) == nil)
        var admitted = change
        admitted.peer = Self.member
        #expect(router.answerAtOnce(admitted) != nil)
        #expect(trace.all.count == 4, "refused calls never reach the middleware after the checks")
    }

    /// A middleware that runs in the call's task only (a rate limit, say): it does not declare it
    /// can run on the event loop.
    struct TaskOnly: VarlinkMiddleware {
        let trace: Trace
        func handle(_ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder) async throws(VarlinkError) -> [String: JSONValue] {
            trace.add("task only:\(route.method)")
            return try await next(call, replies)
        }
    }

    @Test func aMiddlewareThatCannotRunOnTheEventLoopIsNeverSkipped() async {
        let trace = Trace()
        var router = VarlinkRouter(interfaceName: "org.example.routed", interfaceDescription: Self.description) { _ in true }
        router.add(TaskOnly(trace: trace))
        router.add(Tag(name: "after", trace: trace))
        router.on("Read", access: .anyone, answerAtOnce: { _ in VarlinkPreparedReply(parameters: ["text": .string("from memory")]) }) { call, _ throws(VarlinkError) in
            trace.add("Read")
            return ["text": call.parameters["text"] ?? .null]
        }
        let remembered = VarlinkCall(method: "org.example.routed.Read", parameters: ["text": .string("remembered")], peer: Self.member)
        #expect(router.answerAtOnce(remembered) == nil, "memory could answer, but the middleware runs only in tasks: the call goes to its task")
        #expect(trace.all.isEmpty, "nothing ran on the event loop")
        #expect(await call(router, "Read", ["text": .string("remembered")]) == .success(["text": .string("remembered")]))
        #expect(trace.all == ["task only:Read", "after:Read", "Read"], "the middleware saw the call, in its task, and the call got its answer")
    }

    @Test func eachMethodHasItsOwnDeadlineOrTheServers() {
        let router = router(Trace())
        #expect(router.deadlineSeconds(forMethod: "Change") == 7)
        #expect(router.deadlineSeconds(forMethod: "Read") == nil)
        #expect(router.route("Change")?.access == .authorized)
    }

    @Test func aDeclaredMethodWithNoRouteIsNotImplementedAndIsReported() async {
        var router = router(Trace())
        #expect(await call(router, "Declared", [:]) == .failure(.methodNotImplemented("org.example.routed.Declared")))
        #expect(await call(router, "Teleport", [:]) == .failure(.methodNotFound("org.example.routed.Teleport")))
        router.on("Extra", access: .anyone) { _, _ throws(VarlinkError) in [:] }
        #expect(router.mismatchedMethods.unregistered == ["Declared"])
        #expect(router.mismatchedMethods.undeclared == ["Extra"])
    }
}
