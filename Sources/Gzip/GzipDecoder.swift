import CZlib

/// A streaming gzip decoder over zlib's `inflate` (loaded at run time): bytes in, bytes out, a
/// bounded buffer, never the whole stream in memory. Multi-member files (concatenated gzip
/// streams, as `cat a.gz b.gz` makes) decode as one.
///
/// Not `Sendable`: one owner feeds it.
public final class GzipDecoder {
    private let stream: OpaquePointer
    private var output: [UInt8]
    /// Whether the last member ended cleanly (its CRC and length checked) and nothing followed yet.
    public private(set) var isAtMemberEnd = false
    /// Compressed bytes taken so far.
    public private(set) var compressedBytes = 0

    /// A decoder producing at most `chunkSize` bytes per delivery. Throws `.zlibUnavailable`.
    public init(chunkSize: Int = 256 * 1024) throws(GzipError) {
        guard let stream = czlib_inflater_new() else {
            let reason = String(cString: czlib_load_error())
            throw GzipError(.zlibUnavailable, reason.isEmpty ? "zlib could not start a decoder (out of memory)." : reason + ".")
        }
        self.stream = stream
        output = [UInt8](repeating: 0, count: max(4096, chunkSize))
    }

    deinit { czlib_stream_free(stream) }

    /// Decodes `input`, handing each decoded piece to `deliver` (valid during the call only).
    /// Throws `.corrupt` when the bytes are not gzip or fail its checks.
    public func feed(_ input: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) throws -> Void) throws {
        var offset = 0
        while offset < input.count {
            if isAtMemberEnd {
                // Another member follows the last one's trailer.
                _ = czlib_inflate_reset(stream)
                isAtMemberEnd = false
            }
            var consumed = 0
            var produced = 0
            let code = output.withUnsafeMutableBytes { out in
                czlib_inflate(stream, input.baseAddress.map { $0 + offset }, input.count - offset, &consumed, out.baseAddress, out.count, &produced)
            }
            offset += consumed
            compressedBytes += consumed
            if produced > 0 {
                try output.withUnsafeBytes { try deliver(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            switch code {
            case CZ_OK:
                continue
            case CZ_STREAM_END:
                isAtMemberEnd = true
            case CZ_BUF_ERROR where consumed == 0 && produced == 0:
                return
            case CZ_BUF_ERROR:
                continue
            default:
                let message = String(cString: czlib_message(stream))
                throw GzipError(.corrupt, "The data is not valid gzip" + (message.isEmpty ? "." : " (\(message))."))
            }
        }
        // Input used up: drain what zlib still holds back (a full output buffer).
        while !isAtMemberEnd {
            var consumed = 0
            var produced = 0
            let code = output.withUnsafeMutableBytes { out in
                czlib_inflate(stream, nil, 0, &consumed, out.baseAddress, out.count, &produced)
            }
            if produced > 0 {
                try output.withUnsafeBytes { try deliver(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            if code == CZ_STREAM_END { isAtMemberEnd = true; break }
            if code == CZ_OK, produced > 0 { continue }
            if code == CZ_OK || code == CZ_BUF_ERROR { break }
            let message = String(cString: czlib_message(stream))
            throw GzipError(.corrupt, "The data is not valid gzip" + (message.isEmpty ? "." : " (\(message))."))
        }
    }

    /// Checks that the stream ended on a member's trailer; throws `.truncated` otherwise (or for
    /// an empty stream).
    public func finish() throws(GzipError) {
        guard isAtMemberEnd, compressedBytes > 0 else {
            throw GzipError(.truncated, compressedBytes == 0 ? "The file is empty." : "The gzip data ends before its end (a cut-off download).")
        }
    }
}
