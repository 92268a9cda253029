/// What a method may touch, declared where it is registered, beside its access level
/// (`MoviesVarlinkService`): the owner gate (`OwnerGate`) resolves each call's `OwnerScope` from it.
public enum OwnerReach: Sendable, Hashable, CaseIterable {
    /// No owner's data: the shared cache alone.
    case shared
    /// The caller's own data alone; a peer without credentials owns nothing (empty answers).
    case own
    /// What the caller may see: the system's lists (everyone's to read) and their own; the system's
    /// account for administrators; every user's lists when root asks for `allUsers`.
    case visible
    /// One owner's data, to change: the caller's own, or the owner the call names (`system`: the
    /// system's, administrators only; `owner`: a user's, root only). Refused without credentials.
    case managed
}
