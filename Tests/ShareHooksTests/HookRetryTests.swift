import ShareHistory
import ShareKit
import Testing

@testable import ShareHooks

/// A failed delivery waits its turn on the schedule, with a little jitter so that hooks failing together do not
/// come back together, or as long as the receiver asked; the schedule spent, the hook stops.
@Suite struct HookRetryTests {
    private static let now = Timestamp(millisecondsSinceEpoch: 1_800_000_000_000)

    private static func due(attempt: Int) -> DueDelivery {
        let event = HistoryEvent(
            seq: 42, at: now, action: .downloaded, share: HistoryEvent.Subject(id: "K7M2", name: "a.pdf", folder: "/", size: 1, type: "pdf"),
            by: "link")
        return DueDelivery(hookID: "h", url: "https://example.com/", secrets: [HookSecret.make()], event: event, attempt: attempt, isResend: false)
    }

    private static func sender() -> HookSender {
        var settings = HooksSettings()
        settings.retrySeconds = [5, 300]
        return HookSender(settings: settings, version: "test")
    }

    @Test func eachRetryWaitsItsStepOfTheScheduleWithinATenth() {
        for (attempt, wait) in [(1, 5_000), (2, 300_000)] {
            guard case .retry(let at) = Self.sender().next(after: Self.due(attempt: attempt), now: Self.now, retryAfter: nil) else {
                Issue.record("attempt \(attempt) is retried")
                continue
            }
            let waited = at.millisecondsSinceEpoch - Self.now.millisecondsSinceEpoch
            #expect(Int64(Double(wait) * 0.9)...Int64(Double(wait) * 1.1) ~= waited)
        }
    }

    @Test func aSpentScheduleDisablesTheHookAndRetryAfterIsHonoured() {
        #expect(
            Self.sender().next(after: Self.due(attempt: 3), now: Self.now, retryAfter: nil) == .disable(reason: "3 attempts to send event 42 failed"))
        guard case .retry(let at) = Self.sender().next(after: Self.due(attempt: 1), now: Self.now, retryAfter: 120) else {
            Issue.record("retried")
            return
        }
        #expect((108_000...132_000).contains(at.millisecondsSinceEpoch - Self.now.millisecondsSinceEpoch))
        #expect(HookSender.seconds(ofRetryAfter: "Fri, 15 Jan 2027 08:00:30 GMT", now: Self.now) == 30, "an HTTP date")
        #expect(HookSender.seconds(ofRetryAfter: "30", now: Self.now) == 30)
        #expect(HookSender.seconds(ofRetryAfter: "soon", now: Self.now) == nil)
    }
}
