import Glibc
import Testing
@testable import MoviesDaemon

@Suite struct UnixSocketAddressTests {
    @Test func pathAddressLengthIncludesTheTerminatingNUL() throws {
        let address = try #require(UnixSocketAddress("/run/x"))
        #expect(!address.isAbstract)
        address.withSocketAddress { pointer, length in
            #expect(Int(length) == 2 + 6 + 1)
            #expect(Int32(pointer.pointee.sa_family) == AF_UNIX)
        }
    }

    @Test func abstractAddressStartsWithNULAndHasNoTrailingNUL() throws {
        let address = try #require(UnixSocketAddress("@moviesd/notify"))
        #expect(address.isAbstract)
        address.withSocketAddress { pointer, length in
            #expect(Int(length) == 2 + 1 + 14)
            pointer.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { unix in
                withUnsafeBytes(of: unix.pointee.sun_path) { bytes in
                    #expect(bytes[0] == 0)
                    #expect(bytes[1] == UInt8(ascii: "m"))
                }
            }
        }
    }

    @Test func rejectsEmptyTooLongAndEmbeddedNUL() {
        #expect(UnixSocketAddress("") == nil)
        #expect(UnixSocketAddress("@") == nil)
        #expect(UnixSocketAddress("/" + String(repeating: "a", count: 107)) == nil)
        #expect(UnixSocketAddress("/" + String(repeating: "a", count: 106)) != nil)
        #expect(UnixSocketAddress("/a\0b") == nil)
    }
}
