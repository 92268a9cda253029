/// A mouse report from a terminal in SGR mouse mode (xterm's 1006 with 1000: `CSI < b ; x ; y M`
/// for a press, `m` for a release; the wheel is buttons 64 and 65). Only what the browse screen
/// uses is kept.
struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    enum Action: Sendable, Hashable {
        /// The left button went down.
        case press
        /// The wheel turned up (away from the user).
        case wheelUp
        /// The wheel turned down.
        case wheelDown
    }

    /// What the mouse did.
    let action: Action
    /// The cell's column and row, from 0 at the top left (the terminal counts from 1).
    let column: Int
    let row: Int

    /// Turns on the reports the decoder reads (button presses and the wheel, SGR encoding).
    static let enableSequence = "\u{1B}[?1000h\u{1B}[?1006h"
    /// Turns them off again.
    static let disableSequence = "\u{1B}[?1006l\u{1B}[?1000l"

    /// The event an SGR report's parameters (`b;x;y`, without the `<`) and final byte (`M` press,
    /// `m` release) stand for; `nil` for what is not used (releases, other buttons, drags).
    static func sgr(parameters: String, final: UInt8) -> MouseEvent? {
        let numbers = parameters.split(separator: ";").map { Int($0) }
        guard numbers.count == 3, let button = numbers[0], let column = numbers[1], let row = numbers[2],
              column >= 1, row >= 1, final == UInt8(ascii: "M") else { return nil }
        // Bits 2-4 are Shift, Meta and Control, bit 5 motion: a drag is not a click.
        let action: Action
        switch button & ~0b1_1100 {
        case 0 where button & 32 == 0: action = .press
        case 64: action = .wheelUp
        case 65: action = .wheelDown
        default: return nil
        }
        return MouseEvent(action: action, column: column - 1, row: row - 1)
    }
}
