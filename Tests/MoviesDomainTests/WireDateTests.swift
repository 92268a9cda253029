import FoundationEssentials
import MoviesDomain
import MoviesTestSupport
import SystemSupport
import Testing

/// `WireDate` agrees with Foundation's `.iso8601` strategy (what older moviesd versions wrote), both ways.
@Suite struct WireDateTests {
    private struct Stamp: Codable, Equatable { var date: Date }

    static func viaJSONDecoder(_ text: String) -> Date? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Stamp.self, from: Data(#"{"date":"\#(text)"}"#.utf8)).date
    }

    static func viaJSONEncoder(_ date: Date) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let json = String(decoding: try encoder.encode(Stamp(date: date)), as: UTF8.self)
        return String(json.dropFirst(#"{"date":""#.count).dropLast(2))
    }

    @Test func parsingWhatJSONEncoderWritesGivesJSONDecodersDate() throws {
        var seconds: [Int] = [0, -1, 86_399, 951_782_400, 1_709_164_800, -2_203_891_200, -2_208_988_800, 4_102_444_800, 253_402_300_799]
        var generator = SeededRandomGenerator(seed: 5)
        for _ in 0..<2000 { seconds.append(Int.random(in: -2_208_988_800..<253_402_300_800, using: &generator)) }
        for second in seconds {
            let date = Date(timeIntervalSince1970: Double(second))
            let text = try Self.viaJSONEncoder(date)
            #expect(WireDate.parse(text) == date, "\(text)")
            #expect(WireDate.parse(text) == Self.viaJSONDecoder(text), "\(text)")
            let fields = WireDate.fields(of: date)
            #expect(formatted(fields) == text)
        }
    }

    @Test(arguments: ["2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
                      "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z",
                      "1899-12-31T23:59:59Z", "2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00+00:00", "2026-01-01 00:00:00Z",
                      "2026-1-01T00:00:00Z", "", "not a date at all!!!"])
    func anythingButAValidDateInTheExactFormIsDeclined(text: String) {
        #expect(WireDate.parse(text) == nil)
    }

    @Test func leapDaysOfLeapYearsAreDates() {
        #expect(WireDate.parse("2000-02-29T12:34:56Z") == Date(timeIntervalSince1970: 951_827_696))
        #expect(WireDate.parse("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
    }
}

/// `fields` in the wire form, written independently of `WireDate` and `JSONEncoder`.
private func formatted(_ fields: WireDate.Fields) -> String {
    func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(fields.year, 4))-\(pad(fields.month, 2))-\(pad(fields.day, 2))T\(pad(fields.hour, 2)):\(pad(fields.minute, 2)):\(pad(fields.second, 2))Z"
}
