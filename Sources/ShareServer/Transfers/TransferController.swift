import Foundation
import Hummingbird
import Metrics
import ShareHistory
import ShareKit

/// `POST /share/import` and `GET /share/export`: the whole history in and out, streamed both ways.
struct TransferController {
    let histories: Histories
    /// The largest single record an import accepts; the stream as a whole has no limit.
    let maxRecordBytes: Int

    /// Records read per chunk of an export.
    static let exportChunkSize = 1000

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.post("share/import", use: importShares)
        routes.get("share/export", use: exportShares)
        // The generated HEAD would claim `Content-Length: 0`: the export's length is not known before it is
        // written, so HEAD answers GET's headers, streamed framing included, without the body.
        routes.head("share/export") { request, context in
            var response = try await exportShares(request, context: context)
            response.body = ResponseBody { writer in try await writer.finish(nil) }
            return response
        }
        routes.rejectMethods(on: "share/import", except: [.post])
        routes.rejectMethods(on: "share/export", except: [.get])
        return routes
    }

    /// Reads a JSON array or NDJSON as it arrives and stages it in batches; when the stream ends, the records
    /// join the history together. Valid records are kept; each invalid one is reported with its line. A stream
    /// that stops making sense ends the import at that line; one that breaks off imports nothing.
    @Sendable func importShares(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let choice = try histories.choose(request, context)
        let session = try await choice.history.beginImport(by: choice.by)
        do {
            var report = try await stage(request.body, in: session)
            let finished = try await session.finish()
            for problem in finished.problems { report.reject(line: problem.line, detail: problem.detail) }
            report.imported = finished.stored
            context.logger.info("import finished", metadata: ["imported": "\(report.imported)", "rejected": "\(report.rejected)"])
            Counter(label: "share_records_imported_total").increment(by: report.imported)
            return try JSONBody.response(report)
        } catch {
            await session.discard()
            throw error
        }
    }

    private func stage(_ body: RequestBody, in session: any ShareImport) async throws -> ImportReport {
        var splitter = RecordStreamSplitter(maxRecordBytes: maxRecordBytes)
        var batches = ImportBatches(session: session)
        var records: [RecordStreamSplitter.Record] = []
        var body = body.makeAsyncIterator()
        do {
            while true {
                let buffer = try await body.next()
                var failure: RecordStreamSplitter.Failure?
                do {
                    if let buffer { try splitter.feed(buffer.readableBytesView, into: &records) } else { try splitter.finish() }
                } catch {
                    failure = error
                }
                for record in records {
                    guard let bytes = record.bytes else {
                        batches.reject(line: record.line, detail: "the record is larger than \(maxRecordBytes) bytes")
                        continue
                    }
                    let share: NewShare
                    do {
                        share = try ImportLine.fields(bytes).newShare(importing: true)
                    } catch {
                        batches.reject(line: record.line, detail: error.detail)
                        continue
                    }
                    try await batches.add(share, line: record.line)
                }
                records.removeAll(keepingCapacity: true)
                if let failure {
                    batches.reject(line: failure.line, detail: "\(failure.reason); the import stopped here")
                    break
                }
                if buffer == nil { break }
            }
            return try await batches.finish()
        } catch {
            await batches.abandon()
            throw error
        }
    }

    /// Every live record (with `?trashed=include`, every record) as NDJSON, oldest stored first, read a chunk at a
    /// time while it is sent.
    @Sendable func exportShares(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let history = try histories.choose(request, context).history
        let includingTrash = try Self.includesTrash(request)
        let everyone = try exportsEveryone(request, context)
        let store = histories.store
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                var after: Int64 = 0
                while true {
                    let chunk =
                        everyone
                        ? try await store.exportEveryHistory(after: after, limit: Self.exportChunkSize, includingTrash: includingTrash)
                        : try await history.exportChunk(after: after, limit: Self.exportChunkSize, includingTrash: includingTrash)
                    guard let last = chunk.last else { break }
                    try await writer.write(ByteBuffer(bytes: chunk.lines))
                    after = last
                }
                try await writer.finish(nil)
            })
    }

    /// `?everyone=true`: an admin's export of every history under per-user histories, each line with its owner.
    private func exportsEveryone(_ request: Request, _ context: ShareRequestContext) throws -> Bool {
        guard let value = try FormEncoding.values(request.uri.query, known: ["everyone"])["everyone"] else { return false }
        guard try BooleanParameter.parse(value, parameter: "everyone") else { return false }
        guard histories.auth.histories == .perUser else {
            throw ShareError.invalidParameter("everyone", "asks for every user's history, but histories are shared: there is only one")
        }
        try histories.admins.require(context, onlyAdminsMay: "export every user's history (parameter 'everyone')")
        return true
    }

    /// `?trashed=include`: the export holds the trash too, each record with its `trashedAt`.
    private static func includesTrash(_ request: Request) throws(ShareError) -> Bool {
        guard let value = try FormEncoding.values(request.uri.query, known: ["trashed"])["trashed"] else { return false }
        guard value == "include" else { throw .invalidParameter("trashed", "must be include (or absent), got '\(value)'") }
        return true
    }
}
