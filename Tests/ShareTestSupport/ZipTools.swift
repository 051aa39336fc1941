import Foundation
import ShareChildProcess

/// A ZIP file as three independent readers see it: Python's `zipfile` (every entry read and its CRC-32 checked),
/// Info-ZIP's `unzip -t` and libarchive's `bsdtar`. A file any of them refuses fails.
public enum ZipTools {
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// An entry as `zipfile` read it.
    public struct Entry: Decodable, Equatable, Sendable {
        public let name: String
        public let size: Int64
        /// The SHA-256 of its bytes, in hex.
        public let sha256: String
    }

    /// The entries of the ZIP at `path`, in order, once all three readers took it whole.
    public static func entries(of path: String) throws -> [Entry] {
        let script = """
            import hashlib, json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                bad = z.testzip()
                if bad is not None: sys.exit("bad CRC-32: " + bad)
                out = []
                for i in z.infolist():
                    h = hashlib.sha256()
                    with z.open(i) as f:
                        for block in iter(lambda: f.read(1 << 20), b""): h.update(block)
                    out.append({"name": i.filename, "size": i.file_size, "sha256": h.hexdigest()})
                print(json.dumps(out))
            """
        let listed = try ChildProcess.output(of: "/usr/bin/python3", ["-c", script, path])
        let tested = try ChildProcess.output(of: "/usr/bin/unzip", ["-tqq", path])
        guard tested.isEmpty else { throw Refused(description: "unzip -t: \(tested)") }
        let names = try ChildProcess.output(of: "/usr/bin/bsdtar", ["-tf", path]).split(separator: "\n").map(String.init)
        let entries = try JSONDecoder().decode([Entry].self, from: Data(listed.utf8))
        guard names == entries.map(\.name) else {
            throw Refused(description: "bsdtar lists \(names.count) entries, zipfile \(entries.count)")
        }
        return entries
    }
}
