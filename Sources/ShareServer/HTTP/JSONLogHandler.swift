import Foundation
import Logging
import ShareKit

/// Log lines as one JSON object each (`log_format = "json"`), for collectors that read fields rather than text:
/// `{"label":"shared","level":"info","message":"request","method":"GET",…,"time":"2026-11-22T20:06:04.000Z"}`.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = "\(value)"
        }
        fields["label"] = label
        fields["level"] = event.level.rawValue
        fields["message"] = "\(event.message)"
        fields["time"] = Timestamp.now().description
        guard var line = try? WireJSON.encoder().encode(fields) else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }
}
