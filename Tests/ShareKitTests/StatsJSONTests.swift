import Foundation
import ShareKit
import ShareTestSupport
import Testing

@Suite struct StatsJSONTests {
    /// Sums of one byte to beyond 64 bits, as the running totals add them up.
    private func randomBytes(_ generator: inout SplitMix) -> Decimal {
        let high = Decimal(Int64.random(in: 0...3, using: &generator)) * Decimal(UInt64.max)
        let low = Decimal(Int64.random(in: 0...Int64.max, using: &generator) >> Int.random(in: 0...62, using: &generator))
        // Also as a mantissa and a power of ten, as Decimal's arithmetic may leave a sum.
        let power = Decimal(sign: .plus, exponent: Int.random(in: 0...24, using: &generator), significand: 1)
        return Bool.random(using: &generator) ? high + low : (high + low) * power
    }

    /// The app and every script read `/share/stats` as the wire encoder wrote it: the direct writer changes no byte.
    @Test func writesExactlyWhatTheWireEncoderWrites() throws {
        var generator = SplitMix(seed: 20_261_127)
        let encoder = WireJSON.encoder()
        let names = IconCategory.allCases.map(\.rawValue) + ["a\"b\\c\n"]
        for _ in 0..<500 {
            var types: [String: ShareStats.Total] = [:]
            for name in names where Bool.random(using: &generator) {
                types[name] = ShareStats.Total(count: Int.random(in: 0...1_000_000, using: &generator), bytes: randomBytes(&generator))
            }
            let periods = (0..<Int.random(in: 0...40, using: &generator)).map { index in
                ShareStats.Period(
                    period: String(format: "%04d-%02d", 2000 + index / 12, 1 + index % 12), count: Int.random(in: 1...500, using: &generator),
                    bytes: randomBytes(&generator))
            }
            var stats = ShareStats(
                count: Int.random(in: 0...Int.max, using: &generator), bytes: randomBytes(&generator), types: types,
                by: StatsPeriod.allCases.randomElement(using: &generator)!, periods: periods)
            stats.quotaBytes = Bool.random(using: &generator) ? Int64.random(in: 0...Int64.max, using: &generator) : nil
            #expect(String(decoding: stats.json(), as: UTF8.self) == String(decoding: try encoder.encode(stats), as: UTF8.self))
        }
    }
}
