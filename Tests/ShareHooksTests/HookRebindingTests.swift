import NIOCore
import NIOPosix
import ShareHistory
import ShareKit
import Synchronization
import Testing

@testable import ShareHooks

/// A name that resolved to a public address when it was checked may resolve to an inner one a moment later (DNS
/// rebinding): if a delivery resolved the name again, a hook could reach the service's own network.
@Suite struct HookRebindingTests {
    @Test func aDeliveryConnectsToTheAddressCheckedAndResolvesNothingAgain() async throws {
        let receiver = try await NoContentReceiver.start()
        let event = HistoryEvent(
            seq: 7, at: .now(), action: .uploaded, share: HistoryEvent.Subject(id: "K7M2", name: "a.pdf", folder: "/", size: 1, type: "pdf"),
            by: "alice")
        // `.invalid` never resolves (RFC 6761): a delivery reaches the receiver only through the address checked.
        let due = DueDelivery(
            hookID: "h", url: "http://receiver.invalid:\(receiver.port)/in", secrets: [HookSecret.make()], event: event, attempt: 1,
            isResend: false)
        var settings = HooksSettings()
        settings.timeoutSeconds = 5
        let answer = try await HookSender(settings: settings, version: "test").post(
            due, to: HookAddress.Checked(host: "receiver.invalid", address: "127.0.0.1"), now: .now())
        #expect(answer.0 == 204)
        #expect(
            receiver.requests.first?.lowercased().contains("host: receiver.invalid") == true,
            "the URL's own name, for Host and TLS: \(receiver.requests)")
        try await receiver.stop()
    }
}

/// A receiver on loopback that answers every request 204 and keeps what each request's head said.
private final class NoContentReceiver: Sendable {
    let channel: any Channel
    private let heads: Heads

    private init(channel: any Channel, heads: Heads) {
        self.channel = channel
        self.heads = heads
    }

    var port: Int { channel.localAddress?.port ?? 0 }
    var requests: [String] { heads.list.withLock { $0 } }

    static func start() async throws -> NoContentReceiver {
        let heads = Heads()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Answer(heads: heads)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return NoContentReceiver(channel: channel, heads: heads)
    }

    func stop() async throws {
        try await channel.close()
    }

    private final class Heads: Sendable {
        let list = Mutex<[String]>([])
    }

    /// Reads a request whole (its head, then the body its `Content-Length` gives) and answers 204.
    private final class Answer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let heads: Heads
        var received = ""

        init(heads: Heads) {
            self.heads = heads
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += String(buffer: unwrapInboundIn(data))
            guard let end = received.range(of: "\r\n\r\n") else { return }
            let head = String(received[..<end.lowerBound])
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            guard received.utf8.count - received[..<end.upperBound].utf8.count >= length else { return }
            heads.list.withLock { $0.append(head) }
            received = ""
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")), promise: nil)
        }
    }
}
