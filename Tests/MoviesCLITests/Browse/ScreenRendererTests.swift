@testable import MoviesCLI
import Testing

@Suite struct ScreenRendererTests {
    final class Recorder: @unchecked Sendable {
        var writes: [String] = []
    }

    @Test func onlyChangedRowsAreWrittenAfterTheFirstFrame() {
        let recorder = Recorder()
        let renderer = ScreenRenderer { recorder.writes.append($0) }
        renderer.draw(ScreenFrame(rows: ["one", "two", "three"]))
        #expect(recorder.writes.count == 1)
        #expect(recorder.writes[0].contains("\u{1B}[2J"))
        #expect(recorder.writes[0].hasSuffix(ScreenRenderer.frameEnd))
        renderer.draw(ScreenFrame(rows: ["one", "TWO", "three"]))
        #expect(!recorder.writes[1].contains("\u{1B}[2J"))
        #expect(recorder.writes[1].contains("\u{1B}[2;1H"))
        #expect(!recorder.writes[1].contains("one"))
        #expect(!recorder.writes[1].contains("three"))
        renderer.draw(ScreenFrame(rows: ["one", "TWO", "three"]))
        #expect(recorder.writes.count == 2, "an unchanged frame writes nothing")
        renderer.invalidate()
        renderer.draw(ScreenFrame(rows: ["one", "TWO", "three"]))
        #expect(recorder.writes.count == 3)
        #expect(recorder.writes[2].contains("\u{1B}[2J"))
    }

    @Test func textBesideAnImageStartsRightOfIt() {
        let recorder = Recorder()
        let renderer = ScreenRenderer { recorder.writes.append($0) }
        let image = ScreenImage(id: "p", row: 1, columns: 4, rows: 2, base64: "AAAA", graphics: .kitty)
        renderer.draw(ScreenFrame(rows: ["title", "beside", "beside", "below"], image: image))
        let text = recorder.writes[0]
        #expect(text.contains("\u{1B}[2;6H"))
        #expect(text.contains("\u{1B}[4;1H"))
        #expect(text.contains("\u{1B}_Ga=T,f=100,c=4,r=2,C=1,q=2,m=0;AAAA\u{1B}\\"))
    }

    @Test func kittyImagesAreSentInChunks() {
        let base64 = String(repeating: "A", count: InlineImage.kittyChunk + 8)
        let escape = InlineImage.escape(base64: base64, columns: 24, rows: 18, graphics: .kitty)
        #expect(escape.components(separatedBy: "\u{1B}_G").count == 3)
        #expect(escape.contains("m=1;"))
        #expect(escape.hasSuffix("\u{1B}_Gm=0;AAAAAAAA\u{1B}\\"))
        let iterm = InlineImage.escape(base64: "AAAA", columns: 24, rows: 18, graphics: .iterm2)
        #expect(iterm == "\u{1B}]1337;File=inline=1;size=3;width=24;height=18;preserveAspectRatio=1:AAAA\u{07}")
    }
}
