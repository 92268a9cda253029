/// Encodes small RGB PNG images with stored (uncompressed) deflate blocks; enough for valid, decodable
/// placeholder posters. See https://www.w3.org/TR/png/.
public enum PNGEncoder {
    /// A `width`×`height` 8-bit RGB PNG whose colours are derived deterministically from `seed`.
    public static func placeholder(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        let red = UInt8(truncatingIfNeeded: seed), green = UInt8(truncatingIfNeeded: seed >> 8)
        let blue = UInt8(truncatingIfNeeded: seed >> 16)
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter type None
            for column in 0..<width {
                raw.append(red &+ UInt8(truncatingIfNeeded: column))
                raw.append(green &+ UInt8(truncatingIfNeeded: row * 16))
                raw.append(blue)
            }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // bit depth 8, colour type RGB, deflate, filter 0, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    /// `data` wrapped in a zlib stream of stored deflate blocks (RFC 1950/1951).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let isLast: UInt8 = offset + length >= data.count ? 1 : 0
            output.append(isLast)
            output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            output += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        return output + bigEndian(Checksums.adler32(data))
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(Checksums.crc32(typeBytes + data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
