/// What an event says to a person, as `share watch` prints it and the feed titles it: `report.pdf was downloaded
/// (2 downloads)`.
public enum EventSentence {
    public static func of(_ message: EventMessage) -> String {
        let data = message.data
        let name = data.share.name
        switch message.type {
        case "share.created": return "\(name) was added"
        case "share.uploaded": return "\(name) was uploaded"
        case "share.renamed": return "\(data.from ?? name) was renamed \(data.to ?? name)"
        case "share.moved": return "\(name) was moved from \(data.from ?? "?") to \(data.to ?? "?")"
        case "share.trashed": return "\(name) was put in the trash"
        case "share.restored": return "\(name) was restored from the trash"
        case "share.revoked": return "\(name)'s link was revoked"
        case "share.expired": return "\(name)'s link was refused: it has expired"
        case "share.expiry-changed": return "\(name)'s link limits were changed"
        case "share.downloaded":
            let count = data.downloads.map { " (\($0) download\($0 == 1 ? "" : "s"))" } ?? ""
            return "\(name) was downloaded\(count)"
        case "share.received": return "\(name) was received"
        default: return "\(name): \(message.type)"
        }
    }
}
