import ArgumentParser
import ShareClient

/// A command that runs against a `CommandContext`, so tests can run it with a fake transport.
protocol ShareSubcommand: ParsableCommand {
    /// The global options given after the command's name.
    var global: GlobalOptions { get }
    /// `share` itself, with the global options given before the command's name.
    var root: ShareCommand { get }
    func run(in context: CommandContext) throws
}

extension ShareSubcommand {
    /// The global options wherever they were given.
    var options: GlobalOptions { global.overriding(root.global) }

    func run() throws {
        try run(in: try CommandContext.live(options))
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
