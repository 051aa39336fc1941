import ShareKit

/// What the end of an import stored.
public struct FinishedImport: Sendable {
    /// The records that joined the history, as the statement that stored them counted them.
    public let stored: Int
    /// The staged records left out because their id was taken since they were staged, by line.
    public let problems: [ImportReport.Problem]

    public init(stored: Int, problems: [ImportReport.Problem]) {
        self.stored = stored
        self.problems = problems
    }
}

extension FinishedImport {
    /// What an import throws when fewer records would join the history than its batches staged (the database lost
    /// them, restarting): none of them joins, and the client is told to send it again.
    package static func stagingLost(staged: Int, stored: Int) -> ShareError {
        .storeUnreachable(
            "it lost \(staged - stored) of the \(staged) records staged for the import while restarting; nothing was imported: send it again")
    }
}

/// An import in progress: batches are staged as the stream arrives, and join the history together at the end.
public protocol ShareImport: Sendable {
    /// Stages checked records once `earlier` (the batch before, which may still be being stored) is done, so that the
    /// batches keep their order; what needs no database may be done meanwhile. Records whose id is taken are skipped
    /// and reported by line.
    func stage(_ batch: [(line: Int, share: NewShare)], after earlier: StagedBatch?) async throws -> [ImportReport.Problem]
    /// Ends the import: its records join the history, all at once, unless they would take it past its quota
    /// (`ShareError.quotaExceeded`, and none of them is kept). When fewer records would join than were staged (the
    /// database lost them, restarting), none does (`ShareError.storeUnreachable`).
    func finish() async throws -> FinishedImport
    /// Abandons the import (its stream broke): none of it is kept.
    func discard() async
}

/// A batch of an import being staged: its records' problems once it is stored.
public typealias StagedBatch = Task<[ImportReport.Problem], any Error>

extension ShareImport {
    /// Stages checked records, no batch before them still being stored.
    public func stage(_ batch: [(line: Int, share: NewShare)]) async throws -> [ImportReport.Problem] {
        try await stage(batch, after: nil)
    }
}
