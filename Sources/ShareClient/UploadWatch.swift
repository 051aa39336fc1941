import CCurl

/// Watches an upload through libcurl's progress callback. While the body is being sent, and once the answer comes,
/// nothing moving for `stallLimit` is a stall that ends the transfer. In between the server is working on the whole
/// body, which may take long (a large import merging into its history): that is waited for, and the upload is told
/// for how long, so that the person sees the server at work rather than a timeout, for up to `workLimit`. A server
/// that vanished meanwhile is found by TCP keepalive.
final class UploadWatch {
    private let upload: UploadSource
    private let stallLimit: Duration
    private let workLimit: Duration
    private var lastMoved = ContinuousClock.now
    private var bytesMoved: Int64 = -1
    private var allSentAt: ContinuousClock.Instant?
    /// Why the transfer was ended, when the watch ended it.
    private(set) var ended: String?

    init(_ upload: UploadSource, stallLimit: Duration, workLimit: Duration) {
        self.upload = upload
        self.stallLimit = stallLimit
        self.workLimit = workLimit
    }

    /// libcurl's progress callback: nonzero ends the transfer.
    static let callback: share_curl_progress_callback = { context, _, downloaded, _, uploaded in
        let watch = Unmanaged<UploadWatch>.fromOpaque(context!).takeUnretainedValue()
        return watch.keepsGoing(moved: Int64(downloaded + uploaded), answering: downloaded > 0) ? 0 : 1
    }

    private func keepsGoing(moved: Int64, answering: Bool) -> Bool {
        let now = ContinuousClock.now
        if moved != bytesMoved {
            (bytesMoved, lastMoved) = (moved, now)
        }
        if upload.finished && !answering {
            let since = allSentAt ?? now
            allSentAt = since
            lastMoved = now
            guard now - since <= workLimit else {
                ended = "no answer within \(workLimit.components.seconds) s of the whole body being sent"
                return false
            }
            upload.waiting(now - since)
            return true
        }
        guard now - lastMoved <= stallLimit else {
            ended = "the transfer stalled: nothing moved for \(stallLimit.components.seconds) s"
            return false
        }
        return true
    }
}
