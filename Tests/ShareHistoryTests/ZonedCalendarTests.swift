import ShareHistory
import ShareKit
import Testing

@Suite struct ZonedCalendarTests {
    private func range(_ day: String, _ zone: String) -> (String, String) {
        let range = ZonedCalendar(identifier: zone)!.range(of: CalendarDay(day)!)
        return (range.lowerBound.description, range.upperBound.description)
    }

    @Test func aDayInUTCIsMidnightToMidnight() {
        #expect(range("2021-01-17", "UTC") == ("2021-01-17T00:00:00.000Z", "2021-01-18T00:00:00.000Z"))
    }

    @Test func aDayEastOfUTCStartsTheEveningBefore() {
        #expect(range("2021-01-17", "Asia/Shanghai") == ("2021-01-16T16:00:00.000Z", "2021-01-17T16:00:00.000Z"))
        #expect(range("2021-01-17", "Asia/Kolkata") == ("2021-01-16T18:30:00.000Z", "2021-01-17T18:30:00.000Z"))
    }

    @Test func aDayWestOfUTCEndsTheMorningAfter() {
        #expect(range("2021-01-17", "America/Los_Angeles") == ("2021-01-17T08:00:00.000Z", "2021-01-18T08:00:00.000Z"))
    }

    @Test func springForwardDaysHave23Hours() {
        // New York moved from -05:00 to -04:00 at 02:00 local on 2021-03-14.
        #expect(range("2021-03-14", "America/New_York") == ("2021-03-14T05:00:00.000Z", "2021-03-15T04:00:00.000Z"))
    }

    @Test func fallBackDaysHave25Hours() {
        // Paris moved from +02:00 to +01:00 at 03:00 local on 2021-10-31.
        #expect(range("2021-10-31", "Europe/Paris") == ("2021-10-30T22:00:00.000Z", "2021-10-31T23:00:00.000Z"))
    }

    @Test func aDayWhoseMidnightIsSkippedStartsWhenTheGapEnds() {
        // São Paulo jumped from 00:00 to 01:00 (-03:00 to -02:00) on 2018-11-04: the day began at 01:00 local.
        #expect(range("2018-11-04", "America/Sao_Paulo") == ("2018-11-04T03:00:00.000Z", "2018-11-05T02:00:00.000Z"))
    }

    @Test func unknownZonesAreNotGuessed() {
        #expect(ZonedCalendar(identifier: "Mars/Olympus") == nil)
        #expect(ZonedCalendar(identifier: "") == nil)
    }
}
