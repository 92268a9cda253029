/// Who may call a method: every registration says which, so a method that changes something cannot
/// be registered without its permission check.
public enum VarlinkAccess: Sendable, Equatable {
    /// Any peer that can reach the socket (reads, as in systemd's daemons).
    case anyone
    /// Only peers the router's authorisation admits (methods that change state).
    case authorized
}
