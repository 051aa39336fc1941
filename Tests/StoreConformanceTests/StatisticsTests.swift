import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Statistics: counts and bytes per type and per period in any zone, and the running totals they are read from.
@Suite struct StatisticsTests {
    /// Two users change their histories side by side with every kind of change: the running totals stay the records'
    /// own, and each user's statistics are their records' alone. Were they to drift, the storage bar, `share stats`
    /// and quotas would show numbers that no listing adds up to.
    @Test(arguments: Backend.allCases)
    func theRunningTotalsStayTheRecordsOwnAfterEveryKindOfChange(_ backend: Backend) async throws {
        try await backend.withStore { store in
            var alice = RandomChanges(store, owner: "alice")
            var bob = RandomChanges(store, owner: "bob", seed: 23)
            for _ in 0..<3 {
                try await alice.apply(40)
                try await bob.apply(20)
                #expect(try await RunningTotalsCheck.totalsThatDiffer(store) == 0)
            }
            #expect(alice.kindsMade == RandomChanges.Kind.allCases.count, "every kind of change was tried")
            for owner in ["alice", "bob"] {
                try await RunningTotalsCheck.compareEveryQuery(store.history(of: owner, quota: nil), owner)
            }
        }
    }

    private func stats(
        _ database: any HistoryStore, _ parameters: [(name: String, value: String)], by period: StatsPeriod = .day
    ) async throws -> ShareStats {
        try await database.stats(ShareQuery(parameters: parameters, defaultZone: ZonedCalendar(identifier: "UTC")!), by: period)
    }

    @Test(arguments: Backend.allCases)
    func totalsPerTypeAndPerDayFollowTheFilters(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("a.pdf", size: 100, at: "2021-01-17T01:00:00Z")
            try await database.sharedHistory.add("b.pdf", size: 50, at: "2021-01-17T23:00:00Z")
            try await database.sharedHistory.add("c.jpg", size: 7, at: "2021-01-18T10:00:00Z")
            try await database.sharedHistory.add("d.txt", size: 1, folder: "/other", at: "2021-01-18T10:00:00Z")

            let all = try await stats(database.sharedHistory, [])
            #expect(all.count == 4 && all.bytes == 158)
            #expect(all.types == ["pdf": .init(count: 2, bytes: 150), "image": .init(count: 1, bytes: 7), "txt": .init(count: 1, bytes: 1)])
            #expect(all.periods == [.init(period: "2021-01-17", count: 2, bytes: 150), .init(period: "2021-01-18", count: 2, bytes: 8)])

            let rootPDFs = try await stats(database.sharedHistory, [("folder", "/"), ("type", "pdf")])
            #expect(rootPDFs.count == 2 && rootPDFs.bytes == 150)
            #expect(
                try await stats(database.sharedHistory, [("q", "nothing-like-this")])
                    == ShareStats(count: 0, bytes: 0, types: [:], by: .day, periods: []))
        }
    }

    /// A filter matching under a tenth of the history is read through an index, one matching more by reading the
    /// table whole: either way every match is counted once.
    @Test(arguments: Backend.allCases)
    func fewMatchesAndMostMatchesAreCountedAlike(_ backend: Backend) async throws {
        try await backend.withStore { database in
            for index in 0..<30 { try await database.sharedHistory.add("note-\(index).txt", size: 1, at: "2021-01-17T10:00:00Z") }
            try await database.sharedHistory.add("a.pdf", size: 5, at: "2021-01-18T10:00:00Z")
            let few = try await stats(database.sharedHistory, [("type", "pdf")])
            #expect(few.count == 1 && few.bytes == 5 && few.periods == [.init(period: "2021-01-18", count: 1, bytes: 5)])
            let most = try await stats(database.sharedHistory, [("type", "txt"), ("from", "2021-01-17")])
            #expect(most.count == 30 && most.types == ["txt": .init(count: 30, bytes: 30)])
            #expect(most.periods == [.init(period: "2021-01-17", count: 30, bytes: 30)])
        }
    }

    @Test(arguments: Backend.allCases)
    func daysAreCountedInTheRequestedZoneAcrossADSTChange(_ backend: Backend) async throws {
        try await backend.withStore { database in
            // New York: 2021-03-14 is the spring-forward day (-05:00 before 07:00Z, -04:00 after).
            try await database.sharedHistory.add("before.txt", size: 1, at: "2021-03-14T04:59:00Z")  // 23:59 on the 13th
            try await database.sharedHistory.add("start.txt", size: 1, at: "2021-03-14T05:00:00Z")  // 00:00 on the 14th
            try await database.sharedHistory.add("end.txt", size: 1, at: "2021-03-15T03:59:00Z")  // 23:59 on the 14th (EDT)
            try await database.sharedHistory.add("after.txt", size: 1, at: "2021-03-15T04:00:00Z")  // 00:00 on the 15th
            try await database.sharedHistory.add("old.txt", size: 1, at: "1965-06-01T12:00:00Z")
            let newYork = try await stats(database.sharedHistory, [("tz", "America/New_York")])
            #expect(newYork.periods.map(\.period) == ["1965-06-01", "2021-03-13", "2021-03-14", "2021-03-15"])
            #expect(newYork.periods.map(\.count) == [1, 1, 2, 1])
        }
    }

    /// A window that starts or ends inside a UTC day counts that day's records inside it and none outside, whichever
    /// part of the day is the longer.
    @Test(arguments: Backend.allCases)
    func aWindowCutInsideADayCountsOnlyTheRecordsInsideIt(_ backend: Backend) async throws {
        try await backend.withStore { database in
            for time in ["00:00:30", "12:00:00", "13:00:00", "23:59:30"] {
                try await database.sharedHistory.add("a.pdf", size: 10, at: "2021-01-17T\(time)Z")
            }
            let windows: [([(name: String, value: String)], Int)] = [
                ([("from", "2021-01-17T00:01:00Z")], 3), ([("from", "2021-01-17T00:01:00Z"), ("to", "2021-01-17T23:59:00Z")], 2),
                ([("from", "2021-01-17T12:30:00Z")], 2), ([("to", "2021-01-17T12:30:00Z")], 2),
            ]
            for (window, count) in windows {
                for period in StatsPeriod.allCases {
                    let answer = try await stats(database.sharedHistory, window, by: period)
                    #expect(answer.count == count && answer.bytes == Decimal(10 * count), "\(window) by \(period)")
                    #expect(answer.periods.map(\.count).reduce(0, +) == (period == .none ? 0 : count), "\(window) by \(period)")
                }
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func byteTotalsBeyond64BitsStayExact(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("huge-1.bin", size: Int64.max)
            try await database.sharedHistory.add("huge-2.bin", size: Int64.max)
            let total = try await stats(database.sharedHistory, [])
            #expect(total.bytes == Decimal(string: "18446744073709551614"))
        }
    }
}
