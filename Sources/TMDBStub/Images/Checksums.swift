import SystemSupport
/// The checksums PNG and zlib need, plus the hash behind the stub's ETags.
public enum Checksums {
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 (ISO 3309, as PNG chunks use it).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Adler-32 (RFC 1950).
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var low: UInt32 = 1, high: UInt32 = 0
        for byte in bytes {
            low = (low + UInt32(byte)) % 65_521
            high = (high + low) % 65_521
        }
        return high << 16 | low
    }

    /// 64-bit FNV-1a, used for strong ETags and per-image colours.
    public static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        FNV1a.hash(bytes)
    }
}
