import Foundation
import ShareChildProcess
import ShareKit

/// A webhook receiver of one test's own (`scripts/hook-receiver`): it checks each delivery's signature with the
/// Standard Webhooks library, as a receiver does, answers as it is told, and keeps what it received. Stopped with the
/// value.
final class HookReceiver: Sendable {
    let folder: String
    let url: String

    /// One request it received.
    struct Delivery: Decodable {
        let id: String?
        let timestamp: String?
        let signatures: [String]
        let body: String
        let verified: Bool
        let answer: String

        var message: EventMessage? { try? WireJSON.decoder().decode(EventMessage.self, from: Data(body.utf8)) }
    }

    init() throws {
        folder = try ChildProcess.output(of: Self.script, ["start"]).split(separator: "\n").last.map(String.init) ?? ""
        url = try String(contentsOfFile: "\(folder)/url", encoding: .utf8)
    }

    deinit {
        _ = try? ChildProcess.finished(Self.script, ["stop", folder])
    }

    /// The secrets signatures are checked against.
    func trust(_ secrets: [String]) throws {
        try secrets.joined(separator: "\n").write(toFile: "\(folder)/secrets", atomically: true, encoding: .utf8)
    }

    /// How to answer the next requests, in turn (`500`, `410`, `503 retry-after=2`, `hang`); 204 after them.
    func answer(_ answers: [String]) throws {
        try answers.map { $0 + "\n" }.joined().write(toFile: "\(folder)/answers", atomically: true, encoding: .utf8)
    }

    func received() throws -> [Delivery] {
        let text = try String(contentsOfFile: "\(folder)/received.jsonl", encoding: .utf8)
        // A line the receiver is still writing (not yet ended by its newline) is read next time.
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            try JSONDecoder().decode(Delivery.self, from: Data($0.utf8))
        }
    }

    private static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../scripts/hook-receiver")
        .standardized.path
}
