import GRDB
import ShareHistory

extension ReadLanes {
    /// What `body` reads, in the quick lane or, past its budget (`WorkBudget`), in the heavy one.
    func read<T: Sendable>(_ reader: any DatabaseReader, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await read(
            quick: { try await reader.read({ db in try WorkBudget.run(db, work: quickWork) { try body(db) } }) },
            heavy: { try await reader.read(body) })
    }
}
