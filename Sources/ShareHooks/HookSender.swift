import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ShareHistory
import ShareKit

/// Sends one event to one hook, signed, and says how it went and what follows: the hook's next event after a 2xx,
/// a retry on the schedule of `[hooks] retry_seconds` (or the receiver's `Retry-After`) after anything else, the
/// hook disabled after a 410 or once the schedule is spent. Redirects are not followed; a receiver has
/// `timeout_seconds` to answer, and no more than 20 KB of what it answers is read.
public struct HookSender: Sendable {
    let settings: HooksSettings
    let userAgent: String

    static let answerBytes = 20 * 1024

    public init(settings: HooksSettings, version: String) {
        self.settings = settings
        userAgent = "share-webhooks/\(version)"
    }

    public func send(_ due: DueDelivery, now: Timestamp = .now()) async -> DeliveryOutcome {
        let started = ContinuousClock.now
        func elapsed() -> Int {
            let spent = ContinuousClock.now - started
            return Int(spent.components.seconds * 1000 + spent.components.attoseconds / 1_000_000_000_000_000)
        }
        do {
            let target = try await HookAddress.check(due.url, allowPrivate: settings.allowPrivateAddresses)
            let (status, retryAfter) = try await post(due, to: target, now: now)
            let milliseconds = elapsed()
            if (200..<300).contains(status) { return DeliveryOutcome(status: status, milliseconds: milliseconds, next: .delivered) }
            let error = "the receiver answered \(status)" + (300..<400 ~= status ? " (redirects are not followed)" : "")
            if status == 410 {
                return DeliveryOutcome(
                    status: status, milliseconds: milliseconds, error: error, next: .disable(reason: "the receiver answered 410 Gone"))
            }
            return DeliveryOutcome(
                status: status, milliseconds: milliseconds, error: error, next: next(after: due, now: .now(), retryAfter: retryAfter))
        } catch let problem as ShareError {
            return DeliveryOutcome(status: 0, milliseconds: elapsed(), error: problem.detail, next: next(after: due, now: .now(), retryAfter: nil))
        } catch {
            return DeliveryOutcome(
                status: 0, milliseconds: elapsed(), error: Self.describe(error), next: next(after: due, now: .now(), retryAfter: nil))
        }
    }

    /// Posts the event to the checked address, the URL's host kept for `Host` and TLS: its status and `Retry-After`.
    func post(_ due: DueDelivery, to target: HookAddress.Checked, now: Timestamp) async throws -> (Int, Int?) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(Int64(min(settings.timeoutSeconds, 10))), read: .seconds(Int64(settings.timeoutSeconds))))
        configuration.dnsOverride = [target.host: target.address]
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let answer = try await post(due, with: client, now: now)
            try await client.shutdown()
            return answer
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func post(_ due: DueDelivery, with client: HTTPClient, now: Timestamp) async throws -> (Int, Int?) {
        let body = due.event.message.body()
        let timestamp = now.millisecondsSinceEpoch / 1000
        var request = HTTPClientRequest(url: due.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "webhook-id", value: due.event.id)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(
            name: "webhook-signature", value: WebhookSignature.header(id: due.event.id, timestamp: timestamp, body: body, secrets: due.secrets))
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(Int64(settings.timeoutSeconds)))
        var read = 0
        for try await part in response.body {
            read += part.readableBytes
            if read >= Self.answerBytes { break }
        }
        return (Int(response.status.code), response.headers.first(name: "retry-after").flatMap { Self.seconds(ofRetryAfter: $0, now: now) })
    }

    /// When the event is tried again after failing its attempt `due.attempt` at `now` (the wait counts from the
    /// failure, not the try's start): the schedule's wait with a tenth of jitter either way, or what the receiver asked
    /// for (at most a day); disabled once the schedule is spent.
    func next(after due: DueDelivery, now: Timestamp, retryAfter: Int?) -> DeliveryOutcome.Next {
        let schedule = settings.retrySeconds
        guard due.attempt <= schedule.count else {
            return .disable(reason: "\(due.attempt) attempts to send event \(due.event.id) failed")
        }
        let wait = retryAfter.map { min($0, 86_400) } ?? schedule[due.attempt - 1]
        let jittered = Double(wait) * Double.random(in: 0.9...1.1)
        return .retry(at: Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch + Int64(jittered * 1000)))
    }

    /// `Retry-After` as seconds from `now`: a number of seconds or an HTTP date.
    static func seconds(ofRetryAfter value: String, now: Timestamp) -> Int? {
        if let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 { return seconds }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: value) else { return nil }
        return max(0, Int(date.timeIntervalSince1970) - Int(now.millisecondsSinceEpoch / 1000))
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            return "the receiver did not answer in time"
        case let error as HTTPClientError where error == .connectTimeout:
            return "the receiver could not be reached in time"
        case _ where "\(error)".contains("Connection refused"):
            return "the receiver refused the connection"
        default:
            return "the receiver could not be reached: \(error)"
        }
    }
}
