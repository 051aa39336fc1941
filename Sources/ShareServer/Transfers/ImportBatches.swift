import ShareHistory
import ShareKit

/// The checked records of an import on their way into its staging table, a batch at a time: while one batch is
/// stored, the next is prepared and the one after it filled, so that reading the stream and storing it run side by
/// side, in order.
struct ImportBatches {
    /// Records staged per transaction: few enough that the prepared rows of two batches hold little memory.
    static let size = 2_500
    /// Batches handed on and not yet stored: reading runs no further ahead of the database than that.
    static let inFlight = 1

    let session: any ShareImport
    private(set) var report = ImportReport()
    private var filling: [(line: Int, share: NewShare)] = []
    /// In the order they were handed on, each stored after the one before it.
    private var storing: [(count: Int, batch: StagedBatch)] = []

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
        while !storing.isEmpty { try await settleFirst() }
        report.problems.sort { $0.line < $1.line }
        return report
    }

    /// Lets the batches being stored finish: the import is abandoned, and its table is about to be dropped.
    func abandon() async {
        for (_, batch) in storing { _ = try? await batch.value }
    }

    private mutating func send() async throws {
        guard !filling.isEmpty else { return }
        let (batch, session, earlier) = (filling, session, storing.last?.batch)
        storing.append((batch.count, Task { try await session.stage(batch, after: earlier) }))
        filling.removeAll(keepingCapacity: true)
        while storing.count > Self.inFlight { try await settleFirst() }
    }

    private mutating func settleFirst() async throws {
        let (count, batch) = storing.removeFirst()
        let problems = try await batch.value
        report.imported += count - problems.count
        for problem in problems { report.reject(line: problem.line, detail: problem.detail) }
    }
}
