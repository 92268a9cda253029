import Glibc

/// One method call received by a server, as handed to a ``VarlinkInterfaceHandler``.
public struct VarlinkCall: Sendable {
    /// The fully qualified method, e.g. `io.moviesd.Movies.Search`.
    public let method: String
    /// The interface part of ``method``, e.g. `io.moviesd.Movies` (made when asked for; see
    /// ``isIn(interface:)``).
    public var interface: String { String(method[..<interfaceEnd]) }
    /// The method part of ``method``, e.g. `Search`.
    public let methodName: String
    /// Where ``interface`` ends in ``method`` (at its last dot).
    private let interfaceEnd: String.Index
    /// The call's parameters as the message wrote them, in its order (a repeated name each time;
    /// the last one counts). A call has a few: reading one (``parameter(_:)``) is a scan, and
    /// no hash table is built for a call answered from memory.
    public private(set) var parameterList: [JSONMember]
    /// Whether the caller asked for a stream of replies (`more: true`).
    public var more: Bool
    /// Whether the caller wants no reply at all (`oneway: true`).
    public var oneway: Bool
    /// The credentials of the process on the other end of the connection (`SO_PEERCRED`).
    public var peer: PeerCredentials?
    /// Whether the server already sent this `more` call's first reply, the one
    /// ``VarlinkInterfaceHandler/answerAtOnce(_:)`` prepared with `continues`: the handler sends
    /// only what follows it.
    public var firstReplySent = false
    /// What the method's stage on the event loop worked out for the call's task (its parameters
    /// as read, the entry it looked up, its plan), so the task does not do it again; empty for a
    /// call that did not pass that stage.
    public let carried = VarlinkCarried()

    /// Creates a call; `method` is split at its last dot into ``interface`` and ``methodName``.
    public init(method: String, parameters: [String: JSONValue] = [:], more: Bool = false, oneway: Bool = false, peer: PeerCredentials? = nil) {
        self.init(method: method, parameterList: parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, more: more, oneway: oneway, peer: peer)
    }

    /// Creates a call with its parameters as written (see ``parameterList``).
    public init(method: String, parameterList: [JSONMember], more: Bool = false, oneway: Bool = false, peer: PeerCredentials? = nil) {
        self.method = method
        // On the UTF-8 view: an ASCII dot's index is a character boundary, and no `Character` is formed.
        if let dot = method.utf8.lastIndex(of: UInt8(ascii: ".")) {
            interfaceEnd = dot
            methodName = String(method[method.utf8.index(after: dot)...])
        } else {
            interfaceEnd = method.startIndex
            methodName = method
        }
        self.parameterList = parameterList
        self.more = more
        self.oneway = oneway
        self.peer = peer
    }

    /// Whether the call is to a method of the interface `name` (compared in place: no string is made).
    public func isIn(interface name: String) -> Bool {
        let length = method.utf8.distance(from: method.startIndex, to: interfaceEnd)
        guard name.utf8.count == length else { return false }
        return method.utf8.withContiguousStorageIfAvailable { own in
            name.utf8.withContiguousStorageIfAvailable { other in
                guard let own = own.baseAddress, let other = other.baseAddress else { return length == 0 }
                return memcmp(own, other, length) == 0
            }
        }.flatMap { $0 } ?? method.utf8[..<interfaceEnd].elementsEqual(name.utf8)
    }

    /// The parameter named `name` (the last one, when the message repeats it), `nil` when absent.
    public func parameter(_ name: String) -> JSONValue? {
        parameterList.last { $0.name == name }?.value
    }

    /// The parameters by name (the last of a repeated one).
    public var parameters: [String: JSONValue] {
        Dictionary(parameterList.lazy.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
