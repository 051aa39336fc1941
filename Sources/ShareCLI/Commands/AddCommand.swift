import ArgumentParser
import Foundation
import ShareClient
import ShareKit

struct AddCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Upload and share local files or folders; prints each new id and name, and its link and code.",
        discussion: """
            Each file is uploaded, streamed whatever its size, with a progress bar on a terminal; an upload cut off \
            resumes where it stopped, within the run and in the next run of the same command. The share appears \
            once its last byte is stored. The name and size come from the file; the server derives the type from \
            the name. With --record-only, only the record is kept (the file stays where it is). \
            A folder becomes one share of the files in it, its tree kept as paths; with --together, all the files \
            and folders named become one share. Whoever opens its link downloads each file alone or all of them as \
            one ZIP. \
            A picture (JPEG, PNG, WebP, GIF, BMP, HEIC) is sent along, and the server keeps a small thumbnail of it, \
            as the page shows; a picture the server cannot read is recorded all the same, with a warning.

            A file shared on another service gets a link of this one that leads there (--source); \
            --expires, --max-downloads and --code limit who opens it and until when; --sender and --message are \
            what the link's page says to its recipient.

            Examples:
              share add report.pdf
              share add *.jpg --folder /holiday
              share add holiday-photos/
              share add contract.pdf annex-1.pdf annex-2.pdf --together --name "Contract.zip"
              share add scan-0042.pdf --name "Signed contract.pdf"
              share add plan.pdf --source https://drive.example.com/s/abc --expires 7d --code
              share add contract.pdf --sender "Zoé Martin" --message "Signed on page 4."
              share add notes.txt --record-only
            """)

    @Argument(help: "Files to share, or folders (each one share of its files).")
    var files: [String]

    @Flag(help: "Share all the files and folders named as one share, under one link.")
    var together = false

    @Option(help: "The folder to record them in (default /).")
    var folder: String?

    @Option(help: "Record the file under this name instead of its own (one file or folder, or --together).")
    var name: String?

    @Flag(help: "Do not send pictures for thumbnails.")
    var noThumbnail = false

    @Flag(help: "Keep the record only: name, size and type, without uploading the file.")
    var recordOnly = false

    @Option(help: "Where the file shared on another service lives (an https:// URL): the share's link leads there; nothing is uploaded.")
    var source: String?

    @Option(help: "When the link stops opening: a span (30m, 12h, 7d, 2w), a date (through its end) or a time.")
    var expires: String?

    @Option(help: "The link stops opening after this many downloads.")
    var maxDownloads: Int64?

    @Option(help: ArgumentHelp("An extraction code the link asks for (4-32 letters or digits); without one, the server draws it.", valueName: "code"))
    var code: String?

    @Option(help: ArgumentHelp("Who the link's page says sent it: a name you choose (at most 80 characters).", valueName: "name"))
    var sender: String?

    @Option(help: ArgumentHelp("A message the link's page shows with it (at most 1000 characters).", valueName: "text"))
    var message: String?

    @Option(help: ArgumentHelp("The most bytes a second to move (500k, 2M): leave room for other traffic.", valueName: "rate"))
    var limitRate: ByteAmount?

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file") }
        if name != nil && files.count > 1 && !together { throw ValidationError("--name applies to one share; got \(files.count) files") }
        if let maxDownloads, maxDownloads < 1 { throw ValidationError("--max-downloads must be 1 or more; got \(maxDownloads)") }
    }

    func run(in context: CommandContext) throws {
        context.api.rateLimit = limitRate?.bytes
        // Every file is looked at before any is shared: one that cannot be read shares none, so running the
        // command again after fixing it shares nothing twice.
        let listed = try files.map(LocalFiles.listed(at:))
        let several = together || listed.contains { $0.isFolder }
        if several && (recordOnly || source != nil) {
            throw ValidationError("folders and --together upload their files: they cannot be --record-only or have a --source")
        }
        let link = NewLinkFields(
            source: source, expiresAt: try expires.map { try LinkExpiry.parse($0, in: context.zone) }, maxDownloads: maxDownloads,
            code: code.map { $0 == CodeArgument.drawn ? .drawn : .chosen($0) } ?? .none, sender: sender, message: message)
        let shares = together ? [(files: listed.flatMap(\.files), isFolder: true)] : listed
        for share in shares {
            var answer: ShareAPI.Answer
            if share.isFolder {
                answer = try FileUpload(context: context, files: share.files, together: true, name: name, folder: folder, link: link).run()
            } else {
                let file = share.files[0]
                let fileName = name ?? file.name
                answer =
                    recordOnly || source != nil
                    ? try context.call { () throws(ClientError) in
                        try context.api.create(name: fileName, size: file.size, folder: folder, link: link)
                    }
                    : try FileUpload(context: context, files: [file], together: false, name: fileName, folder: folder, link: link).run()
                if !noThumbnail, let thumbnailed = thumbnail(of: file.path, size: file.size, for: answer.record.id, in: context) {
                    answer = thumbnailed
                }
            }
            if context.json {
                context.printJSON(answer.body)
            } else {
                context.print("\(TerminalText.escape(answer.record.id))  \(TerminalText.escape(answer.record.name))")
                if let files = answer.record.files { context.print("  files: \(files.count)") }
                if let link = answer.record.link { context.print("  link: \(TerminalText.escape(context.api.server.absolute(link)))") }
                if let code = answer.record.code { context.print("  code: \(TerminalText.escape(code))") }
            }
        }
    }

    /// Sends the file at `path` (of `size` bytes, streamed: the server refuses one too large before it is sent), when
    /// it is a picture, for the record's thumbnail: the record as it then is, or nil (with a warning on stderr when
    /// the picture could not be used: the record stays as it was made).
    private func thumbnail(of path: String, size: Int64, for id: String, in context: CommandContext) -> ShareAPI.Answer? {
        guard let type = PictureFile.mediaType(ofFileName: path) else { return nil }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            StandardError().write("share: warning: no thumbnail for \(TerminalText.escape(path)): it cannot be read\n")
            return nil
        }
        defer { close(descriptor) }
        do {
            return try context.api.putThumbnail(id: id, picture: UploadSource(descriptor: descriptor, size: size), type: type)
        } catch {
            StandardError().write("share: warning: no thumbnail for \(TerminalText.escape(path)): \(TerminalText.escape(error.message))\n")
            return nil
        }
    }

}
