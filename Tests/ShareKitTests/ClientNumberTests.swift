import ShareKit
import Testing

/// Numbers clients write in headers and parameters: digits alone, and no bound a client sends can overflow.
@Suite struct ClientNumberTests {
    @Test(arguments: ["0", "007", "9223372036854775807"])
    func digitsAloneAreANumber(text: String) {
        #expect(Int64(clientDigits: text) == Int64(text))
    }

    @Test(arguments: ["", "+1", "-1", " 1", "1 ", "1_000", "1e3", "0x10", "9223372036854775808", "١٢"])
    func anythingElseIsNotOne(text: String) {
        #expect(Int64(clientDigits: text) == nil)
    }

    @Test func aBoundPastTheLargestNumberIsTheLargest() {
        #expect(Int64(clientBound: "99999999999999999999999999") == .max)
        #expect(Int64(clientBound: "+5") == nil && Int64(clientBound: "") == nil)
    }

    @Test(arguments: [
        ("bytes=0-9223372036854775807", ByteRange.part(0..<100)),
        ("bytes=99-99999999999999999999", .part(99..<100)),
        ("bytes=-9223372036854775807", .part(0..<100)),
        ("bytes=-10", .part(90..<100)),
        ("bytes=9223372036854775807-", .unsatisfiable),
        ("bytes=100-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=5-4", .whole),
        ("bytes=+1-2", .whole),
        ("bytes=1--2", .whole),
        ("bytes=-", .whole),
        ("bytes=0-1,5-6", .whole),
        ("items=0-1", .whole),
    ])
    func rangesAreReadWithinTheFile(header: String, range: ByteRange) {
        #expect(ByteRange(header: header, size: 100) == range)
    }

    @Test func aRangeOfAnEmptyFileIsNeverSatisfiable() {
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-5", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-9223372036854775807", size: .max) == .part(0..<Int64.max))
    }
}
