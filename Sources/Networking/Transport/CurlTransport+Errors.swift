import CCurl
import Glibc

extension CurlTransport {
    /// The `NetworkError` for a failed libcurl transfer: its `CURLcode`, the `errno` of a failed
    /// connect or receive (`CURLINFO_OS_ERRNO`) and libcurl's error buffer (redacted; libcurl's
    /// messages name hosts and ports, not query strings). See https://curl.se/libcurl/c/libcurl-errors.html.
    static func networkError(code: Int32, osErrno: Int32, detail: String) -> NetworkError {
        switch code {
        case CCURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CCURLE_COULDNT_RESOLVE_HOST, CCURLE_COULDNT_RESOLVE_PROXY:
            return .dnsFailure
        case CCURLE_COULDNT_CONNECT:
            switch osErrno {
            case ETIMEDOUT: return .timedOut
            case ENETUNREACH, ENETDOWN: return .notConnected
            default: return .connectionRefused
            }
        case CCURLE_PARTIAL_FILE:
            return .shortBody
        case CCURLE_RECV_ERROR, CCURLE_SEND_ERROR:
            if osErrno == ECONNRESET || osErrno == EPIPE || detail.localizedCaseInsensitiveContains("connection reset") {
                return .connectionReset
            }
            return .transport(message: message(code: code, detail: detail))
        case CCURLE_SSL_CONNECT_ERROR, CCURLE_SSL_CERTPROBLEM, CCURLE_SSL_CIPHER, CCURLE_PEER_FAILED_VERIFICATION,
             CCURLE_SSL_CACERT_BADFILE, CCURLE_SSL_ISSUER_ERROR:
            return .tlsFailure
        case CCURLE_GOT_NOTHING, CCURLE_WEIRD_SERVER_REPLY, CCURLE_BAD_CONTENT_ENCODING:
            return .invalidResponse
        case CCURLE_UNSUPPORTED_PROTOCOL, CCURLE_URL_MALFORMAT:
            return .invalidURL
        default:
            return .transport(message: message(code: code, detail: detail))
        }
    }

    private static func message(code: Int32, detail: String) -> String {
        let text = detail.isEmpty ? (ccurl_load() == 0 ? String(cString: ccurl_easy_strerror(code)) : "") : detail
        return "curl error \(code) (\(Redaction.redactingCredentials(in: text)))."
    }
}
