import ShareKit
import Testing

@Suite struct TimestampTests {
    @Test func writesUTCWithMilliseconds() {
        #expect(Timestamp(millisecondsSinceEpoch: 1_610_886_896_789).description == "2021-01-17T12:34:56.789Z")
        #expect(Timestamp(millisecondsSinceEpoch: 0).description == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(millisecondsSinceEpoch: -1).description == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.earliest.description == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp.latest.description == "9999-12-31T23:59:59.999Z")
    }

    @Test(arguments: [
        ("2021-01-17T12:34:56.789Z", "2021-01-17T12:34:56.789Z"),
        ("2021-01-17T21:34:56.789+09:00", "2021-01-17T12:34:56.789Z"),
        ("2021-01-17T07:34:56-05:00", "2021-01-17T12:34:56.000Z"),
        ("2021-01-17t12:34:56.7z", "2021-01-17T12:34:56.700Z"),
        ("2021-01-17 12:34:56.123456789Z", "2021-01-17T12:34:56.123Z"),
        ("2021-01-01T00:30:00+01:00", "2020-12-31T23:30:00.000Z"),
        ("2024-02-29T23:59:59.999Z", "2024-02-29T23:59:59.999Z"),
    ])
    func acceptsAnyOffsetAndConvertsToUTC(input: String, utc: String) {
        #expect(Timestamp(rfc3339: input)?.description == utc)
    }

    @Test(arguments: [
        "", "2021-01-17", "2021-01-17T12:34:56", "2021-01-17T12:34Z", "2021-02-30T00:00:00Z", "2021-01-17T24:00:00Z",
        "2021-01-17T12:60:00Z", "2021-01-17T23:59:60Z", "2021-01-17T12:34:56.Z", "2021-01-17T12:34:56+0900",
        "2021-01-17T12:34:56+24:00", "0000-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00", "２０２１-01-17T12:34:56Z",
        "2021-01-17T12:34:56Zjunk",
    ])
    func rejectsAnythingThatIsNotAnRFC3339Time(input: String) {
        #expect(Timestamp(rfc3339: input) == nil)
    }

    @Test func roundTripsThroughItsOwnText() {
        for milliseconds: Int64 in [-62_167_219_200_000, -86_400_001, 0, 951_782_400_000, 4_102_444_800_123, 253_402_300_799_999] {
            let time = Timestamp(millisecondsSinceEpoch: milliseconds)
            #expect(Timestamp(rfc3339: time.description) == time)
        }
    }
}

@Suite struct CalendarDayTests {
    @Test func acceptsRealDaysOnly() {
        #expect(CalendarDay("2021-01-17")?.description == "2021-01-17")
        #expect(CalendarDay("2024-02-29") != nil)
        #expect(CalendarDay("2023-02-29") == nil)
        #expect(CalendarDay("1900-02-29") == nil)
        #expect(CalendarDay("2000-02-29") != nil)
        #expect(CalendarDay("2021-1-17") == nil)
        #expect(CalendarDay("2021-01-17 ") == nil)
        #expect(CalendarDay("2021/01/17") == nil)
    }

    @Test func nextDayCrossesMonthsAndYears() {
        #expect(CalendarDay("2021-12-31")?.next.description == "2022-01-01")
        #expect(CalendarDay("2024-02-28")?.next.description == "2024-02-29")
        #expect(CalendarDay("1969-12-31")?.next.description == "1970-01-01")
    }
}
