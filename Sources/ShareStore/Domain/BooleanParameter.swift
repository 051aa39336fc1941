/// Query flags such as `recursive`, `trashed` and `purge`: `true`/`false` (or `1`/`0`), anything else is a 400.
public enum BooleanParameter {
    public static func parse(_ text: String, parameter: String) throws(ShareError) -> Bool {
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw .invalidParameter(parameter, "must be true or false, got '\(text)'")
        }
    }
}
