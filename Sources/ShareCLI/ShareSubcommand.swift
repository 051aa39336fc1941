import ArgumentParser
import ShareClient

/// A command that runs against a `CommandContext`, so tests can run it with a fake transport.
protocol ShareSubcommand: ParsableCommand {
    var global: GlobalOptions { get }
    func run(in context: CommandContext) throws
}

extension ShareSubcommand {
    func run() throws {
        try run(in: try CommandContext.live(global))
    }
}

extension CommandContext {
    /// Runs an API call, turning its failure into the line and exit status the user sees.
    func call<T>(_ body: () throws(ClientError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(error)
        }
    }
}
