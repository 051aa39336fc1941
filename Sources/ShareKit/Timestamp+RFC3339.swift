extension Timestamp {
    /// Parses an RFC 3339 date-time with any offset (`2021-01-17T21:34:56.789+09:00`) and converts it to UTC.
    ///
    /// `T` may also be `t` or a space, `Z` may be `z`; fractions finer than a millisecond are truncated.
    /// Leap seconds and instants outside the years 0000–9999 (in UTC) are rejected.
    public init?(rfc3339 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, let day = CalendarDay(String(decoding: bytes[0..<10], as: UTF8.self)),
            [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = CalendarDay.number(bytes[11..<13]), let minute = CalendarDay.number(bytes[14..<16]),
            let second = CalendarDay.number(bytes[17..<19]),
            hour < 24, minute < 60, second < 60
        else { return nil }

        var index = 19
        var milliseconds: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if index - start < 3 { milliseconds = milliseconds * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            let digits = index - start
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }

        guard let offsetMinutes = Self.offsetMinutes(bytes[index...]) else { return nil }
        let local =
            Timestamp(startOf: day).millisecondsSinceEpoch
            + ((Int64(hour) * 60 + Int64(minute)) * 60 + Int64(second)) * 1000 + milliseconds
        let utc = Timestamp(millisecondsSinceEpoch: local - Int64(offsetMinutes) * 60_000)
        guard utc >= .earliest, utc <= .latest else { return nil }
        self = utc
    }

    /// `Z`, `z`, or `±HH:MM` making up the whole rest of the text.
    private static func offsetMinutes(_ bytes: ArraySlice<UInt8>) -> Int? {
        if bytes.count == 1, bytes.first == UInt8(ascii: "Z") || bytes.first == UInt8(ascii: "z") { return 0 }
        let start = bytes.startIndex
        guard bytes.count == 6, bytes[start + 3] == UInt8(ascii: ":"),
            let hours = CalendarDay.number(bytes[(start + 1)..<(start + 3)]),
            let minutes = CalendarDay.number(bytes[(start + 4)..<(start + 6)]),
            hours < 24, minutes < 60
        else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "+"): return hours * 60 + minutes
        case UInt8(ascii: "-"): return -(hours * 60 + minutes)
        default: return nil
        }
    }
}
