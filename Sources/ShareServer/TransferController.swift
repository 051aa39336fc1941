import Foundation
import Hummingbird
import ShareKit
import ShareStore

/// `POST /share/import` and `GET /share/export`: the whole history in and out, streamed both ways.
struct TransferController {
    let database: ShareDatabase
    /// The largest single record an import accepts; the stream as a whole has no limit.
    let maxRecordBytes: Int

    /// Records stored per transaction: large batches rewrite each touched index page fewer times.
    static let batchSize = 10_000
    /// Records read per chunk of an export.
    static let exportChunkSize = 1000

    func addRoutes(to group: RouterGroup<ShareRequestContext>) {
        group.post("share/import", use: importShares)
        group.get("share/export", use: exportShares)
        group.rejectMethods(on: "share/import", except: [.post])
        group.rejectMethods(on: "share/export", except: [.get])
    }

    /// Reads a JSON array or NDJSON as it arrives and stores it in batches. Valid records are kept; each invalid
    /// one is reported with its line. A stream that stops making sense ends the import at that line.
    @Sendable func importShares(_ request: Request, context: ShareRequestContext) async throws -> Response {
        var splitter = RecordStreamSplitter(maxRecordBytes: maxRecordBytes)
        var report = ImportReport()
        var batch: [(line: Int, share: NewShare)] = []
        var records: [RecordStreamSplitter.Record] = []
        var failure: RecordStreamSplitter.Failure?
        var body = request.body.makeAsyncIterator()
        while failure == nil {
            let buffer = try await body.next()
            do {
                if let buffer { try splitter.feed(buffer.readableBytesView, into: &records) } else { try splitter.finish() }
            } catch {
                failure = error
            }
            for record in records {
                do {
                    let fields = try JSONBody.decode(ShareController.CreateBody.self, from: Data(record.bytes))
                    let share = try NewShare(
                        id: fields.id, name: fields.name, folder: fields.folder, createdAt: fields.createdAt, size: fields.size?.value)
                    batch.append((record.line, share))
                } catch {
                    report.reject(line: record.line, detail: Problems.detail(for: error))
                }
                if batch.count >= Self.batchSize { try await store(&batch, into: &report) }
            }
            records.removeAll(keepingCapacity: true)
            if buffer == nil { break }
        }
        if let failure { report.reject(line: failure.line, detail: "\(failure.reason); the import stopped here") }
        try await store(&batch, into: &report)
        context.logger.info("import finished", metadata: ["imported": "\(report.imported)", "rejected": "\(report.rejected)"])
        return try JSONBody.response(report)
    }

    private func store(_ batch: inout [(line: Int, share: NewShare)], into report: inout ImportReport) async throws {
        guard !batch.isEmpty else { return }
        let problems = try await database.importShares(batch)
        report.imported += batch.count - problems.count
        for problem in problems { report.reject(line: problem.line, detail: problem.detail) }
        batch.removeAll(keepingCapacity: true)
    }

    /// Every live record as NDJSON, oldest stored first, read a chunk at a time while it is sent.
    @Sendable func exportShares(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let database = database
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                var after: Int64 = 0
                while true {
                    let chunk = try await database.exportChunk(after: after, limit: Self.exportChunkSize)
                    guard let last = chunk.last else { break }
                    try await writer.write(ByteBuffer(bytes: chunk.lines))
                    after = last
                }
                try await writer.finish(nil)
            })
    }
}
