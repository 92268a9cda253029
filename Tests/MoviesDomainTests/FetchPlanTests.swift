import MoviesDomain
import Testing

/// The one rule of fetch policies, as a table: every policy × every entry × streaming or not
/// (enumerated from the source, so a new policy or entry fails here until it has its rows).
@Suite struct FetchPlanTests {
    /// One row: what a call does. `i`: immediate (`F`inal, f`I`rst, `-`); `n`: not found; `r`:
    /// the read failure answers; `f`: fetches; `b`: falls back to the cache; `l`: local index
    /// (`-` never, `o`nly, `e`lse).
    static func row(_ text: String) -> FetchPlan {
        let parts = Array(text)
        var plan = FetchPlan()
        plan.immediate = parts[0] == "F" ? .final : parts[0] == "I" ? .first : nil
        plan.notFound = parts[1] == "n"
        plan.answersWithTheReadFailure = parts[2] == "r"
        plan.fetches = parts[3] == "f"
        plan.fallsBackToCache = parts[4] == "b"
        plan.localIndex = parts[5] == "o" ? .only : parts[5] == "e" ? .ifNothingElse : .never
        return plan
    }

    /// The expected rows by policy and entry; `streams` changes only the default policy's
    /// servable value (`I` streaming, `-` not).
    static func expected(_ policy: FetchPolicy, _ entry: FetchPlan.Entry, streams: Bool) -> String {
        switch (policy, entry) {
        // cache_only: whatever is cached, however old; never TMDB.
        case (.cacheOnly, .missing): "-----e"
        case (.cacheOnly, .unreadable): "--r---"
        case (.cacheOnly, .negative): "-n----"
        case (.cacheOnly, .value): "F-----"
        // local_only: the index alone.
        case (.localOnly, _): "-----o"
        // network_only: TMDB; the index only when no page is cached.
        case (.networkOnly, .value): "---f--"
        case (.networkOnly, _): "---f-e"
        // cache_then_network: the servable value first (streaming), TMDB next, the value if TMDB fails.
        case (.cacheThenNetwork, .negative(stale: false)), (.cacheFirst, .negative(stale: false)): "-n----"
        case (.cacheThenNetwork, .value(_, servable: true)): streams ? "I--fb-" : "---fb-"
        case (.cacheThenNetwork, .value(_, servable: false)), (.cacheFirst, .value(_, servable: false)): "---f--"
        // cache_first: a fresh value is the answer; a stale one only if TMDB fails.
        case (.cacheFirst, .value(stale: false, _)): "F-----"
        case (.cacheFirst, .value(stale: true, servable: true)): "---fb-"
        case (.cacheThenNetwork, _), (.cacheFirst, _): "---f-e"
        }
    }

    @Test(arguments: FetchPolicy.allCases)
    func everyEntryOfEveryPolicyHasItsRow(policy: FetchPolicy) {
        for entry in FetchPlan.Entry.every {
            for streams in [false, true] {
                var want = Self.row(Self.expected(policy, entry, streams: streams))
                want.demand = policy == .networkOnly ? .explicit : .interactive
                #expect(FetchPlan.make(policy: policy, streams: streams, entry: entry) == want, "\(policy) \(entry) streams: \(streams)")
            }
        }
    }

    @Test func backgroundWorkAsksAsBackgroundWhateverItsPolicy() {
        for policy in FetchPolicy.allCases {
            #expect(FetchPlan.make(policy: policy, streams: false, entry: .missing, asker: .background).demand == .background)
        }
    }

    @Test func onlyTheDefaultPolicyIsAskedForStreaming() {
        #expect(FetchPolicy.allCases.filter(\.streamsReplies) == [.cacheThenNetwork])
        #expect(FetchPolicy.allCases.filter(\.asksTMDB) == [.cacheThenNetwork, .cacheFirst, .networkOnly])
        #expect(FetchPolicy.allCases.filter(\.fallsBackToCache) == [.cacheThenNetwork, .cacheFirst])
    }
}
