import Testing

@testable import ShareServer

/// How long a checkpoint of the write-ahead log holds writes while it waits for readers, and how often it tries:
/// a wait too short for the reads in flight gives up after holding writes for nothing while the log grows past
/// its limit; tries too close together behind a long export would hold writes most of the time.
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

    @Test func aTryThatGaveUpWaitsLongerNextTimeAndLetsWritesGoOnThreeTimesAsLongFirst() {
        var pacing = CheckpointPacing()
        pacing.restarted(took: .milliseconds(100))
        let now = ContinuousClock.now
        #expect(pacing.mayTry(at: now))
        pacing.gaveUp(after: .milliseconds(200), at: now)
        #expect(pacing.wait == .milliseconds(400))
        #expect(!pacing.mayTry(at: now + .milliseconds(599)))
        #expect(pacing.mayTry(at: now + .milliseconds(600)))
        pacing.gaveUp(after: .milliseconds(400), at: now)
        pacing.gaveUp(after: .milliseconds(800), at: now)
        #expect(pacing.wait == CheckpointPacing.longestWait, "never longer than the longest")
    }
}
