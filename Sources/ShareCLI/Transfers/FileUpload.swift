import Foundation
import ShareClient
import ShareKit

/// `share add`'s upload of one file, or of several as one share (`together`): started (or found again in the
/// journal), sent from the offset the server holds, and resumed from there when the connection drops, a few times,
/// before giving up with the upload kept for the next run.
struct FileUpload {
    let context: CommandContext
    let files: [LocalFile]
    /// Several files as one share; else `files` is one.
    let together: Bool
    /// The share's name: a single file's own unless given; nil lets the server name several.
    let name: String?
    let folder: String?
    let link: NewLinkFields

    private var size: Int64 { files.reduce(0) { $0 + $1.size } }
    private var label: String { name ?? (files.count == 1 ? files[0].name : "\(files.count) files") }

    func run() throws -> ShareAPI.Answer {
        let share = ([name ?? "", folder ?? ""] + (together ? files.map(\.name) : [])).joined(separator: "\u{0}")
        let key = UploadJournal.key(server: context.api.server.display, user: context.api.user, paths: files.map(\.path), share: share)
        let journal = context.uploadJournal
        var url = try key.flatMap { try known(journal.upload($0)) }
        if url == nil {
            let started = try context.call { () throws(ClientError) in try start() }
            if let finished = started.finished { return finished }
            url = started.url
            if let key { journal.note(started.url, key) }
        }
        let answer = try send(to: url!)
        if let key { journal.forget(key) }
        return answer
    }

    private func start() throws(ClientError) -> ShareAPI.Upload {
        guard together else { return try context.api.startUpload(name: label, size: size, folder: folder, link: link) }
        return try context.api.startBundle(name: name, files: files.map { ($0.name, $0.size) }, folder: folder, link: link)
    }

    /// The upload at `url` when the server still has it.
    private func known(_ url: String?) throws -> String? {
        guard let url else { return nil }
        return try context.call { () throws(ClientError) in try context.api.uploadOffset(url) } == nil ? nil : url
    }

    private func send(to url: String) throws -> ShareAPI.Answer {
        let progress = context.statusLine.map { ProgressLine(output: $0, label: "Uploading \(label)", total: size) }
        let answer: ShareAPI.Answer
        do {
            answer = try sendResuming(to: url, progress: progress)
        } catch {
            progress?.clear()
            throw error
        }
        progress?.finish("Uploaded \(label)")
        return answer
    }

    private func sendResuming(to url: String, progress: ProgressLine?) throws -> ShareAPI.Answer {
        try TransferRetries.run(
            progress: progress,
            retrying: { error, number in
                // A conflict: the server still takes the bytes of a request cut off a moment ago; its offset follows.
                if case .conflict = error { return "the server is still storing an earlier part; resuming" }
                return TransferRetries.interrupted(error, number)
            }
        ) { _ in
            guard let offset = try context.api.uploadOffset(url) else {
                throw CommandFailure("the server dropped the upload of \(label); run the command again to start it over", status: .failure)
            }
            progress?.resumed(from: offset)
            let reader = LocalFilesReader(files, from: offset)
            let source = UploadSource(size: size - offset, progress: { progress?.show(offset + $0) }, reading: reader.read(into:))
            let answer: ShareAPI.Answer?
            do {
                answer = try context.api.appendUpload(url, at: offset, from: source)
            } catch {
                if let failure = reader.failure { throw CommandFailure(failure, status: .localFile) }
                throw error
            }
            guard let answer else {
                throw CommandFailure("the server took the last byte of \(label) without making its share", status: .failure)
            }
            return answer
        }
    }
}
