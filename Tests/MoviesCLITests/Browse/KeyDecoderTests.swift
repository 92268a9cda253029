@testable import MoviesCLI
import Testing

@Suite struct KeyDecoderTests {
    static func decode(_ text: String) -> [TerminalInput] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}OB", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
        ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[3~", .delete), ("\u{1B}OP", .function(1)), ("\u{1B}[11~", .function(1)),
        ("\u{1B}[1;5A", .up), ("\r", .enter), ("\t", .tab), ("\u{7F}", .backspace), ("\u{03}", .control("c")), ("\u{1A}", .control("z")),
        ("j", .character("j")), ("é", .character("é")), ("日", .character("日")),
    ])
    func sequences(text: String, key: Key) {
        #expect(Self.decode(text) == [.key(key)])
    }

    @Test func aSequenceSplitAcrossReadsIsKeptUntilItEnds() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, UInt8(ascii: "[")]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.feed([UInt8(ascii: "6"), UInt8(ascii: "~")]) == [.key(.pageDown)])
        // Half a UTF-8 character, then the rest.
        let bytes = Array("日".utf8)
        #expect(decoder.feed(Array(bytes.prefix(1))).isEmpty)
        #expect(decoder.feed(Array(bytes.dropFirst())) == [.key(.character("日"))])
    }

    @Test func aLoneEscapeIsTheEscapeKeyOnlyOnceNothingFollowed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flushEscape() == [.key(.escape)])
        #expect(!decoder.hasPending)
        #expect(Self.decode("\u{1B}\u{1B}[A") == [.key(.escape), .key(.up)])
    }

    @Test func theTerminalsAnswersAreNotKeys() {
        let answers = Self.decode("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c" + "x")
        #expect(answers == [.reply(.kittyGraphics(ok: true)), .reply(.terminalVersion("kitty(0.35.2)")), .reply(.deviceAttributes), .key(.character("x"))])
        #expect(Self.decode("\u{1B}_Gi=31;ENOENT:no\u{1B}\\") == [.reply(.kittyGraphics(ok: false))])
        #expect(Self.decode("\u{1B}]11;rgb:0000/0000/0000\u{07}").isEmpty)
    }

    @Test func theProbeDecidesOnTheDeviceAttributes() {
        var kitty = GraphicsProbe()
        kitty.receive(.kittyGraphics(ok: true))
        #expect(kitty.result == nil)
        kitty.receive(.deviceAttributes)
        #expect(kitty.result == .supported(.kitty))
        var iterm = GraphicsProbe()
        iterm.receive(.terminalVersion("iTerm2 3.5.0"))
        iterm.receive(.deviceAttributes)
        #expect(iterm.result == .supported(.iterm2))
        var plain = GraphicsProbe()
        plain.receive(.terminalVersion("tmux 3.3a"))
        plain.receive(.deviceAttributes)
        #expect(plain.result == .unsupported)
        var silent = GraphicsProbe()
        silent.timedOut()
        #expect(silent.result == .unsupported)
    }
}
