import ArgumentParser
import ShareClient

struct RenameCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a share; its type follows the new name.",
        discussion: "Example:\n  share rename 7K2M9QDX \"Q1 report final.pdf\"")

    @Argument(help: "The share id.")
    var id: String

    @Argument(help: "The new file name.")
    var newName: String

    @OptionGroup var global: GlobalOptions

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.update(id: id, name: newName) }
        context.report(answer, "Renamed \(TerminalText.escape(answer.record.id)) to \(TerminalText.escape(answer.record.name))")
    }
}

struct MoveCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Move a share into a folder.",
        discussion: "Example:\n  share mv 7K2M9QDX /reports/2021")

    @Argument(help: "The share id.")
    var id: String

    @Argument(help: "The folder, such as /reports/2021.")
    var folder: String

    @OptionGroup var global: GlobalOptions

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.update(id: id, folder: folder) }
        context.report(answer, "Moved \(TerminalText.escape(answer.record.id)) to \(TerminalText.escape(answer.record.folder))")
    }
}

struct RestoreCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring shares back from the trash.",
        discussion: "Example:\n  share restore 7K2M9QDX")

    @Argument(help: "Share ids.")
    var ids: [String]

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one share id") }
    }

    func run(in context: CommandContext) throws {
        for id in ids {
            let answer = try context.call { () throws(ClientError) in try context.api.restore(id: id) }
            context.report(answer, "Restored \(TerminalText.escape(answer.record.id)) (\(TerminalText.escape(answer.record.name)))")
        }
    }
}

extension CommandContext {
    /// The record's JSON for scripts, a sentence for people.
    func report(_ answer: ShareAPI.Answer, _ sentence: String) {
        json ? printJSON(answer.body) : print(sentence)
    }
}
