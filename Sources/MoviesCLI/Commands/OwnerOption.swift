import CommandLineSupport

/// `--owner USER|UID` of `watchlist` and `refresh`: the user whose personal watchlists root acts
/// on (`owner: UID` in the call). The name is read from the password database when the command
/// runs; the daemon decides whether the caller may (root, or the user themselves).
enum OwnerOption {
    /// The option's name.
    static let name = "--owner"

    /// The option's spec (its value completes with the local users' names).
    static let spec = OptionSpec.option(
        name, value: "USER|UID", help: "Act on this user's personal watchlists (a user name or a uid); only root may act on another user's.")

    /// `--owner`'s value as given (`nil` when absent); a usage error with `--system`.
    static func text(in arguments: ParsedArguments, command: String) throws(UsageError) -> String? {
        guard let text = arguments.value(name) else { return nil }
        if arguments.has("--system") { throw UsageError("choose only one of --system and --owner", command: command) }
        return text
    }

    /// The uid `text` (an `--owner` value) means: a user's name, else a uid.
    static func uid(_ text: String, users: LocalUserNames, command: String) throws(UsageError) -> UInt32 {
        guard let uid = users.uid(named: text) else {
            throw UsageError("--owner takes a user name or a uid; there is no user '\(text)'", command: command)
        }
        return uid
    }

    /// `error` as said to someone who gave `--owner` or `--all-users`: the daemon refuses another
    /// user's watchlists to all but root.
    static func explained(_ error: ClientError) -> ClientError {
        guard case .permissionDenied = error else { return error }
        return .rootOnly(action: "act on another user's watchlists (--owner, --all-users)")
    }
}
