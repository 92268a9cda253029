import Testing
@testable import MoviesDaemon

@Suite struct RefreshSettingsTests {
    @Test func defaultsAreTheDocumentedOnes() {
        let settings = RefreshSettings()
        #expect(settings.enabled)
        #expect(settings.requestsPerSecond == 10)
        #expect(settings.posters)
        #expect(settings.deadlineSeconds == 3600)
        #expect(settings.schedulerConfiguration.requestsPerSecond == 10)
    }

    @Test func parsesTheRefreshSection() throws {
        let text = "[Refresh]\nEnabled=no\nRequestsPerSecond=2.5\nPosters=no\nDeadlineSec=0\n"
        let configuration = try ConfigurationFile(contents: text, path: "/etc/m.conf").applied(to: DaemonConfiguration())
        #expect(configuration.refresh.enabled == false)
        #expect(configuration.refresh.requestsPerSecond == 2.5)
        #expect(configuration.refresh.posters == false)
        #expect(configuration.refresh.deadlineSeconds == 0)
    }

    @Test func rejectsABadRate() {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationFile(contents: "[Refresh]\nRequestsPerSecond=0\n", path: "/etc/m.conf").applied(to: DaemonConfiguration())
        }
    }
}
