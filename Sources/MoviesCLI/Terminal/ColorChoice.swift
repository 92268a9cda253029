/// `--color=WHEN`, as git and ls(1) take it: `auto` colours a terminal unless `NO_COLOR` is set
/// (or `TERM=dumb`); `always` colours even a pipe or a file, whatever `NO_COLOR` says (it is an
/// explicit request; `NO_COLOR` only sets the default, see no-color.org); `never` never does.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto
    case always
    case never

    /// The choice `text` names.
    /// - Throws: a `UsageError` listing the choices.
    init(_ text: String) throws(UsageError) {
        guard let choice = ColorChoice(rawValue: text) else {
            throw UsageError("--color takes auto, always or never, not '\(text)'")
        }
        self = choice
    }

    /// Whether to colour, given what was detected for `auto`.
    func usesColor(detected: Bool) -> Bool {
        switch self {
        case .auto: detected
        case .always: true
        case .never: false
        }
    }
}
