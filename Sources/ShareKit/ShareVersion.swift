/// The version both programs report with `--version`.
public enum ShareVersion {
    public static let current = "0.1.0"
}
