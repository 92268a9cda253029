import Foundation

/// Strict percent-encoding for query names and values: only RFC 3986 unreserved characters pass,
/// so `+`, `&`, `=` and spaces in a search query reach the server as data.
public enum QueryEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `value` percent-encoded as UTF-8, unreserved characters kept.
    public static func percentEncode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// `name=value&…` in the given order, each part percent-encoded.
    public static func query(_ items: [(name: String, value: String)]) -> String {
        items.map { "\(percentEncode($0.name))=\(percentEncode($0.value))" }.joined(separator: "&")
    }
}
