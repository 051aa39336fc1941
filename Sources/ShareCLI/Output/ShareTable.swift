import Foundation
import ShareKit

/// Records as an aligned table, one row like the app's: type, name, size, local time, the link's state, share id.
/// Rendered a page at a time as pages arrive; the header comes with the first.
struct ShareTable {
    let zone: TimeZone
    let style: TerminalStyle
    private var table = GrowingTable(header: ["TYPE", "NAME", "SIZE", "SHARED", "LINK", "ID"], rightAligned: [2])

    init(zone: TimeZone, style: TerminalStyle) {
        self.zone = zone
        self.style = style
    }

    mutating func render(_ records: [ShareRecord]) -> String {
        let rows = records.map { record in
            [
                record.type.rawValue, TerminalText.escape(record.name), ByteSize.text(record.size),
                Formats.localTime(record.createdAt, in: zone), Self.link(record), TerminalText.escape(record.id),
            ]
        }
        let (header, padded) = table.pad(rows)
        var lines = header.map { [$0.map(style.bold).joined(separator: "  ")] } ?? []
        for (record, cells) in zip(records, padded) {
            let styled = cells.enumerated().map { column, text in
                switch column {
                case 0: return style.category(text, record.type)
                case 5: return style.dim(text)
                default: return text
                }
            }
            lines.append(styled.joined(separator: "  "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The link's state in a word, with its downloads when it has a limit: `open`, `open 2/5`, `spent 3/3`,
    /// `expired`, `stopped`; `-` for a record without a link.
    static func link(_ record: ShareRecord) -> String {
        guard let state = record.state else { return "-" }
        let counted = record.maxDownloads.map { " \(record.downloads ?? 0)/\($0)" } ?? ""
        switch state {
        case .active: return "open" + counted
        case .revoked: return "stopped"
        case .expired: return record.maxDownloads.map { (record.downloads ?? 0) >= $0 } == true ? "spent" + counted : "expired"
        }
    }
}
