import Foundation
import ShareClient
import ShareKit

/// Fetches a listing (every page with `--all`) and prints it as a table or as the server's JSON. With `--all`,
/// each page is printed as it arrives and then let go, so memory stays flat however many records there are.
struct Listing {
    let query: ListingQuery
    let all: Bool

    func run(in context: CommandContext) throws {
        guard all else {
            let page = try context.call { () throws(ClientError) in try context.api.list(query) }
            if context.json {
                context.printJSON(page.body)
            } else {
                show(page.records, more: page.next != nil, in: context)
            }
            return
        }
        var table = ShareTable(zone: context.zone, style: context.style)
        var array = StreamedArray(output: context.rawOutput)
        var count = 0
        try context.call { () throws(ClientError) in
            try context.api.walk(query) { page in
                count += page.records.count
                if context.json {
                    array.append(elementsOf: page.body)
                } else if !page.records.isEmpty {
                    context.output.write(table.render(page.records))
                }
            }
        }
        if context.json {
            array.close()
        } else {
            context.print(count == 0 ? "No shares." : Formats.shares(count))
        }
    }

    private func show(_ records: [ShareRecord], more: Bool, in context: CommandContext) {
        guard !records.isEmpty else { return context.print("No shares.") }
        var table = ShareTable(zone: context.zone, style: context.style)
        context.output.write(table.render(records))
        let count = Formats.shares(records.count)
        context.print(more ? "\(count) shown; more match (use --all or a larger --limit)" : count)
    }
}

/// One JSON array written piece by piece from the arrays of several pages, their elements byte for byte as the
/// server wrote them.
struct StreamedArray {
    let output: any TextOutput
    private var written = 0

    init(output: any TextOutput) {
        self.output = output
    }

    /// Writes the elements of the JSON array `body`.
    mutating func append(elementsOf body: Data) {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespacesAndNewlines)
        guard !inner.isEmpty else { return }
        output.write((written == 0 ? "[" : ",") + inner)
        written += 1
    }

    /// Ends the array (an empty one when nothing was written).
    func close() {
        output.write(written == 0 ? "[]\n" : "]\n")
    }
}
