import Testing

@testable import ShareServer

/// The bound of uploads receiving at once: nobody's steady uploads keep everyone else's out.
@Suite struct UploadSlotsTests {
    @Test func oneUserHoldsAQuarterOfTheSlotsAndOthersStillFindOne() {
        let slots = UploadSlots(limit: 16)
        for _ in 0..<4 { #expect(slots.enter(for: "mallory")) }
        #expect(!slots.enter(for: "mallory"), "a fifth of mallory's waits")
        #expect(slots.enter(for: "alice"), "alice still uploads")
        slots.leave(for: "mallory")
        #expect(slots.enter(for: "mallory"), "a slot given back is mallory's again")
    }

    @Test func withNobodySignedInTheOnePersonMayTakeEverySlot() {
        let slots = UploadSlots(limit: 4)
        for _ in 0..<4 { #expect(slots.enter(for: nil)) }
        #expect(!slots.enter(for: nil) && !slots.enter(for: "alice"), "never past the bound")
        slots.leave(for: nil)
        #expect(slots.enter(for: "alice"))
    }
}
