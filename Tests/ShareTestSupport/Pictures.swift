import Foundation

/// The pictures the thumbnail tests send, from `Tests/Fixtures/pictures` (made by its `make.py`).
public enum Pictures {
    public static let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures/pictures")

    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appending(path: name)))
    }
}
