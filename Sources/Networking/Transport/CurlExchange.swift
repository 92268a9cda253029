import CCurl
import Foundation

/// One request on a ``CurlMultiLoop``: its libcurl easy handle, what it owns (header list, error
/// buffer) and the response as it arrives, and the caller's continuation.
///
/// Confinement instead of a lock: the caller creates and configures it, then hands it to the loop;
/// from then on only the loop's thread touches the handle and the buffers (libcurl calls the
/// write and header callbacks from `curl_multi_perform` there). The caller's side is the
/// `ResumeOnce` gate, which is thread-safe. Hence `@unchecked Sendable`.
final class CurlExchange: @unchecked Sendable {
    /// The easy handle; removed from the multi handle before this object goes away.
    let easy: OpaquePointer
    /// Resumed once: with the response, a failure, a timeout or a cancellation.
    let gate: ResumeOnce<HTTPResponse>
    private var headerList: OpaquePointer?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var body = Data()
    /// The file the body goes to (`HTTPRequest.bodyFile`), or -1 for memory.
    private var bodyDescriptor: Int32 = -1
    /// The `errno` of a failed write to `bodyDescriptor` (0: none).
    private var bodyWriteError: Int32 = 0
    private var headers: [String: String] = [:]

    /// Creates the easy handle for `request` and configures it. Throws `NetworkError.invalidURL`
    /// or `.transport` when libcurl refuses the request.
    init(_ request: HTTPRequest, gate: ResumeOnce<HTTPResponse>) throws(NetworkError) {
        guard let easy = ccurl_easy_init() else { throw NetworkError.transport(message: "libcurl could not create a transfer.") }
        self.easy = easy
        self.gate = gate
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CCURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CCURL_ERROR_SIZE))
        if let path = request.bodyFile {
            bodyDescriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard bodyDescriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw NetworkError.transport(message: "Cannot create \(path): \(reason).")
            }
        }
        try configure(for: request)
    }

    deinit {
        if bodyDescriptor >= 0 { close(bodyDescriptor) }
        ccurl_easy_cleanup(easy)
        if let headerList { ccurl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    private func configure(for request: HTTPRequest) throws(NetworkError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // libcurl copies every string option it is given (since 7.17), so scoped C strings do.
        guard request.url.absoluteString.withCString({ ccurl_easy_setopt_pointer(easy, CCURLOPT_URL, $0) }) == CCURLE_OK else {
            throw NetworkError.invalidURL
        }
        // Only HTTP(S); unknown to a libcurl older than 7.85, where the URL scheme was checked already.
        _ = "http,https".withCString { ccurl_easy_setopt_pointer(easy, CCURLOPT_PROTOCOLS_STR, $0) }
        _ = ccurl_easy_setopt_long(easy, CCURLOPT_NOSIGNAL, 1)
        let milliseconds = Int(min(max(1, (request.timeoutSeconds * 1000).rounded(.up)), Double(Int32.max)))
        _ = ccurl_easy_setopt_long(easy, CCURLOPT_TIMEOUT_MS, milliseconds)
        _ = ccurl_easy_setopt_long(easy, CCURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        // "": every encoding this libcurl decodes, decoded before the body reaches us.
        _ = "".withCString { ccurl_easy_setopt_pointer(easy, CCURLOPT_ACCEPT_ENCODING, $0) }
        _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_ERRORBUFFER, errorBuffer)
        _ = ccurl_easy_setopt_callback(easy, CCURLOPT_WRITEFUNCTION, curlWriteBody)
        _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_WRITEDATA, context)
        _ = ccurl_easy_setopt_callback(easy, CCURLOPT_HEADERFUNCTION, curlWriteHeader)
        _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_HEADERDATA, context)

        let method = request.method.uppercased()
        switch method {
        case "GET":
            _ = ccurl_easy_setopt_long(easy, CCURLOPT_HTTPGET, 1)
        case "HEAD":
            _ = ccurl_easy_setopt_long(easy, CCURLOPT_NOBODY, 1)
        default:
            if method == "POST" || request.body != nil {
                let body = request.body ?? Data()
                _ = ccurl_easy_setopt_long(easy, CCURLOPT_POSTFIELDSIZE, body.count)
                // COPYPOSTFIELDS copies POSTFIELDSIZE bytes; an empty body still needs a pointer.
                let bytes = body.isEmpty ? [0] : [UInt8](body)
                _ = bytes.withUnsafeBytes { ccurl_easy_setopt_pointer(easy, CCURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            }
            if method != "POST" {
                _ = method.withCString { ccurl_easy_setopt_pointer(easy, CCURLOPT_CUSTOMREQUEST, $0) }
            }
        }
        // "Expect:" turns off libcurl's 100-continue wait before a body.
        var lines = request.headers.map { "\($0.key): \($0.value)" }
        lines.append("Expect:")
        for line in lines {
            guard let appended = line.withCString({ ccurl_slist_append(headerList, $0) }) else {
                throw NetworkError.transport(message: "libcurl could not add a request header.")
            }
            headerList = appended
        }
        _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_HTTPHEADER, UnsafeRawPointer(headerList))
    }

    /// Appends body bytes (loop thread).
    /// Returns false when the bytes could not be written to the body's file (the transfer stops).
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bodyDescriptor >= 0 else {
            body.append(contentsOf: bytes)
            return true
        }
        var offset = 0
        while offset < bytes.count {
            let written = write(bodyDescriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                bodyWriteError = errno
                return false
            }
            offset += written
        }
        return true
    }

    /// Records one header line; a status line starts a new header block (after a `100 Continue`).
    /// Read as bytes (HTTP's whitespace is ASCII): no Foundation string trimming per header.
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = Self.trimmed(bytes, 0..<bytes.count)
        if line.count >= 5, bytes[line.lowerBound..<line.lowerBound + 5].elementsEqual("HTTP/".utf8) {
            headers = [:]
            return
        }
        guard let colon = bytes[line].firstIndex(of: UInt8(ascii: ":")) else { return }
        let nameRange = Self.trimmed(bytes, line.lowerBound..<colon)
        guard !nameRange.isEmpty else { return }
        let name = String(decoding: bytes[nameRange], as: UTF8.self)
        let value = String(decoding: bytes[Self.trimmed(bytes, colon + 1..<line.upperBound)], as: UTF8.self)
        if let earlier = headers[name] {
            headers[name] = earlier + ", " + value
        } else {
            headers[name] = value
        }
    }

    /// `range` of `bytes` without the spaces, tabs, CRs and LFs at either end.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Resumes the caller with the transfer's outcome (loop thread, after `CURLMSG_DONE`).
    func complete(code: Int32) {
        if bodyWriteError != 0 {
            let reason = String(cString: strerror(bodyWriteError))
            gate.resume(.failure(NetworkError.transport(message: "Cannot write the downloaded body: \(reason).")))
            return
        }
        guard code == CCURLE_OK else {
            var osErrno = 0
            _ = ccurl_easy_getinfo_long(easy, CCURLINFO_OS_ERRNO, &osErrno)
            let detail = String(cString: errorBuffer)
            gate.resume(.failure(CurlTransport.networkError(code: code, osErrno: Int32(truncatingIfNeeded: osErrno), detail: detail)))
            return
        }
        var status = 0
        _ = ccurl_easy_getinfo_long(easy, CCURLINFO_RESPONSE_CODE, &status)
        guard status >= 100 else {
            gate.resume(.failure(NetworkError.invalidResponse))
            return
        }
        gate.resume(.success(HTTPResponse(status: status, headers: headers, body: body)))
    }
}

/// CURLOPT_WRITEFUNCTION: the body's bytes, to the exchange in the context pointer.
private let curlWriteBody: ccurl_write_callback = { data, size, count, context in
    deliver(data, size * count, to: context) { $0.receiveBody($1) }
}

/// CURLOPT_HEADERFUNCTION: one header line at a time, to the exchange in the context pointer.
private let curlWriteHeader: ccurl_write_callback = { data, size, count, context in
    deliver(data, size * count, to: context) { exchange, bytes in
        exchange.receiveHeader(bytes)
        return true
    }
}

/// What both write callbacks do: hand `length` bytes to the exchange behind `context`; returns
/// what curl expects (the bytes taken; 0 without an exchange, which aborts the transfer).
private func deliver(
    _ data: UnsafeMutablePointer<CChar>?, _ length: Int, to context: UnsafeMutableRawPointer?,
    _ receive: (CurlExchange, UnsafeRawBufferPointer) -> Bool
) -> Int {
    guard let context else { return 0 }
    guard let data, length > 0 else { return length }
    let taken = receive(Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue(), UnsafeRawBufferPointer(start: data, count: length))
    return taken ? length : 0
}
