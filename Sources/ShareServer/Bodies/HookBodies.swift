import ShareHistory
import ShareHooks
import ShareKit

/// The body of `POST /hooks` and `PATCH /hooks/{id}`: where a hook sends, which events, what it is for, and (to
/// change) whether it sends.
struct HookBody: Decodable {
    var url: String?
    var events: [String]?
    var description: String?
    var enabled: Bool?

    /// A new hook, its fields checked; its URL's host resolved and refused when it is not public and `allowPrivate`
    /// is not set.
    func draft(allowPrivate: Bool) async throws -> HookDraft {
        guard let url else { throw ShareError.invalidField("url", "is required: where the events are posted") }
        // The fields that need no lookup first.
        let events = try Self.checked(events ?? ["*"])
        let description = try Self.checked(description: description ?? "")
        return HookDraft(
            url: try await Self.checked(url, allowPrivate: allowPrivate), events: events, description: description, secret: HookSecret.make())
    }

    /// What a `PATCH` changes, checked the same way.
    func change(allowPrivate: Bool) async throws -> HookChange {
        let events = try events.map(Self.checked)
        let description = try description.map { text throws(ShareError) in try Self.checked(description: text) }
        return HookChange(
            url: try await url.asyncMap { try await Self.checked($0, allowPrivate: allowPrivate) }, events: events, description: description,
            enabled: enabled)
    }

    private static func checked(_ url: String, allowPrivate: Bool) async throws -> String {
        _ = try await HookAddress.check(url, allowPrivate: allowPrivate)
        return url
    }

    private static func checked(_ events: [String]) throws(ShareError) -> [String] {
        guard !events.isEmpty else { throw .invalidField("events", "must name at least one event, or \"*\" for every one") }
        if let unknown = events.first(where: { $0 != "*" && !Hook.eventNames.contains($0) }) {
            throw .invalidField(
                "events", "names '\(unknown)', which is none of \"*\", \(Hook.eventNames.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return events.contains("*") ? ["*"] : Array(Set(events)).sorted()
    }

    private static func checked(description: String) throws(ShareError) -> String {
        guard description.count <= 200, !description.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField("description", "must be at most 200 characters, with no control characters")
        }
        return description
    }
}

extension Optional {
    fileprivate func asyncMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped) async throws -> Mapped? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
