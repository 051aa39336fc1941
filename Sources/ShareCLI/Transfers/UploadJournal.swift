import Foundation
import ShareKit

/// Where `share add` notes the upload of each file it is sending (`$XDG_STATE_HOME/share/uploads`), so that a run
/// cut off (the network gone, the command stopped) resumes the same upload next time rather than sending it all
/// again. An entry is keyed by the server, the user, the files (path, size, time of its last change) and the share
/// they become, and removed once the share exists.
struct UploadJournal {
    let folder: String

    init(environment: [String: String]) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.local/state"
        folder = "\(state)/share/uploads"
    }

    /// The key of an upload of the files at `paths` as the share `share` (its name, folder and link's limits).
    static func key(server: String, user: String?, paths: [String], share: String) -> String? {
        var identity = [server, user ?? "", share]
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            identity += [absolute, "\(info.st_size)", "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"]
        }
        return ContentHash.of(Array(identity.joined(separator: "\u{0}").utf8))
    }

    /// The upload noted under `key`, if any.
    func upload(_ key: String) -> String? {
        (try? String(contentsOfFile: "\(folder)/\(key)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Notes `url` under `key`; a journal that cannot be written only costs the resumption across runs.
    func note(_ url: String, _ key: String) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        FileManager.default.createFile(atPath: "\(folder)/\(key)", contents: Data(url.utf8), attributes: [.posixPermissions: 0o600])
    }

    func forget(_ key: String) {
        try? FileManager.default.removeItem(atPath: "\(folder)/\(key)")
    }
}
