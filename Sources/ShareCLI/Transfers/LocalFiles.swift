import Foundation

/// What one argument of `share add` names: a regular file, or a folder's files (its tree kept as paths under the
/// folder's own name), listed with their sizes before anything is sent.
enum LocalFiles {
    static func listed(at path: String) throws -> (files: [LocalFile], isFolder: Bool) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CommandFailure("cannot read \(path): no such file or no permission", status: .localFile) }
        if info.st_mode & S_IFMT == S_IFREG {
            return ([LocalFile(path: path, name: (path as NSString).lastPathComponent, size: Int64(info.st_size))], false)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw CommandFailure("\(path) is not a regular file or a folder", status: .localFile) }
        // `.` or `photos/..` are named as the folder they are; the root, which has no name, as `files`.
        let resolved = realpath(path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        let name = ((resolved ?? path) as NSString).lastPathComponent
        return (try folder(path, as: name == "/" || name.isEmpty ? "files" : name), true)
    }

    /// The regular files in the folder at `path`, by path; links and other special files are left out, with a warning.
    private static func folder(_ path: String, as base: String) throws -> [LocalFile] {
        guard let walk = FileManager.default.enumerator(atPath: path) else {
            throw CommandFailure("cannot read the folder \(path): no permission", status: .localFile)
        }
        var files: [LocalFile] = []
        while let relative = walk.nextObject() as? String {
            let full = (path as NSString).appendingPathComponent(relative)
            var info = stat()
            guard lstat(full, &info) == 0 else { throw CommandFailure("cannot read \(full): no permission", status: .localFile) }
            switch info.st_mode & S_IFMT {
            case S_IFREG: files.append(LocalFile(path: full, name: "\(base)/\(relative)", size: Int64(info.st_size)))
            case S_IFDIR: continue
            default: StandardError().write("share: warning: \(TerminalText.escape(full)) is left out: not a regular file\n")
            }
        }
        guard !files.isEmpty else { throw CommandFailure("the folder \(path) holds no files", status: .localFile) }
        return files.sorted { $0.name < $1.name }
    }
}
