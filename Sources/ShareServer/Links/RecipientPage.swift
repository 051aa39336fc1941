import Hummingbird
import ShareKit

/// The small page a share's link opens for its recipient: what the share is and a *Download* button, the form for
/// its code, or why it no longer opens. Plain HTML that works on a phone and without JavaScript.
enum RecipientPage {
    /// What the page says.
    enum Content {
        /// The share, at its link (`/s/{token}` under the base path), with the query that carries its code.
        case share(ShareRecord, link: String, query: String)
        /// The form for the share's code; `wrong` after a wrong one, with the tries left before the link waits when
        /// known. Nothing of the share shows before its code.
        case code(wrong: Bool, triesLeft: Int? = nil)
        case notFound
        case gone(ShareState)
        case tooManyTries(retryAfter: Int)
    }

    static func response(_ content: Content) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
            .init("X-Content-Type-Options")!: "nosniff", .init("Referrer-Policy")!: "no-referrer",
        ]
        let status: HTTPResponse.Status
        let title: String
        let body: String
        switch content {
        case .share(let record, let link, let query):
            (status, title) = (.ok, record.name)
            let picture =
                record.thumbnail == true
                ? #"<img class="thumbnail" src="\#(HTMLText.escaped(link + "/thumbnail" + query))" alt="" width="96" height="96">"# : ""
            body = picture + summary(record) + #"<a class="button" href="\#(HTMLText.escaped(link + "/file" + query))" download>Download</a>"#
        case .code(let wrong, let triesLeft):
            (status, title) = (wrong ? .forbidden : .ok, "A shared file")
            let problem =
                switch (wrong, triesLeft) {
                case (false, _): ""
                case (true, nil): "That code is not right."
                case (true, 0): "That code is not right, and that was the last try for now: the link waits a while."
                case (true, 1): "That code is not right. 1 try left before the link waits a while."
                case (true, let left?): "That code is not right. \(left) tries left before the link waits a while."
                }
            body =
                "<h1>A file was shared with you</h1><p>Give the extraction code you were sent with the link.</p>"
                + (problem.isEmpty ? "" : #"<p class="problem" role="alert">\#(problem)</p>"#) + """
                    <form method="get"><label for="code">Extraction code</label>
                    <input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" required minlength="4" maxlength="32" autofocus>
                    <button class="button" type="submit">Open</button></form>
                    """
        case .notFound:
            (status, title) = (.notFound, "No such link")
            body = "<h1>No such link</h1><p>This link does not exist. Check that it was copied whole.</p>"
        case .gone(let state):
            (status, title) = (.gone, "Link closed")
            let why = state == .revoked ? "Its owner has cut this link off." : "This link has expired."
            body = "<h1>This link no longer opens</h1><p>\(why)</p>"
        case .tooManyTries(let seconds):
            (status, title) = (.tooManyRequests, "Too many tries")
            headers[.retryAfter] = String(seconds)
            body = "<h1>Too many tries</h1><p>Try again in \(seconds) seconds.</p>"
        }
        let page = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
            <title>\(HTMLText.escaped(title))</title><style>\(style)</style></head><body><main>\(body)</main></body></html>
            """
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The share's name, type, size, when it was shared and until when it opens.
    private static func summary(_ record: ShareRecord) -> String {
        var until = record.expiresAt.map { "Opens until \(day($0))" } ?? "Opens with no end date"
        if let max = record.maxDownloads {
            let left = max - (record.downloads ?? 0)
            until += left == 1 ? ", for 1 more download" : ", for \(left) more downloads"
        }
        return """
            <p class="type">\(HTMLText.escaped(record.type.rawValue.uppercased()))</p><h1>\(HTMLText.escaped(record.name))</h1>
            <p>\(ByteSize.text(record.size)) · shared \(day(record.createdAt))</p><p>\(until)</p>
            """
    }

    /// `2021-01-17 12:34 UTC`.
    private static func day(_ time: Timestamp) -> String {
        let text = time.description
        return "\(text.prefix(10)) \(text.dropFirst(11).prefix(5)) UTC"
    }

    private static let style = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1d2129}
        .thumbnail{display:block;border-radius:8px;object-fit:cover;margin-bottom:.5rem}
        main{max-width:28rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
        h1{font-size:1.25rem;overflow-wrap:anywhere;margin:.25rem 0}.type{font-size:.75rem;color:#5b6270;margin:0}
        .button{display:inline-block;margin-top:1rem;padding:.6rem 1.4rem;border:0;border-radius:8px;background:#1a73e8;color:#fff;
        font:inherit;text-decoration:none;cursor:pointer}.problem{color:#b3261e}
        input{display:block;width:100%;box-sizing:border-box;font:inherit;padding:.5rem;margin-top:.25rem;border:1px solid #aab;border-radius:6px}
        #code{text-transform:uppercase;letter-spacing:.1em}
        """
}
