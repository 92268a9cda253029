import Glibc

/// A Linux epoll instance (epoll(7)), level-triggered, with each file descriptor as its own key
/// and a tag of the caller's beside it (reported with its events: what tells a closed
/// descriptor's stale events from those of a new one with the same number).
/// `package`: the bench's ceiling server uses the same one.
///
/// Swift's Glibc module does not import `<sys/epoll.h>`, so the three system calls are looked up
/// with dlsym(3) and called through C function pointers. `struct epoll_event` is packed on x86_64
/// (12 bytes) and naturally aligned elsewhere (16 bytes); it is read and written byte-wise here.
package final class Epoll {
    private typealias CreateFunction = @convention(c) (Int32) -> Int32
    private typealias ControlFunction = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFunction = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    /// EPOLLIN.
    package static let readable: UInt32 = 0x001
    /// EPOLLOUT.
    static let writable: UInt32 = 0x004
    /// EPOLLERR.
    static let failed: UInt32 = 0x008
    /// EPOLLHUP.
    static let hungUp: UInt32 = 0x010

    #if arch(x86_64)
    private static let eventSize = 12
    private static let dataOffset = 4
    #else
    private static let eventSize = 16
    private static let dataOffset = 8
    #endif

    private let control: ControlFunction
    private let wait: WaitFunction
    private let descriptor: Int32
    private let eventBuffer: UnsafeMutableRawPointer
    private let capacity = 256

    /// Creates an epoll instance; throws the errno when it cannot.
    package init() throws(VarlinkSocketError) {
        let library = dlopen(nil, RTLD_NOW)
        guard let create = dlsym(library, "epoll_create1"), let control = dlsym(library, "epoll_ctl"),
              let wait = dlsym(library, "epoll_wait") else {
            throw VarlinkSocketError(code: .eventLoopUnavailable, errno: ENOSYS, path: nil)
        }
        self.control = unsafeBitCast(control, to: ControlFunction.self)
        self.wait = unsafeBitCast(wait, to: WaitFunction.self)
        let descriptor = unsafeBitCast(create, to: CreateFunction.self)(O_CLOEXEC)
        guard descriptor >= 0 else { throw VarlinkSocketError(code: .eventLoopUnavailable, errno: errno, path: nil) }
        self.descriptor = descriptor
        eventBuffer = UnsafeMutableRawPointer.allocate(byteCount: Self.eventSize * capacity, alignment: 8)
    }

    deinit {
        eventBuffer.deallocate()
        Glibc.close(descriptor)
    }

    /// Starts watching `fd` for `events`; its events come with `tag`.
    package func add(_ fd: Int32, events: UInt32, tag: UInt32 = 0) -> Bool { apply(operation: 1, fd: fd, events: events, tag: tag) }

    /// Changes the events watched on `fd` (and its tag: give the one it was added with).
    func modify(_ fd: Int32, events: UInt32, tag: UInt32 = 0) -> Bool { apply(operation: 3, fd: fd, events: events, tag: tag) }

    /// Stops watching `fd` (call before closing it).
    func remove(_ fd: Int32) { _ = apply(operation: 2, fd: fd, events: 0, tag: 0) }

    private func apply(operation: Int32, fd: Int32, events: UInt32, tag: UInt32) -> Bool {
        var event = [UInt8](repeating: 0, count: Self.eventSize)
        return event.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            let data = UInt64(tag) << 32 | UInt64(UInt32(bitPattern: fd))
            bytes.storeBytes(of: data, toByteOffset: Self.dataOffset, as: UInt64.self)
            return control(descriptor, operation, fd, bytes.baseAddress) == 0
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and returns the ready descriptors, their
    /// events and their tags.
    package func waitForEvents(timeoutMilliseconds: Int32) -> [(fd: Int32, events: UInt32, tag: UInt32)] {
        let count = wait(descriptor, eventBuffer, Int32(capacity), timeoutMilliseconds)
        guard count > 0 else { return [] }
        var ready: [(fd: Int32, events: UInt32, tag: UInt32)] = []
        ready.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let base = index * Self.eventSize
            let events = eventBuffer.loadUnaligned(fromByteOffset: base, as: UInt32.self)
            let data = eventBuffer.loadUnaligned(fromByteOffset: base + Self.dataOffset, as: UInt64.self)
            ready.append((fd: Int32(bitPattern: UInt32(truncatingIfNeeded: data)), events: events, tag: UInt32(truncatingIfNeeded: data >> 32)))
        }
        return ready
    }
}
