import Glibc

/// Finds the TMDB credential: `$CREDENTIALS_DIRECTORY/tmdb-token` (systemd `LoadCredential=`),
/// else `MOVIESD_TMDB_TOKEN` (bearer), else `MOVIESD_TMDB_API_KEY` (v3 API key).
///
/// Values are trimmed of surrounding whitespace; empty values count as absent. A missing credential is
/// not an error (the daemon serves its cache offline); an unreadable credential file is.
public enum CredentialLoader {
    /// The credential file's name inside `$CREDENTIALS_DIRECTORY`.
    public static let credentialName = "tmdb-token"

    /// Loads the credential from `environment`.
    /// - Throws: ``StartupError`` naming the credential file when it exists but cannot be read.
    public static func load(environment: [String: String]) throws(StartupError) -> LoadedCredential {
        if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            let path = directory.hasSuffix("/") ? directory + credentialName : directory + "/" + credentialName
            do throws(SystemCallError) {
                let token = trimmed(try FileContents.readText(atPath: path, limit: 64 * 1024))
                if !token.isEmpty { return .bearer(token) }
            } catch where error.code == ENOENT {
                // No such credential: fall through to the environment.
            } catch {
                throw StartupError(
                    "moviesd: \(path): cannot read TMDB credential: \(error.reason)",
                    exitCode: StartupError.permissionExitCode
                )
            }
        }
        if let token = environment["MOVIESD_TMDB_TOKEN"].map(trimmed), !token.isEmpty {
            return .bearer(token)
        }
        if let key = environment["MOVIESD_TMDB_API_KEY"].map(trimmed), !key.isEmpty {
            return .apiKey(key)
        }
        return .none
    }

    private static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
