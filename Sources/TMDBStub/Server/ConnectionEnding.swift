/// How a served connection is to be closed.
enum ConnectionEnding {
    /// An orderly close (FIN).
    case close
    /// An abortive close (RST, SO_LINGER 0): the `reset` fault.
    case reset
}
