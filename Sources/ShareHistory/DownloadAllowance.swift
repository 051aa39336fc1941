/// What a link with a download limit may still send: the bytes of `maxDownloads` whole downloads of its file, however
/// its requests cut the file into ranges. Both stores ask it with the bytes their access log holds.
public enum DownloadAllowance {
    /// Whether a request for `asking` more bytes keeps the link within its limit, `sentBefore` bytes having gone.
    public static func allows(asking: Int64, sentBefore: Int64, size: Int64, maxDownloads: Int64) -> Bool {
        let (allowance, tooMany) = size.multipliedReportingOverflow(by: maxDownloads)
        let (total, tooLarge) = sentBefore.addingReportingOverflow(asking)
        // An allowance past 2^63 bytes is one no sending reaches.
        return tooMany || (!tooLarge && total <= allowance)
    }
}
