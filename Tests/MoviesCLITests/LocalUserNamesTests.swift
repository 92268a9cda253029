@testable import MoviesCLI
import Testing

/// Who `--owner USER|UID` means, and the names `--all-users` shows: read through getent(1), since
/// the static `movies` cannot load glibc's NSS modules (a name `/etc/passwd` lacks crashed it).
@Suite struct LocalUserNamesTests {
    static let fake = LocalUserNames { keys in
        [(name: "alice", uid: UInt32(1001)), (name: "1002", uid: 1003)].filter { keys.contains($0.name) || keys.contains(String($0.uid)) }
    }

    @Test func aNameIsLookedUpElseANumberIsAUid() {
        #expect(Self.fake.uid(named: "alice") == 1001)
        #expect(Self.fake.uid(named: "1005") == 1005, "a uid with no name, as chown(1) takes one")
        #expect(Self.fake.uid(named: "1002") == 1003, "a user named 1002 is that user, as in chown(1)")
        #expect(Self.fake.uid(named: "1001") == 1001)
        for bad in ["", "bob", "12a", "-1", "4294967296", "١٢"] { #expect(Self.fake.uid(named: bad) == nil, "\(bad)") }
        #expect(Self.fake.names(of: [1001, 1005]) == [1001: "alice"])
        #expect(Self.fake.describe(1005) == "uid 1005")
    }

    @Test func getentAnswersForRootAndNobodyElseAndNeverCrashes() {
        let entries = GetentPasswd.entries(["root", "no-such-user-31", "0"])
        #expect(entries.map(\.name) == ["root", "root"], "root by name, then by uid; the unknown name left out")
        #expect(entries.allSatisfy { $0.uid == 0 })
        #expect(LocalUserNames.system.uid(named: "no-such-user-31") == nil)
        #expect(LocalUserNames.system.uid(named: "--help") == nil, "not an option of getent's")
        #expect(LocalUserNames.system.describe(0) == "root")
    }
}
