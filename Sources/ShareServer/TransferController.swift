import Foundation
import Hummingbird
import ShareKit
import ShareStore

/// `POST /share/import` and `GET /share/export`: the whole history in and out, streamed both ways.
struct TransferController {
    let database: ShareDatabase
    /// The largest single record an import accepts; the stream as a whole has no limit.
    let maxRecordBytes: Int

    /// Records staged per transaction.
    static let batchSize = 10_000
    /// Records read per chunk of an export.
    static let exportChunkSize = 1000

    func addRoutes(to group: RouterGroup<ShareRequestContext>) {
        group.post("share/import", use: importShares)
        group.get("share/export", use: exportShares)
        group.rejectMethods(on: "share/import", except: [.post])
        group.rejectMethods(on: "share/export", except: [.get])
    }

    /// Reads a JSON array or NDJSON as it arrives and stages it in batches; when the stream ends, the records
    /// join the history together. Valid records are kept; each invalid one is reported with its line. A stream
    /// that stops making sense ends the import at that line; one that breaks off imports nothing.
    @Sendable func importShares(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let staging = try await database.beginImport()
        do {
            var report = try await stage(request.body, in: staging)
            for problem in try await database.finishImport(staging) {
                report.imported -= 1
                report.reject(line: problem.line, detail: problem.detail)
            }
            context.logger.info("import finished", metadata: ["imported": "\(report.imported)", "rejected": "\(report.rejected)"])
            return try JSONBody.response(report)
        } catch {
            await database.discardImport(staging)
            throw error
        }
    }

    private func stage(_ body: RequestBody, in staging: ImportStaging) async throws -> ImportReport {
        var splitter = RecordStreamSplitter(maxRecordBytes: maxRecordBytes)
        var report = ImportReport()
        var batch: [(line: Int, share: NewShare)] = []
        var records: [RecordStreamSplitter.Record] = []
        var failure: RecordStreamSplitter.Failure?
        var body = body.makeAsyncIterator()
        // One batch is stored while the next is read and checked: the two run side by side, in order.
        var storing: (count: Int, task: Task<[ImportReport.Problem], any Error>)?
        let database = database
        func settle() async throws {
            guard let (count, task) = storing else { return }
            storing = nil
            let problems = try await task.value
            report.imported += count - problems.count
            for problem in problems { report.reject(line: problem.line, detail: problem.detail) }
        }
        func send() async throws {
            try await settle()
            guard !batch.isEmpty else { return }
            let records = batch
            storing = (records.count, Task { try await database.stageImport(records, in: staging) })
            batch.removeAll(keepingCapacity: true)
        }
        do {
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
                            id: fields.id, name: fields.name, folder: fields.folder, createdAt: fields.createdAt,
                            size: fields.size?.value)
                        batch.append((record.line, share))
                    } catch {
                        report.reject(line: record.line, detail: Problems.detail(for: error))
                    }
                    if batch.count >= Self.batchSize { try await send() }
                }
                records.removeAll(keepingCapacity: true)
                if buffer == nil { break }
            }
            try await send()
            try await settle()
        } catch {
            // The import is abandoned: let the batch being stored finish before its table is dropped.
            _ = try? await storing?.task.value
            throw error
        }
        if let failure { report.reject(line: failure.line, detail: "\(failure.reason); the import stopped here") }
        report.problems.sort { $0.line < $1.line }
        return report
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
