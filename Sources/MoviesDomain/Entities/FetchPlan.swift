/// What one call does with its cached entry and with TMDB, decided once from its policy, whether
/// it streams, and what the cache holds (DESIGN §4): the one rule of fetch policies. The server's
/// event loop carries out `immediate` when memory holds the entry; the loader does the rest.
public struct FetchPlan: Sendable, Hashable {
    /// What the cache holds for the call's key, as far as the plan goes.
    public enum Entry: Sendable, Hashable {
        /// Nothing usable (never stored, or corrupt).
        case missing
        /// The cache could not be read: nothing usable, and nothing known.
        case unreadable
        /// TMDB's authoritative "not found"; `stale` once its lifetime is over.
        case negative(stale: Bool)
        /// A value; `stale` past its fresh lifetime, `servable` within the max-stale bound.
        case value(stale: Bool, servable: Bool)

        /// Every entry a plan tells apart (a fresh value is always servable).
        public static let every: [Entry] = [
            .missing, .unreadable, .negative(stale: false), .negative(stale: true),
            .value(stale: false, servable: true), .value(stale: true, servable: true), .value(stale: true, servable: false),
        ]
    }

    /// A cached value answered before any work runs.
    public enum Immediate: Sendable, Hashable {
        /// The call's final reply.
        case final
        /// The first of a streaming call's replies; TMDB's answer follows.
        case first
    }

    /// When the local index of every cached movie answers a search.
    public enum LocalIndex: Sendable, Hashable {
        /// Never: the cache holds a page for the query (or the request is not a search).
        case never
        /// Only the index answers (`local_only`).
        case only
        /// When nothing else can: no page is cached and TMDB failed or may not be asked.
        case ifNothingElse
    }

    /// The cached value answered at once, if any.
    public var immediate: Immediate?
    /// A fresh negative entry: the call fails with "not found" without asking TMDB.
    public var notFound = false
    /// The cache could not be read and only the cache may answer: the read's failure is the
    /// call's answer (`cache_only`).
    public var answersWithTheReadFailure = false
    /// Whether TMDB is asked.
    public var fetches = false
    /// Whether TMDB failing or missing the answer deadline ends the call with the cached value,
    /// saying why (`remoteError`).
    public var fallsBackToCache = false
    /// When the local index answers a search.
    public var localIndex = LocalIndex.never
    /// Who asks TMDB, which decides how a retry pause applies.
    public var demand = RemoteDemand.interactive

    /// Creates a plan (the table's rows; `make` is the rule).
    public init(
        immediate: Immediate? = nil, notFound: Bool = false, answersWithTheReadFailure: Bool = false, fetches: Bool = false,
        fallsBackToCache: Bool = false, localIndex: LocalIndex = .never, demand: RemoteDemand = .interactive
    ) {
        self.immediate = immediate
        self.notFound = notFound
        self.answersWithTheReadFailure = answersWithTheReadFailure
        self.fetches = fetches
        self.fallsBackToCache = fallsBackToCache
        self.localIndex = localIndex
        self.demand = demand
    }

    /// The plan of a call with `policy` whose cache holds `entry`. `streams`: the caller takes
    /// several replies (`more`, not `oneway`). `asker`: who is asking when that is not the
    /// caller's policy to say (background work sets ``RemoteDemand/current``).
    public static func make(policy: FetchPolicy, streams: Bool, entry: Entry, asker: RemoteDemand? = nil) -> FetchPlan {
        var plan = FetchPlan(demand: demand(of: policy, asker: asker))
        let nothingCached: Bool
        switch entry {
        case .missing, .unreadable, .negative: nothingCached = true
        case .value: nothingCached = false
        }
        switch (policy, entry) {
        case (.localOnly, _):
            plan.localIndex = .only
        case (.cacheOnly, .value):
            plan.immediate = .final
        case (.cacheOnly, .negative), (.cacheThenNetwork, .negative(stale: false)), (.cacheFirst, .negative(stale: false)):
            plan.notFound = true
        case (.cacheOnly, .missing):
            plan.localIndex = .ifNothingElse
        case (.cacheOnly, .unreadable):
            plan.answersWithTheReadFailure = true
        case (.cacheFirst, .value(stale: false, _)):
            plan.immediate = .final
        case (.cacheThenNetwork, .value(_, servable: true)):
            plan.immediate = streams ? .first : nil
            plan.fetches = true
            plan.fallsBackToCache = true
        case (.cacheFirst, .value(stale: true, servable: true)):
            plan.fetches = true
            plan.fallsBackToCache = true
        case (.networkOnly, _), (.cacheThenNetwork, _), (.cacheFirst, _):
            plan.fetches = true
            plan.localIndex = nothingCached ? .ifNothingElse : .never
        }
        return plan
    }

    /// Who asks TMDB for a call with `policy`: `asker` when set (background work), else the
    /// policy's caller: `network_only` is an explicit command (`--fresh`) that tries at once,
    /// the others are users whom the cache may answer.
    public static func demand(of policy: FetchPolicy, asker: RemoteDemand? = nil) -> RemoteDemand {
        asker ?? (policy == .networkOnly ? .explicit : .interactive)
    }
}
