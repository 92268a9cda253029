import Foundation
import MoviesTestSupport
import Testing

/// Checks the shipped systemd units (`systemd/`) and the cron example (`etc/cron.d/`):
/// `systemd-analyze verify` is silent on each unit, the daemon's sandbox scores 1.2 or lower in
/// `systemd-analyze security` (1.0 booted on systemd 257, with moviesd-generator's drop-in), and the
/// settings the daemon and client rely on are present.
/// The units as booted are tested by `scripts/test-systemd` (Debian 12 and 13 containers).
///
/// `systemd-analyze` runs only where it is installed; without it these tests are skipped, except
/// with `CI=true`, where they fail. `verify` insists that each `ExecStart=` binary exists, so it runs
/// on a temporary copy whose `/usr/sbin/…` and `/usr/bin/…` paths (where the package installs them)
/// point at the built binaries in `$MOVIESD_BIN_DIR` when set, else at `true(1)`; nothing else in the
/// units is changed. It runs with `--man=no`: the `Documentation=` man pages are checked against `man/`.
@Suite("systemd units and cron example", .blocksThreads)
struct SystemdUnitTests {
    static let unitNames = ["moviesd.service", "moviesd.socket", "movies-refresh.service", "movies-refresh.timer"]
    static let daemonPath = "/usr/sbin/moviesd"
    static let clientPath = "/usr/bin/movies"
    static let installPrefixes = ["/usr/sbin/", "/usr/bin/"]
    static let socketPath = "/run/moviesd/io.moviesd.Movies"

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    static let unitDirectory = repositoryRoot.appendingPathComponent("systemd")

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
    /// The `systemd-analyze` executable, searched in `$PATH` and the usual directories.
    static var analyzer: String? {
        let pathDirectories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (pathDirectories + ["/usr/bin", "/bin", "/usr/sbin"])
            .map { "\($0)/systemd-analyze" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    /// Run the analyzer tests where it exists, and in CI always (they then fail if it is missing).
    static var runsAnalyzer: Bool { analyzer != nil || isCI }

    static func requireAnalyzer() throws -> String {
        try #require(analyzer, "systemd-analyze is not installed, and CI=true requires these checks")
    }

    // MARK: systemd-analyze

    @Test("systemd-analyze verify prints nothing", .enabled(if: runsAnalyzer, "systemd-analyze is not installed"),
          arguments: unitNames)
    func verifyIsSilent(unit: String) throws {
        let analyzer = try Self.requireAnalyzer()
        let copy = try Self.copyUnitsWithExistingBinaries()
        defer { try? FileManager.default.removeItem(at: copy) }

        let result = try Self.run(analyzer, ["verify", "--no-pager", "--man=no", copy.appendingPathComponent(unit).path])

        #expect(result.output == "", "systemd-analyze verify \(unit) printed:\n\(result.output)")
        #expect(result.status == 0)
    }

    @Test("sandbox exposure is 1.2 or lower", .enabled(if: runsAnalyzer, "systemd-analyze is not installed"),
          arguments: ["moviesd.service", "movies-refresh.service"])
    func securityExposureIsLow(unit: String) throws {
        let analyzer = try Self.requireAnalyzer()
        let path = Self.unitDirectory.appendingPathComponent(unit).path

        let result = try Self.run(analyzer, ["security", "--offline=yes", "--no-pager", path])

        #expect(result.status == 0, "\(result.output)")
        let match = try #require(result.output.firstMatch(of: /Overall exposure level for \S+: (\d+\.\d+)/),
                                 "no overall exposure in:\n\(result.output)")
        let exposure = try #require(Double(String(match.output.1)))
        #expect(exposure <= 1.2, "systemd-analyze security --offline=yes \(path): \(exposure)")
    }

    // MARK: unit contents

    @Test("moviesd.service is a notify daemon with a watchdog and no user namespace")
    func daemonServiceSettings() throws {
        let service = try UnitFile(named: "moviesd.service")

        #expect(service.values("Service", "Type") == ["notify"])
        #expect(service.values("Service", "NotifyAccess") == ["main"])
        #expect(service.values("Service", "WatchdogSec") == ["30"])
        #expect(service.values("Service", "Restart") == ["on-failure"])
        // PrivateUsers=yes maps every client to nobody and breaks SO_PEERCRED authorization; the
        // identity mapping, which keeps them, comes from moviesd-generator where systemd has it.
        #expect(service.values("Service", "PrivateUsers").isEmpty)
        #expect(service.values("Service", "PrivateNetwork").isEmpty)
        #expect(service.values("Service", "LoadCredential") == ["tmdb-token:/etc/moviesd/tmdb-token", "tmdb-session:/etc/moviesd/tmdb-session"])
        #expect(service.values("Service", "RestrictAddressFamilies") == ["AF_UNIX AF_INET AF_INET6"])
        let execStart = try #require(service.values("Service", "ExecStart").first)
        #expect(execStart.hasPrefix(Self.daemonPath + " "))
        #expect(execStart.contains("--config /etc/moviesd/moviesd.conf"))
        #expect(execStart.contains("--socket \(Self.socketPath)"))
    }

    @Test("moviesd.service runs as the static user, always socket-activated, and does not loop")
    func daemonUserAndRestartPolicy() throws {
        let service = try UnitFile(named: "moviesd.service")
        let sysusers = try String(contentsOf: Self.unitDirectory.appendingPathComponent("moviesd.sysusers"), encoding: .utf8)

        // A static user from sysusers.d: DynamicUser= with RuntimeDirectoryPreserve= moves /run/moviesd
        // into the 0700 /run/private, and a RuntimeDirectory= would be the daemon's, not root's.
        #expect(service.values("Service", "User") == ["moviesd"])
        #expect(service.values("Service", "Group") == ["moviesd"])
        #expect(sysusers.split(separator: "\n").contains { $0.hasPrefix("u moviesd ") })
        #expect(service.values("Service", "DynamicUser").isEmpty)
        #expect(service.values("Service", "RuntimeDirectory").isEmpty)
        #expect(service.values("Service", "StateDirectory") == ["moviesd"])
        #expect(service.values("Unit", "Requires") == ["moviesd.socket"])
        // Usage, cannot-create and configuration errors end the service instead of restarting it.
        let prevented = Set(service.values("Service", "RestartPreventExitStatus").flatMap { $0.split(separator: " ").map(String.init) })
        #expect(prevented.isSuperset(of: ["64", "73", "78"]))
        let burst = try #require(service.values("Unit", "StartLimitBurst").first.flatMap { Int($0) })
        let interval = try #require(service.values("Unit", "StartLimitIntervalSec").first.flatMap { Int($0) })
        let restartSec = try #require(service.values("Service", "RestartSec").first.flatMap { Int($0.replacingOccurrences(of: "s", with: "")) })
        #expect(burst * restartSec < interval, "\(burst) restarts every \(restartSec) s slip under a \(interval) s start limit")
        // An administrator's restarts in a row must not reach it: hitting it fails moviesd.socket too.
        #expect(burst >= 10, "\(burst) starts in \(interval) s: a few `systemctl restart moviesd` would fail the socket")
    }

    /// The address allow list keeps every unicast range a resolver, TMDB or the fleet's shared cache
    /// may be on, and closes link-local (clouds' instance metadata), multicast and reserved ranges.
    @Test(arguments: [
        ("8.8.8.8", true), ("1.1.1.1", true), ("127.0.0.53", true), ("10.0.0.2", true), ("172.16.0.1", true),
        ("192.168.1.1", true), ("100.64.0.1", true), ("169.253.255.255", true), ("169.255.0.1", true),
        ("223.255.255.255", true), ("2606:4700::1111", true), ("::1", true), ("fd00::1", true), ("64:ff9b::808:808", true),
        ("169.254.169.254", false), ("169.254.0.1", false), ("0.0.0.0", false), ("224.0.0.251", false),
        ("239.255.255.250", false), ("255.255.255.255", false), ("fe80::1", false), ("ff02::fb", false), ("::", false),
    ])
    func ipAddressAllowListCoversUnicastOnly(address: String, allowed: Bool) throws {
        let service = try UnitFile(named: "moviesd.service")
        #expect(service.values("Service", "IPAddressDeny") == ["any"])
        let prefixes = service.values("Service", "IPAddressAllow").flatMap { $0.split(separator: " ").map(String.init) }
            .flatMap { $0 == "localhost" ? ["127.0.0.0/8", "::1/128"] : [$0] }
        let matching = try prefixes.filter { try AddressPrefix($0).contains(address) }
        #expect(!matching.isEmpty == allowed, "\(address): \(matching)")
    }

    /// The generator writes PrivateUsers=identity for systemd 257 and later, and nothing for 252,
    /// which does not know the value (and would warn about it).
    @Test(arguments: [("systemd 252 (252.39-1~deb12u2)", false), ("systemd 257 (257.9-1~deb13u1)", true), ("systemd 260 (260)", true)])
    func theGeneratorWritesTheIdentityMappingWhereSystemdHasIt(version: String, writes: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-generator-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("systemctl")
        try "#!/bin/sh\necho '\(version)'\necho '+PAM +AUDIT'\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let output = directory.appendingPathComponent("normal")
        let result = try ProcessRunner.run(
            "/bin/sh", [Self.unitDirectory.appendingPathComponent("moviesd-generator").path, output.path, output.path, output.path],
            environment: ["PATH": bin.path + ":/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        let dropIn = output.appendingPathComponent("moviesd.service.d/50-private-users.conf")
        let text = try? String(contentsOf: dropIn, encoding: .utf8)
        #expect((text?.contains("\nPrivateUsers=identity\n") ?? false) == writes, "\(version): \(text ?? "no drop-in")")
    }

    @Test("Documentation= names man pages that are in man/")
    func documentationManPagesExist() throws {
        for unit in Self.unitNames {
            for value in try UnitFile(named: unit).values("Unit", "Documentation") {
                for page in value.split(separator: " ") where page.hasPrefix("man:") {
                    let match = try #require(page.firstMatch(of: /man:([a-z.-]+)\((\d)\)/), "\(unit): \(page)")
                    let file = Self.repositoryRoot.appendingPathComponent("man/\(match.output.1).\(match.output.2)").path
                    #expect(FileManager.default.fileExists(atPath: file), "\(unit): \(page) is not in man/")
                }
            }
        }
    }

    @Test("moviesd.socket listens where the daemon and client expect, open to every user")
    func socketSettings() throws {
        let socket = try UnitFile(named: "moviesd.socket")

        #expect(socket.values("Socket", "ListenStream") == [Self.socketPath])
        #expect(socket.values("Socket", "SocketMode") == ["0666"])
        // Every user must be able to reach the socket through its directory.
        #expect(socket.values("Socket", "DirectoryMode") == ["0755"])
        #expect(socket.values("Install", "WantedBy") == ["sockets.target"])
        // A daemon that cannot start is not started again by waiting clients more than a few times.
        let burst = try #require(socket.values("Socket", "TriggerLimitBurst").first.flatMap { Int($0) })
        #expect(burst <= 5)
    }

    @Test("movies-refresh.timer is persistent and randomized")
    func timerSettings() throws {
        let timer = try UnitFile(named: "movies-refresh.timer")

        #expect(timer.values("Timer", "Persistent") == ["true"])
        let delay = try #require(timer.values("Timer", "RandomizedDelaySec").first)
        #expect(!delay.isEmpty && delay != "0")
        #expect(!timer.values("Timer", "OnCalendar").isEmpty)
        #expect(timer.values("Install", "WantedBy") == ["timers.target"])
    }

    @Test("movies-refresh.service runs the quiet client as the daemon's own user")
    func refreshServiceSettings() throws {
        let refresh = try UnitFile(named: "movies-refresh.service")
        let daemon = try UnitFile(named: "moviesd.service")

        #expect(refresh.values("Service", "Type") == ["oneshot"])
        #expect(refresh.values("Service", "ExecStart") == [Self.clientPath + " refresh --quiet"])
        // TMDB unreachable (75) leaves the cache as it was: not a failure of the timer.
        #expect(refresh.values("Service", "SuccessExitStatus") == ["75"])
        #expect(refresh.values("Service", "RestrictAddressFamilies") == ["AF_UNIX"])
        // Refresh is a mutating call: the daemon allows it to its own uid, the static user both units name.
        let user = try #require(daemon.values("Service", "User").first)
        #expect(refresh.values("Service", "User") == [user])
        #expect(refresh.values("Service", "DynamicUser").isEmpty)
    }

    @Test("cron example runs the quiet refresh")
    func cronExample() throws {
        let text = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("etc/cron.d/movies-refresh"), encoding: .utf8)
        let jobs = text.split(separator: "\n").filter { line in
            !line.hasPrefix("#") && line.split(separator: " ").count > 5 && !line.contains("=")
        }

        #expect(jobs.count == 1)
        // As the daemon's user, which may call Refresh.
        #expect(jobs.first?.hasSuffix(" moviesd movies refresh --quiet") == true)
        #expect(text.hasSuffix("\n"), "cron ignores a last line without a newline")
    }

    // MARK: helpers

    /// Copies every unit into a new temporary directory, pointing each `ExecStart=` binary under
    /// ``installPrefixes`` at an executable that exists here.
    static func copyUnitsWithExistingBinaries() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("systemd-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for unit in unitNames {
            let text = try String(contentsOf: unitDirectory.appendingPathComponent(unit), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                guard installPrefixes.contains(where: { line.hasPrefix("ExecStart=" + $0) }) else { return String(line) }
                let command = line.dropFirst("ExecStart=".count)
                let binary = command.prefix { $0 != " " }
                return "ExecStart=" + existingBinary(for: String(binary)) + command.dropFirst(binary.count)
            }
            try lines.joined(separator: "\n").write(to: directory.appendingPathComponent(unit), atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// The built binary of the same name in `$MOVIESD_BIN_DIR`, else `true(1)`.
    static func existingBinary(for installedPath: String) -> String {
        let name = URL(fileURLWithPath: installedPath).lastPathComponent
        var candidates = ["/usr/bin/true", "/bin/true"]
        if let binDirectory = ProcessInfo.processInfo.environment["MOVIESD_BIN_DIR"], !binDirectory.isEmpty {
            candidates.insert("\(binDirectory)/\(name)", at: 0)
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/bin/true"
    }

    /// Runs `executable` with `arguments` and returns its exit status and its stdout and stderr together.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        // Bounded, and killed by PID at the deadline (ProcessRunner), unlike Foundation's Process.
        let result = try ProcessRunner.run(
            executable, arguments, environment: ["SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": "cat"], timeout: ProcessDeadline.seconds
        )
        return (result.status, result.stdout + result.stderr)
    }
}

/// The `Key=value` settings of one unit file in `systemd/`, by section, in file order.
private struct UnitFile {
    private var settings: [String: [String]] = [:]

    init(named name: String) throws {
        let text = try String(contentsOf: SystemdUnitTests.unitDirectory.appendingPathComponent(name), encoding: .utf8)
        var section = ""
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                settings["\(section).\(key)", default: []].append(value)
            }
        }
    }

    /// Every value of `key` in `[section]`, in order; empty when the key is absent.
    func values(_ section: String, _ key: String) -> [String] {
        settings["\(section).\(key)"] ?? []
    }
}

/// An address range of `IPAddressAllow=`, `ADDRESS/LENGTH`, IPv4 or IPv6.
private struct AddressPrefix {
    let bytes: [UInt8]
    let length: Int

    init(_ text: String) throws {
        let parts = text.split(separator: "/")
        bytes = try Self.bytes(of: String(parts[0]))
        length = parts.count > 1 ? Int(parts[1]) ?? -1 : bytes.count * 8
        guard (0...(bytes.count * 8)).contains(length) else { throw CocoaError(.formatting) }
    }

    /// Whether `address` is in this range (an address of the other family never is).
    func contains(_ address: String) throws -> Bool {
        let other = try Self.bytes(of: address)
        guard other.count == bytes.count else { return false }
        for bit in 0..<length where (bytes[bit / 8] >> (7 - bit % 8)) & 1 != (other[bit / 8] >> (7 - bit % 8)) & 1 { return false }
        return true
    }

    private static func bytes(of address: String) throws -> [UInt8] {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        throw CocoaError(.formatting)
    }
}
