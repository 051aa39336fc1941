/// Whole numbers as clients write them in headers and parameters (`Upload-Offset`, `Range`, `limit`): ASCII digits
/// only, with no sign, space or underscore, which `Int64.init(_:)` would let through (`+1`).
extension Int64 {
    /// The number `text` writes, or nil when it is not digits alone or does not fit in 63 bits.
    public init?(clientDigits text: some StringProtocol) {
        guard let (value, overflowed) = Self.readDigits(text), !overflowed else { return nil }
        self = value
    }

    /// The number `text` writes, with any number past `Int64.max` read as `Int64.max`: for a bound that is only
    /// compared, such as a range's last byte; nil when it is not digits alone.
    public init?(clientBound text: some StringProtocol) {
        guard let (value, _) = Self.readDigits(text) else { return nil }
        self = value
    }

    private static func readDigits(_ text: some StringProtocol) -> (value: Int64, overflowed: Bool)? {
        var value: Int64 = 0
        var overflowed = false
        var count = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            count += 1
            let (times, timesOverflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if timesOverflow || sumOverflow { overflowed = true }
            value = overflowed ? .max : sum
        }
        return count == 0 ? nil : (value, overflowed)
    }
}
