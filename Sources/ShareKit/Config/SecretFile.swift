import Foundation

/// Files that hold tokens (a `share.toml` with a token, a token file) and who may read them.
public enum SecretFile {
    /// A warning naming `path` when users other than its owner and group may read it; nil when they may not.
    public static func warning(for path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = attributes[.posixPermissions] as? Int, mode & 0o004 != 0
        else { return nil }
        return "\(path) holds a token and every user of this machine can read it; run: chmod 600 \(path)"
    }
}
