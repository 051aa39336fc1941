import Foundation

extension ShareStats {
    /// The statistics as JSON bytes, written directly: what `WireJSON.encoder()` writes for them, byte for byte (keys
    /// sorted, nothing escaped that need not be), in a fraction of its time.
    public func json() -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        RecordJSON.appendKey("by", to: &bytes)
        RecordJSON.appendString(utf8: by.rawValue.utf8, to: &bytes)
        Self.append(Total(count: count, bytes: self.bytes), to: &bytes)
        RecordJSON.appendKey("periods", to: &bytes)
        bytes.append(UInt8(ascii: "["))
        for period in periods {
            if bytes.last != UInt8(ascii: "[") { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "{"))
            Self.append(Total(count: period.count, bytes: period.bytes), to: &bytes)
            RecordJSON.appendKey("period", to: &bytes)
            RecordJSON.appendString(utf8: period.period.utf8, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        if let quotaBytes {
            RecordJSON.appendKey("quotaBytes", to: &bytes)
            RecordJSON.appendInteger(quotaBytes, to: &bytes)
        }
        RecordJSON.appendKey("types", to: &bytes)
        bytes.append(UInt8(ascii: "{"))
        for (type, total) in types.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
            RecordJSON.appendString(utf8: type.utf8, to: &bytes)
            bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: "{")])
            Self.append(total, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "}")])
        return bytes
    }

    /// `"bytes":…,"count":…`, the bytes as Foundation writes a `Decimal`.
    private static func append(_ total: Total, to bytes: inout [UInt8]) {
        RecordJSON.appendKey("bytes", to: &bytes)
        append(total.bytes, to: &bytes)
        RecordJSON.appendKey("count", to: &bytes)
        RecordJSON.appendInteger(Int64(total.count), to: &bytes)
    }

    /// A `Decimal` as its `description` writes it: a whole one within 64 bits from its integer value, without
    /// `description`'s division of its whole mantissa for each digit.
    private static func append(_ decimal: Decimal, to bytes: inout [UInt8]) {
        guard decimal >= 0, decimal.exponent >= 0, decimal <= largestInteger else {
            bytes.append(contentsOf: decimal.description.utf8)
            return
        }
        RecordJSON.appendDigits(NSDecimalNumber(decimal: decimal).uint64Value, to: &bytes)
    }

    private static let largestInteger = Decimal(UInt64.max)
}
