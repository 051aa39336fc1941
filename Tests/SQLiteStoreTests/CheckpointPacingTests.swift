import Testing

@testable import ShareSQLite

/// How long a checkpoint of the write-ahead log holds writes while it waits for readers, and how often it tries:
/// a wait too short for the reads in flight gives up after holding writes for nothing while the log grows past
/// its limit; tries close together behind a long export would hold writes most of the time.
@Suite struct CheckpointPacingTests {
    @Test func theNextWaitIsTwiceWhatTheLastCheckpointNeededWithinBounds() {
        var pacing = CheckpointPacing()
        pacing.restarted(took: .milliseconds(300))
        #expect(pacing.wait == .milliseconds(600))
        pacing.restarted(took: .milliseconds(5))
        #expect(pacing.wait == CheckpointPacing.shortestWait)
        pacing.restarted(took: .seconds(3))
        #expect(pacing.wait == CheckpointPacing.longestWait)
    }

    @Test func oneTryThatGaveUpIsRetriedAtOnceWithALongerWait() {
        var pacing = CheckpointPacing()
        pacing.restarted(took: .milliseconds(100))
        let now = ContinuousClock.now
        pacing.gaveUp(after: .milliseconds(200), at: now)
        #expect(pacing.wait == .milliseconds(400))
        #expect(pacing.mayTry(at: now))
    }

    @Test func triesThatKeepGivingUpLetWritesGoOnThreeTimesAsLongAsTheyHeldThem() {
        var pacing = CheckpointPacing()
        let now = ContinuousClock.now
        pacing.gaveUp(after: .seconds(1), at: now)
        pacing.gaveUp(after: .seconds(1), at: now)
        #expect(!pacing.mayTry(at: now + .milliseconds(999)) && pacing.mayTry(at: now + .seconds(1)))
        for _ in 0..<5 { pacing.gaveUp(after: .seconds(1), at: now) }
        #expect(!pacing.mayTry(at: now + .milliseconds(2999)) && pacing.mayTry(at: now + .seconds(3)))
        #expect(pacing.wait == CheckpointPacing.longestWait, "never longer than the longest")
        pacing.restarted(took: .milliseconds(400))
        #expect(pacing.mayTry(at: now), "once the log started over, the next checkpoint may come when it is needed")
    }
}
