import ArgumentParser
import Foundation
import ShareClient
import ShareKit

struct GetCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download a share's file, by its id (yours) or its link (anyone's).",
        discussion: """
            The file is saved under its own name in the current folder (or -o FILE; -o - writes it to standard \
            output), with a progress bar on a terminal. A download cut off is kept as NAME.part and resumes where \
            it stopped, within the run and in the next one; an existing file is never replaced unless -o names it. \
            A link's extraction code comes with --code, or in the link (…?code=…). Your own share, by its id, is \
            read as its owner: it counts no download and opens after its link expired, ran out or was revoked.

            Examples:
              share get 7K2M9QDX
              share get https://files.example.org/s/Zq3…x9 --code 4711ab
              share get 7K2M9QDX -o - | tar x
            """)

    @Argument(help: "The share id, or the share's link.")
    var share: String

    @Option(name: [.short, .customLong("output")], help: "Where to save the file (- for standard output).")
    var output: String?

    @Option(help: "The link's extraction code.")
    var code: String?

    @Option(help: ArgumentHelp("The most bytes a second to move (500k, 2M): leave room for other traffic.", valueName: "rate"))
    var limitRate: ByteAmount?

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        context.api.rateLimit = limitRate?.bytes
        let source = try fileSource(in: context)
        let file = try context.call { () throws(ClientError) in try context.api.fileFacts(source) }
        let download = FileDownload(context: context, source: source, file: file)
        if output == "-" {
            try download.write(to: FileHandle.standardOutput)
            return
        }
        let target = output ?? Self.safeName(file.name) ?? "download"
        if output == nil, FileManager.default.fileExists(atPath: target) {
            throw CommandFailure("\(target) exists already; give -o to choose another name or to replace it", status: .localFile)
        }
        try download.save(as: target)
        context.print("Saved \(TerminalText.escape(target)) (\(ByteSize.text(file.size)))")
    }

    /// Where the file comes from: the link given, as a recipient; or the share with this id, as its owner, which
    /// opens whatever its link's state and counts no download.
    private func fileSource(in context: CommandContext) throws -> ShareAPI.FileSource {
        if share.contains("/") { return context.api.linkedFile(link: share, code: code) }
        let record = try context.call { () throws(ClientError) in try context.api.share(id: share) }.record
        guard record.stored == true else {
            throw CommandFailure("the share \(record.id) holds no file here: it is a record only, or lives on another service", status: .rejected)
        }
        return try context.call { () throws(ClientError) in try context.api.ownedFile(id: record.id) }
    }

    /// The last part of a name the server gave, when it is a name a file may safely have here.
    private static func safeName(_ name: String?) -> String? {
        guard let last = name?.split(separator: "/").last.map(String.init), last != ".", last != "..", !last.hasPrefix(".") else { return nil }
        return last.unicodeScalars.contains { $0.properties.generalCategory == .control } ? nil : last
    }
}
