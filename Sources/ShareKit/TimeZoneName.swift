import Foundation

/// The one rule both programs apply to a time zone's name (`tz`, `--tz`, the `timezone` settings): an IANA
/// name such as `Europe/Paris`, `Etc/GMT-5` or `UTC`.
public enum TimeZoneName {
    /// The zone `name` names, or nil when it is not an IANA name this system knows.
    public static func zone(_ name: String) -> TimeZone? {
        guard !name.isEmpty, name.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), !isOffsetSpelling(name) else { return nil }
        return TimeZone(identifier: name)
    }

    /// Why `name` is refused, with the version of the zone data this program knows (a zone newer than it is unknown).
    /// Naming that version also links the zones into a program with Foundation linked into it (`share`, an installed
    /// `shared`), which would know only UTC without them.
    public static func refusal(_ name: String) -> String {
        "'\(name)' is not an IANA time zone such as Europe/Paris (this program knows the zones of tzdata \(TimeZone.timeZoneDataVersion))"
    }

    /// Foundation also reads `UTC+5` or `GMT-0330` as fixed offsets, which are no IANA names (IANA writes
    /// `Etc/GMT-5`, with the sign inverted): a server or another client would not read them alike.
    private static func isOffsetSpelling(_ name: String) -> Bool {
        ["UTC+", "UTC-", "GMT+", "GMT-"].contains { name.hasPrefix($0) }
    }
}
