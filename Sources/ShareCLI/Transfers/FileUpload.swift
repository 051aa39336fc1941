import Foundation
import ShareClient
import ShareKit

/// `share add`'s upload of one file: started (or found again in the journal), sent from the offset the server
/// holds, and resumed from there when the connection drops, a few times, before giving up with the upload kept for
/// the next run.
struct FileUpload {
    let context: CommandContext
    let path: String
    let name: String
    let size: Int64
    let folder: String?
    let link: NewLinkFields

    func run() throws -> ShareAPI.Answer {
        let key = UploadJournal.key(
            server: context.api.server.display, user: context.api.user, path: path, share: "\(name)\u{0}\(folder ?? "")")
        let journal = context.uploadJournal
        var url = try key.flatMap { try known(journal.upload($0)) }
        if url == nil {
            let started = try context.call { () throws(ClientError) in try context.api.startUpload(name: name, size: size, folder: folder, link: link)
            }
            if let finished = started.finished { return finished }
            url = started.url
            if let key { journal.note(started.url, key) }
        }
        let answer = try send(to: url!)
        if let key { journal.forget(key) }
        return answer
    }

    /// The upload at `url` when the server still has it.
    private func known(_ url: String?) throws -> String? {
        guard let url else { return nil }
        return try context.call { () throws(ClientError) in try context.api.uploadOffset(url) } == nil ? nil : url
    }

    private func send(to url: String) throws -> ShareAPI.Answer {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CommandFailure("cannot read \(path): no such file or no permission", status: .localFile) }
        defer { close(descriptor) }
        let progress = context.statusLine.map { ProgressLine(output: $0, label: "Uploading \(name)", total: size) }
        let answer: ShareAPI.Answer
        do {
            answer = try sendResuming(descriptor, to: url, progress: progress)
        } catch {
            progress?.clear()
            throw error
        }
        progress?.finish("Uploaded \(name)")
        return answer
    }

    private func sendResuming(_ descriptor: Int32, to url: String, progress: ProgressLine?) throws -> ShareAPI.Answer {
        try TransferRetries.run(
            progress: progress,
            retrying: { error, number in
                // A conflict: the server still takes the bytes of a request cut off a moment ago; its offset follows.
                if case .conflict = error { return "the server is still storing an earlier part; resuming" }
                return TransferRetries.interrupted(error, number)
            }
        ) { _ in
            guard let offset = try context.api.uploadOffset(url) else {
                throw CommandFailure("the server dropped the upload of \(path); run the command again to start it over", status: .failure)
            }
            progress?.resumed(from: offset)
            lseek(descriptor, off_t(offset), SEEK_SET)
            let source = UploadSource(descriptor: descriptor, size: size - offset, progress: { progress?.show(offset + $0) })
            guard let answer = try context.api.appendUpload(url, at: offset, from: source) else {
                throw CommandFailure("the server took the last byte of \(path) without making its share", status: .failure)
            }
            return answer
        }
    }
}
