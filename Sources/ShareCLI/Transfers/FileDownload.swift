import Foundation
import ShareClient
import ShareKit

/// `share get`'s download of a share's file: into `NAME.part`, resumed from its size while the file's `ETag` is the
/// same (the part's name carries it), after a dropped connection and in a later run; renamed to `NAME` when whole.
struct FileDownload {
    let context: CommandContext
    let source: ShareAPI.FileSource
    let file: ShareAPI.LinkedFile

    /// Saves the file as `target`.
    func save(as target: String) throws {
        let tag = file.etag.filter { $0.isLetter || $0.isNumber }.prefix(12)
        let part = "\(target).\(tag).part"
        if !FileManager.default.fileExists(atPath: part) {
            guard FileManager.default.createFile(atPath: part, contents: nil) else {
                throw CommandFailure("cannot write \(part): no such folder or no permission", status: .localFile)
            }
        }
        guard let handle = FileHandle(forWritingAtPath: part) else {
            throw CommandFailure("cannot write \(part): no permission", status: .localFile)
        }
        try fetch(into: handle)
        try handle.close()
        guard (try? FileManager.default.attributesOfItem(atPath: part)[.size] as? NSNumber)??.int64Value == file.size else {
            throw CommandFailure(
                "the download of \(target) ended short of its \(file.size) bytes; run the command again to resume it", status: .failure)
        }
        if FileManager.default.fileExists(atPath: target) { try? FileManager.default.removeItem(atPath: target) }
        do {
            try FileManager.default.moveItem(atPath: part, toPath: target)
        } catch {
            throw CommandFailure("cannot save \(target): \(error.localizedDescription)", status: .localFile)
        }
    }

    /// Writes the whole file to `handle` (standard output: no resuming across runs).
    func write(to handle: FileHandle) throws {
        try fetch(into: handle)
    }

    /// Fetches from `handle`'s end to the file's, resuming after a dropped connection.
    private func fetch(into handle: FileHandle) throws {
        let progress = context.statusLine.map { ProgressLine(output: $0, label: "Downloading \(file.name ?? "file")", total: file.size) }
        do {
            try fetch(into: handle, progress: progress)
        } catch {
            progress?.clear()
            throw error
        }
        progress?.finish("Downloaded \(file.name ?? "the file")")
    }

    private func fetch(into handle: FileHandle, progress: ProgressLine?) throws {
        let seekable = (try? handle.seekToEnd()) != nil
        // Standard output cannot be resumed: what went is gone from this side.
        try TransferRetries.run(progress: progress, retrying: { error, number in seekable ? TransferRetries.interrupted(error, number) : nil }) {
            attempt in
            let offset = seekable ? Int64((try? handle.offset()) ?? 0) : 0
            guard offset < file.size || (offset == 0 && file.size == 0 && attempt == 1) else { return }
            var received = offset
            progress?.resumed(from: offset)
            let resumed = try context.api.download(source, from: offset, etag: file.etag) { bytes in
                handle.write(Data(bytes))
                received += Int64(bytes.count)
                progress?.show(received)
            }
            if offset > 0 && !resumed {
                throw CommandFailure("the file changed on the server while it was downloaded; run the command again", status: .failure)
            }
        }
    }
}
