import CZlib

/// A streaming gzip encoder over zlib's `deflate` (loaded at run time), for the stand-in TMDB's
/// exports and for tests.
///
/// Not `Sendable`: one owner feeds it.
public final class GzipEncoder {
    private let stream: OpaquePointer
    private var output = [UInt8](repeating: 0, count: 256 * 1024)
    private var finished = false

    /// An encoder at `level` (1 fastest … 9 smallest). Throws `.zlibUnavailable`.
    public init(level: Int = 1) throws(GzipError) {
        guard let stream = czlib_deflater_new(Int32(max(1, min(9, level)))) else {
            let reason = String(cString: czlib_load_error())
            throw GzipError(.zlibUnavailable, reason.isEmpty ? "zlib could not start an encoder (out of memory)." : reason + ".")
        }
        self.stream = stream
    }

    deinit { czlib_stream_free(stream) }

    /// Encodes `input`, appending compressed bytes to `sink`.
    public func feed(_ input: UnsafeRawBufferPointer, into sink: inout [UInt8]) {
        run(input, finish: false, into: &sink)
    }

    /// Encodes `input` (a convenience for arrays).
    public func feed(_ input: [UInt8], into sink: inout [UInt8]) {
        input.withUnsafeBytes { feed($0, into: &sink) }
    }

    /// Ends the stream: writes what zlib holds and the gzip trailer into `sink`.
    public func finish(into sink: inout [UInt8]) {
        guard !finished else { return }
        run(UnsafeRawBufferPointer(start: nil, count: 0), finish: true, into: &sink)
        finished = true
    }

    /// `bytes` gzip-compressed in one go.
    public static func compress(_ bytes: [UInt8], level: Int = 1) throws(GzipError) -> [UInt8] {
        let encoder = try GzipEncoder(level: level)
        var sink: [UInt8] = []
        sink.reserveCapacity(bytes.count / 3 + 64)
        encoder.feed(bytes, into: &sink)
        encoder.finish(into: &sink)
        return sink
    }

    private func run(_ input: UnsafeRawBufferPointer, finish: Bool, into sink: inout [UInt8]) {
        var offset = 0
        while true {
            var consumed = 0
            var produced = 0
            let code = output.withUnsafeMutableBytes { out in
                czlib_deflate(stream, input.baseAddress.map { $0 + offset }, input.count - offset, &consumed, out.baseAddress, out.count, &produced, finish ? 1 : 0)
            }
            offset += consumed
            if produced > 0 { sink.append(contentsOf: output[0..<produced]) }
            if code == CZ_STREAM_END { return }
            if code != CZ_OK && code != CZ_BUF_ERROR { return }
            if !finish, offset >= input.count, produced < output.count { return }
            if code == CZ_BUF_ERROR, consumed == 0, produced == 0 { return }
        }
    }
}
