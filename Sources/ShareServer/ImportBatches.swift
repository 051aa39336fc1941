import ShareHistory
import ShareKit

/// The checked records of an import on their way into its staging table, a batch at a time: one batch is
/// stored while the next is filled, so that reading the stream and storing it run side by side, in order.
struct ImportBatches {
    /// Records staged per transaction.
    static let size = 10_000

    let session: any ShareImport
    private(set) var report = ImportReport()
    private var filling: [(line: Int, share: NewShare)] = []
    private var storing: (count: Int, task: Task<[ImportReport.Problem], any Error>)?

    init(session: any ShareImport) {
        self.session = session
    }

    mutating func add(_ share: NewShare, line: Int) async throws {
        filling.append((line, share))
        if filling.count >= Self.size { try await send() }
    }

    mutating func reject(line: Int, detail: String) {
        report.reject(line: line, detail: detail)
    }

    /// Stores what is left and returns the report, its problems in line order.
    mutating func finish() async throws -> ImportReport {
        try await send()
        try await settle()
        report.problems.sort { $0.line < $1.line }
        return report
    }

    /// Lets the batch being stored finish: the import is abandoned, and its table is about to be dropped.
    func abandon() async {
        _ = try? await storing?.task.value
    }

    private mutating func send() async throws {
        try await settle()
        guard !filling.isEmpty else { return }
        let (batch, session) = (filling, session)
        storing = (batch.count, Task { try await session.stage(batch) })
        filling.removeAll(keepingCapacity: true)
    }

    private mutating func settle() async throws {
        guard let (count, task) = storing else { return }
        storing = nil
        let problems = try await task.value
        report.imported += count - problems.count
        for problem in problems { report.reject(line: problem.line, detail: problem.detail) }
    }
}
