import ArgumentParser

/// A number of bytes as options take it (`--limit-rate 500k`, `--max-bytes 100MB`): a whole number with an optional
/// k, M, G or T (1000-based, as sizes are shown) and an optional B.
struct ByteAmount: ExpressibleByArgument {
    let bytes: Int64

    init?(argument: String) {
        let units: [Character: Int64] = [
            "k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000, "g": 1_000_000_000, "G": 1_000_000_000,
            "t": 1_000_000_000_000, "T": 1_000_000_000_000,
        ]
        var text = Substring(argument)
        if text.count > 1, text.last == "B" || text.last == "b" { text = text.dropLast() }
        let unit = text.last.flatMap { units[$0] }
        guard let number = Int64(unit == nil ? text : text.dropLast()), number > 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    static var defaultValueDescription: String { "bytes, e.g. 500k, 2M or 1GB" }
}
