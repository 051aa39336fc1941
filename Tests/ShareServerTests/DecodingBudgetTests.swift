import ShareTestSupport
import Testing

@testable import ShareServer

/// Pictures decoded at once never hold more memory than the budget: one that does not fit waits its turn, in order,
/// and is told to come back later when its turn does not come in time.
@Suite struct DecodingBudgetTests {
    @Test func aPictureThatDoesNotFitWaitsUntilRoomIsGivenBack() async throws {
        let budget = DecodingBudget(capacity: 150)
        #expect(await budget.reserve(100, waitingAtMost: .seconds(60)))
        async let second = budget.reserve(100, waitingAtMost: .seconds(60))
        try await waitUntil("a picture waits") { budget.waiting == 1 }
        #expect(await !budget.reserve(10, waitingAtMost: .milliseconds(1)), "it waits behind the second, in order, and gives up")
        budget.release(100)
        #expect(await second, "admitted once the first gave its memory back")
        budget.release(100)
        #expect(await budget.reserve(150, waitingAtMost: .milliseconds(1)), "everything given back")
    }

    @Test func onesWaitingBehindAPictureThatGaveUpAreLetIn() async throws {
        let budget = DecodingBudget(capacity: 150)
        #expect(await budget.reserve(100, waitingAtMost: .seconds(60)))
        async let large = budget.reserve(100, waitingAtMost: .seconds(5))
        try await waitUntil("a picture waits") { budget.waiting == 1 }
        async let small = budget.reserve(10, waitingAtMost: .seconds(60))
        try await waitUntil("a second picture waits behind it") { budget.waiting == 2 }
        #expect(await !large, "the large one gives up")
        #expect(await small, "and the small one behind it fits beside the first")
    }
}
