import Foundation
import Synchronization

/// A new, empty folder under the system's temporary folder for one test's files (databases, configs, logs).
/// Every folder made here is removed when the test process ends, so runs leave nothing behind.
public func temporaryFolder(_ purpose: String = "test") throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appending(path: "share-\(purpose)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    TemporaryFolders.made.withLock { folders in
        if folders.isEmpty { atexit { TemporaryFolders.removeAll() } }
        folders.append(folder)
    }
    return folder
}

private enum TemporaryFolders {
    static let made = Mutex<[URL]>([])

    static func removeAll() {
        for folder in made.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
    }
}
