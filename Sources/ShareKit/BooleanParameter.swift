/// Query flags such as `recursive`, `trashed` and `purge`: exactly `true` or `false`, as the message says; anything
/// else is a 400.
public enum BooleanParameter {
    public static func parse(_ text: String, parameter: String) throws(ShareError) -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default: throw .invalidParameter(parameter, "must be true or false, got '\(text)'")
        }
    }
}
