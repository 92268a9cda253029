/// Where the policy a command asked with came from, for an error whose advice depends on it
/// (nothing cached under `--offline`: drop the flag, or choose another policy than movies.conf's).
public enum PolicySource: Sendable, Hashable {
    /// A flag on the command line (`--offline`, `--fresh`).
    case flag
    /// movies.conf's `[Search] Policy=` (the command line named no policy).
    case configuration
}
