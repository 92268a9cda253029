import Foundation
import Testing
import TMDBStub

struct PNGEncoderTests {
    @Test func placeholderHasSignatureHeaderAndValidChecksums() throws {
        let png = PNGEncoder.placeholder(width: 342, height: 6, seed: 7)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var offset = 8
        var types: [String] = []
        while offset < png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let typeAndData = Array(png[(offset + 4)..<(offset + 8 + length)])
            let stored = png[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(stored == Checksums.crc32(typeAndData))
            types.append(String(decoding: typeAndData.prefix(4), as: UTF8.self))
            if types.last == "IHDR" {
                let width = typeAndData[4..<8].reduce(0) { $0 << 8 | Int($1) }
                #expect(width == 342)
            }
            offset += 12 + length
        }
        #expect(types == ["IHDR", "IDAT", "IEND"])
    }

    @Test func checksumsMatchKnownValues() {
        #expect(Checksums.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Checksums.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func sameSeedSameBytesOtherSeedDifferent() {
        #expect(PNGEncoder.placeholder(width: 92, height: 6, seed: 1) == PNGEncoder.placeholder(width: 92, height: 6, seed: 1))
        #expect(PNGEncoder.placeholder(width: 92, height: 6, seed: 1) != PNGEncoder.placeholder(width: 92, height: 6, seed: 2))
    }
}
