import Foundation
import ShareClient
import ShareKit

/// Fetches a listing (every page with `--all`) and prints it as a table or as the server's JSON.
struct Listing {
    let query: ListingQuery
    let all: Bool

    func run(in context: CommandContext) throws {
        var page = try context.call { () throws(ClientError) in try context.api.list(query) }
        var pages = [page]
        var followed: Set<String> = []
        while all, let next = page.next {
            // A server that announces a page it already gave would be followed for ever.
            guard followed.insert(next).inserted else {
                throw CommandFailure("the server announced the next page '\(next)' a second time; stopping", status: .failure)
            }
            page = try context.call { () throws(ClientError) in try context.api.page(at: next) }
            pages.append(page)
        }
        if context.json {
            context.printJSON(pages.count == 1 ? page.body : Self.joinArrays(pages.map(\.body)))
            return
        }
        let records = pages.flatMap(\.records)
        if records.isEmpty {
            context.print("No shares.")
            return
        }
        context.output.write(ShareTable(zone: context.zone, style: context.style).render(records))
        let count = records.count == 1 ? "1 share" : "\(records.count) shares"
        context.print(page.next == nil ? count : "\(count) shown; more match (use --all or a larger --limit)")
    }

    /// One JSON array holding the elements of several, byte for byte as the server wrote them.
    static func joinArrays(_ bodies: [Data]) -> Data {
        let elements = bodies.compactMap { body -> String? in
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespacesAndNewlines)
            return inner.isEmpty ? nil : inner
        }
        return Data("[\(elements.joined(separator: ","))]".utf8)
    }
}
