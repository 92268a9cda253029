import Glibc
import Testing
@testable import MoviesDaemon

@Suite struct SocketActivationTests {
    @Test func parsesDescriptorsStartingAtThreeWithNames() throws {
        let sockets = try SocketActivation.parse(environment: ["LISTEN_PID": "77", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "varlink:extra"], pid: 77)
        #expect(sockets == [ActivatedSocket(fileDescriptor: 3, name: "varlink"), ActivatedSocket(fileDescriptor: 4, name: "extra")])
    }

    @Test func namesAreDroppedWhenTheirCountDiffers() throws {
        let sockets = try SocketActivation.parse(environment: ["LISTEN_PID": "77", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "a:b"], pid: 77)
        #expect(sockets == [ActivatedSocket(fileDescriptor: 3, name: nil)])
    }

    @Test func socketsForAnotherProcessOrNoneAreIgnored() throws {
        #expect(try SocketActivation.parse(environment: ["LISTEN_PID": "78", "LISTEN_FDS": "1"], pid: 77).isEmpty)
        #expect(try SocketActivation.parse(environment: ["LISTEN_FDS": "1"], pid: 77).isEmpty)
        #expect(try SocketActivation.parse(environment: ["LISTEN_PID": "77"], pid: 77).isEmpty)
        #expect(try SocketActivation.parse(environment: ["LISTEN_PID": "77", "LISTEN_FDS": "0"], pid: 77).isEmpty)
        #expect(try SocketActivation.parse(environment: [:], pid: 77).isEmpty)
    }

    @Test func malformedVariablesAreErrors() {
        #expect(throws: StartupError.self) { try SocketActivation.parse(environment: ["LISTEN_PID": "x", "LISTEN_FDS": "1"], pid: 77) }
        #expect(throws: StartupError.self) { try SocketActivation.parse(environment: ["LISTEN_PID": "77", "LISTEN_FDS": "-1"], pid: 77) }
        #expect(throws: StartupError.self) { try SocketActivation.parse(environment: ["LISTEN_PID": "77", "LISTEN_FDS": "many"], pid: 77) }
    }

    @Test func listeningUnixStreamSocketIsAccepted() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let listener = try TestSocket.streamListener(directory.file("s"))
        defer { listener.close() }
        try SocketActivation.validateListeningUnixStream(listener.descriptor)
    }

    @Test func otherDescriptorsAreRejectedWithAClearMessage() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let datagram = try TestSocket.datagramReceiver(directory.file("d"))
        defer { datagram.close() }
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(tcp) }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }

        let cases: [(Int32, String)] = [
            (datagram.descriptor, "is not a stream socket"),
            (pair[0], "is not listening"),
            (tcp, "is not a Unix-domain socket"),
            (ends[0], "is not a socket"),
        ]
        for (descriptor, phrase) in cases {
            do {
                try SocketActivation.validateListeningUnixStream(descriptor)
                Issue.record("descriptor \(descriptor) was accepted")
            } catch {
                #expect(error.message.hasPrefix("moviesd: socket activation: file descriptor \(descriptor) \(phrase)"))
                #expect(error.message.contains("ListenStream="))
            }
        }
    }
}
