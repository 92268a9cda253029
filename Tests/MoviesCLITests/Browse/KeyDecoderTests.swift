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

/// Issue 46: Alt and Control with keys (readline's word keys) and the mouse (SGR mode 1006).
@Suite struct KeyDecoderModifierTests {
    @Test(arguments: [
        ("\u{1B}b", Key.alt("b")), ("\u{1B}f", .alt("f")), ("\u{1B}d", .alt("d")), ("\u{1B}\u{7F}", .altBackspace),
        ("\u{1B}[1;5D", .wordLeft), ("\u{1B}[1;5C", .wordRight), ("\u{1B}[1;3D", .wordLeft), ("\u{1B}[1;2C", .right),
    ])
    func modifiedKeys(text: String, key: Key) {
        #expect(KeyDecoderTests.decode(text) == [.key(key)])
    }

    @Test func escapeAloneThenAKeyInTwoReadsIsEscapeThenTheKey() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flushEscape() == [.key(.escape)])
        #expect(decoder.feed(Array("b".utf8)) == [.key(.character("b"))])
    }

    @Test func sgrMouseReports() {
        #expect(KeyDecoderTests.decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(action: .press, column: 9, row: 4))])
        #expect(KeyDecoderTests.decode("\u{1B}[<64;1;3M") == [.mouse(MouseEvent(action: .wheelUp, column: 0, row: 2))])
        #expect(KeyDecoderTests.decode("\u{1B}[<65;1;3M") == [.mouse(MouseEvent(action: .wheelDown, column: 0, row: 2))])
        // A release, the right button and a drag are not used; the bytes after them still are.
        #expect(KeyDecoderTests.decode("\u{1B}[<0;10;5m\u{1B}[<2;1;1M\u{1B}[<32;4;4Mx") == [.key(.character("x"))])
        // Split across reads.
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[<0;1".utf8)).isEmpty)
        #expect(decoder.feed(Array("2;7M".utf8)) == [.mouse(MouseEvent(action: .press, column: 11, row: 6))])
    }
}
