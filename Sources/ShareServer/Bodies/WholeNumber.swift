import Foundation

/// A JSON integer read exactly, so that `1.5` or `9223372036854775808` is reported against its field.
///
/// Foundation reports an overflowing `Int64` as a body-level error with no field; reading a `Decimal` first avoids that.
struct WholeNumber: Decodable {
    let value: Int64

    private static let range = Decimal(Int64.min)...Decimal(Int64.max)

    init(_ value: Int64) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        var number = try container.decode(Decimal.self)
        var whole = Decimal()
        NSDecimalRound(&whole, &number, 0, .plain)
        guard whole == number else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be a whole number, got \(number)")
        }
        guard Self.range.contains(number) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be less than 2^63, got \(number)")
        }
        value = NSDecimalNumber(decimal: number).int64Value
    }
}
