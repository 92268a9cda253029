import Testing
@testable import MoviesDaemon

@Suite("FileDescriptorLimit")
struct FileDescriptorLimitTests {
    @Test("raising never lowers the soft limit and never exceeds the hard limit")
    func raiseIsBounded() {
        let before = FileDescriptorLimit.current()
        #expect(FileDescriptorLimit.raise(toAtLeast: 1) == before.soft)
        let raised = FileDescriptorLimit.raise(toAtLeast: UInt64.max)
        #expect(raised == before.hard)
        #expect(FileDescriptorLimit.current().soft == before.hard)
    }
}
