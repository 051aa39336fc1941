import ArgumentParser

/// A rate for `--limit-rate`: bytes a second, with an optional k, M or G (1000-based, as sizes are shown).
struct TransferRate: ExpressibleByArgument {
    let bytesPerSecond: Int64

    init?(argument: String) {
        let units: [Character: Int64] = ["k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000, "g": 1_000_000_000, "G": 1_000_000_000]
        let unit = argument.last.flatMap { units[$0] }
        guard let number = Int64(unit == nil ? argument : String(argument.dropLast())), number > 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow else { return nil }
        bytesPerSecond = bytes
    }

    static var defaultValueDescription: String { "bytes a second, e.g. 500k or 2M" }
}
