import Foundation
import ShareHistory
import ShareKit
import Testing

@testable import ShareHooks

/// Deliveries signed as Standard Webhooks 1.0 says, so that a receiver's library of it accepts them.
@Suite struct WebhookSignatureTests {
    @Test func theSpecificationsOwnExampleSignsAsItSays() {
        let body = Data(#"{"test": 2432232314}"#.utf8)
        let signature = WebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func aReplacedSecretSignsBesideTheNewOneAndAMalformedOneSignsNothing() {
        let body = Data("{}".utf8)
        let new = HookSecret.make()
        let old = HookSecret.make()
        let header = WebhookSignature.header(id: "7", timestamp: 1, body: body, secrets: [new, old, "plain-text"])
        let parts = header.split(separator: " ").map(String.init)
        #expect(parts == [new, old].compactMap { WebhookSignature.sign(id: "7", timestamp: 1, body: body, secret: $0) })
        #expect(parts.allSatisfy { $0.hasPrefix("v1,") })
    }

    @Test func aSecretIsThirtyTwoRandomBytesAfterItsPrefix() {
        let secrets = (0..<20).map { _ in HookSecret.make() }
        #expect(secrets.allSatisfy { HookSecret.key(of: $0)?.count == 32 })
        #expect(Set(secrets).count == 20)
        #expect(HookSecret.key(of: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil, "without whsec_ it is no secret of ours")
    }

    /// A hook's id is typed after `share hooks log`, `rm`, `retry`: one beginning with `-` would be read as options.
    @Test func aHooksIdNeverBeginsWithADash() {
        let ids = (0..<5_000).map { _ in HookSecret.newHookID() }
        #expect(ids.allSatisfy { $0.count == 12 && !$0.hasPrefix("-") })
        #expect(Set(ids).count == 5_000)
        #expect(Set(ids.map(\.first)).count > 60, "every other first character still comes")
    }
}
