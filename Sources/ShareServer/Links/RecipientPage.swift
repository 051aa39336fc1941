import Crypto
import Foundation
import Hummingbird
import ShareHistory
import ShareKit

/// The small page a share's link opens for its recipient: what the share is, on which service, and a *Download*
/// button (or where a share made elsewhere leads); the form for its code; or which limit closed it. Plain HTML that
/// works on a phone and without JavaScript; one small script, allowed by its hash alone, shows times in the reader's
/// own zone. A file request's link opens the same kind of page (`RecipientPage+Requests`), whose sending of files
/// needs the service's own module.
struct RecipientPage {
    /// The service's name (`[server] service_name`).
    let serviceName: String

    /// What the page says.
    enum Content {
        /// The share, at its link (`/s/{token}` under the base path), with the query that carries its code, and what
        /// the page previews of its file (a text's beginning in `text`).
        case share(ShareRecord, link: String, query: String, preview: PreviewKind? = nil, text: Text? = nil)
        /// The form for the share's code; `wrong` after a wrong one, with the tries left before the link waits when
        /// known. Nothing of the share shows before its code.
        case code(wrong: Bool, triesLeft: Int? = nil)
        case notFound
        /// A closed link: which limit closed it, when the share is known.
        case gone(ShareRecord?)
        case tooManyTries(retryAfter: Int)
        /// A file request's page, at its link with the query that carries its code: what it asks for, and (with
        /// `script`, the page's module) where to drop or pick the files it takes.
        case request(OpenedRequest, link: String, query: String, script: String)
        /// A file request that takes no more files: closed by its owner, or expired.
        case requestClosed(FileRequest.State)
    }

    /// Whose link a page is: a share's, or a file request's, whose code form and words differ.
    enum Link {
        case share, request
    }

    /// The beginning of a text, and whether the file holds more.
    struct Text: Sendable {
        let text: String
        let cut: Bool
    }

    func response(_ content: Content, of link: Link = .share) -> Response {
        // A request's page sends files with its own module, to its own origin.
        let scripts = if case .request = content { "'self' '\(Self.localTimesHash)'; connect-src 'self'" } else { "'\(Self.localTimesHash)'" }
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy:
                "default-src 'none'; style-src 'unsafe-inline'; script-src \(scripts); img-src 'self'; media-src 'self'; form-action 'self'; frame-ancestors 'none'",
            // Nothing of the link's address leaves for another site; its own form's POST carries its `Origin` (under
            // `no-referrer` a browser sends `Origin: null`, which the cross-site rule refuses).
            .init("X-Content-Type-Options")!: "nosniff", .init("Referrer-Policy")!: "same-origin",
        ]
        let status: HTTPResponse.Status
        let title: String
        let body: String
        switch content {
        case .share(let record, let link, let query, let preview, let text):
            (status, title) = (.ok, record.name)
            body = Self.share(record, link: link, query: query, preview: Self.preview(preview, text: text, of: record, link: link, query: query))
        case .code(let wrong, let triesLeft):
            (status, title) = (wrong ? .forbidden : .ok, link == .share ? "A shared file" : "Files asked for")
            body = Self.codeForm(
                wrong: wrong, triesLeft: triesLeft, heading: link == .share ? "A file was shared with you" : "Files are asked of you")
        case .notFound:
            (status, title) = (.notFound, "No such link")
            body = "<h1>No such link</h1><p>This link does not exist. Check that it was copied whole.</p>"
        case .gone(let record):
            (status, title) = (.gone, "Link closed")
            body = "<h1>This link no longer opens</h1><p>\(Self.closed(record))</p>"
        case .tooManyTries(let seconds):
            (status, title) = (.tooManyRequests, "Too many tries")
            headers[.retryAfter] = String(seconds)
            body = #"<h1>Too many tries</h1><p>Try again in <span data-seconds="\#(seconds)">\#(Self.wait(seconds))</span>.</p>"#
        case .request(let opened, let link, let query, let script):
            (status, title) = (.ok, opened.request.title)
            body = Self.request(opened, link: link, query: query, script: script)
        case .requestClosed(let state):
            (status, title) = (.gone, "Request closed")
            body = "<h1>This link takes no more files</h1><p>\(state == .expired ? "It has expired." : "Its owner closed it.")</p>"
        }
        let service = HTMLText.escaped(serviceName)
        let page = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
            <title>\(HTMLText.escaped(title)) · \(service)</title><style>\(Self.style)</style></head>
            <body><main><p class="service">\(service)</p>\(body)</main><script>\(Self.localTimes)</script></body></html>
            """
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The share: who sent it and their message when its owner gave them, its preview (or else its picture), kind in
    /// words, name, size, when it was shared, until when it opens, and *Download* (for a share made elsewhere, where it
    /// leads).
    private static func share(_ record: ShareRecord, link: String, query: String, preview: String) -> String {
        let picture =
            preview.isEmpty && record.thumbnail == true
            ? #"<img class="thumbnail" src="\#(HTMLText.escaped(link + "/thumbnail" + query))" alt="" width="96" height="96">"# : preview
        var until = Self.until(record.expiresAt)
        if let max = record.maxDownloads {
            let left = max - (record.downloads ?? 0)
            until += left == 1 ? ", for 1 more download" : ", for \(left) more downloads"
        }
        let file = HTMLText.escaped(link + "/file" + query)
        let download: String
        if let source = record.source, let host = URLComponents(string: source)?.host {
            let place = HTMLText.escaped(host)
            download =
                #"<p>This file is kept on <strong>\#(place)</strong>: the button opens it there.</p>"#
                + #"<a class="button" href="\#(file)" rel="noreferrer">Open on \#(place)</a>"#
        } else if let files = record.files {
            let zip = HTMLText.escaped(link + "/zip" + query)
            download = fileList(files, link: link, query: query) + #"<a class="button" href="\#(zip)" download>Download all (ZIP)</a>"#
        } else {
            download = #"<a class="button" href="\#(file)" download>Download</a>"#
        }
        let count = record.files?.count ?? 1
        let what = count == 1 ? "a file" : "\(count) files"
        let lead =
            record.sender.map { "\(HTMLText.escaped($0)) shared \(what) with you" }
            ?? (count == 1 ? "A file was shared with you" : "\(what) were shared with you")
        let message = record.message.map { #"<blockquote class="message">\#(HTMLText.escaped($0))</blockquote>"# } ?? ""
        return """
            <h1 class="lead">\(lead)</h1>\(message)\(picture)
            <p class="type">\(record.files == nil ? record.type.words : "Files")</p><h2>\(HTMLText.escaped(record.name))</h2>
            <p>\(ByteSize.text(record.size)) · shared \(time(record.createdAt))</p><p>\(until)</p>\(download)
            """
    }

    /// The files of a share of several, each a link to download it alone: the first `listedFiles`, then how many
    /// more the ZIP holds.
    private static func fileList(_ files: [BundleFile], link: String, query: String) -> String {
        var items = ""
        for (index, file) in files.prefix(listedFiles).enumerated() {
            let address = HTMLText.escaped("\(link)/files/\(index)\(query)")
            items += #"<li><a href="\#(address)" download>\#(HTMLText.escaped(file.name))</a> <span>\#(ByteSize.text(file.size))</span></li>"#
        }
        let more = files.count > listedFiles ? #"<p class="cut">And \#(files.count - listedFiles) more in the ZIP.</p>"# : ""
        return #"<ul class="files" aria-label="Files">\#(items)</ul>"# + more
    }

    /// How many files of a share the page lists.
    static let listedFiles = 200

    /// What the page previews of the file: a picture, a player, or a text's beginning, escaped.
    private static func preview(_ kind: PreviewKind?, text: Text?, of record: ShareRecord, link: String, query: String) -> String {
        let name = HTMLText.escaped(record.name)
        switch kind {
        case .picture, .firstPage:
            let source = HTMLText.escaped(link + "/preview" + query)
            return #"<img class="preview" src="\#(source)" alt="A preview of \#(name)">"#
        case .video:
            let source = HTMLText.escaped(link + "/media" + query)
            return #"<video class="preview" src="\#(source)" controls playsinline preload="metadata" aria-label="\#(name)"></video>"#
        case .audio:
            let source = HTMLText.escaped(link + "/media" + query)
            return #"<audio class="preview" src="\#(source)" controls preload="metadata" aria-label="\#(name)"></audio>"#
        case .text:
            guard let text else { return "" }
            let more =
                text.cut ? #"<p class="cut">The first \#(ByteSize.text(Int64(PreviewKind.textBytes))) of \#(ByteSize.text(record.size)).</p>"# : ""
            return #"<pre class="text" tabindex="0" aria-label="The beginning of \#(name)">\#(HTMLText.escaped(text.text))</pre>"# + more
        case nil:
            return ""
        }
    }

    private static func codeForm(wrong: Bool, triesLeft: Int?, heading: String) -> String {
        let problem =
            switch (wrong, triesLeft) {
            case (false, _): ""
            case (true, nil): "That code is not right."
            case (true, 0): "That code is not right, and that was the last try for now: the link waits a while."
            case (true, 1): "That code is not right. 1 try left before the link waits a while."
            case (true, let left?): "That code is not right. \(left) tries left before the link waits a while."
            }
        // Sent in the request's body, never in the address: a forwarded or bookmarked URL carries no code.
        return "<h1>\(heading)</h1><p>Type the code you were sent with the link. Capitals or not, either works.</p>"
            + (problem.isEmpty ? "" : #"<p class="problem" role="alert">\#(problem)</p>"#) + """
                <form method="post"><label for="code">Code</label>
                <input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" required minlength="4" maxlength="32" autofocus>
                <button class="button" type="submit">Open</button></form>
                """
    }

    /// When a link closes: `Opens until <time>` (or with no end date).
    static func until(_ expiresAt: Timestamp?) -> String {
        expiresAt.map { "Opens until \(time($0))" } ?? "Opens with no end date"
    }

    /// Which limit closed the link of `record`.
    private static func closed(_ record: ShareRecord?) -> String {
        guard let record else { return "It was closed since this page was opened." }
        if record.revokedAt != nil { return "Its owner stopped sharing it." }
        if let max = record.maxDownloads, (record.downloads ?? 0) >= max {
            return max == 1 ? "Its one download has been made." : "All \(max) downloads it allowed have been made."
        }
        return record.expiresAt.map { "It expired \(time($0))." } ?? "It has expired."
    }

    /// `2021-01-17 12:34 UTC` in a `<time>`, which the page's script shows in the reader's zone.
    private static func time(_ time: Timestamp) -> String {
        let text = time.description
        return #"<time datetime="\#(text)">\#(text.prefix(10)) \#(text.dropFirst(11).prefix(5)) UTC</time>"#
    }

    /// `45 seconds`, `2 minutes`.
    private static func wait(_ seconds: Int) -> String {
        seconds < 120 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes"
    }

    /// Takes away a preview that could not be made, rewrites every `<time>` in the reader's zone and language, and
    /// counts a wait (`data-seconds`) down.
    static let localTimes = """
        for(const i of document.querySelectorAll("img.preview")){const drop=()=>i.remove();\
        if(i.complete&&!i.naturalWidth)drop();else i.addEventListener("error",drop)}
        for(const t of document.querySelectorAll("time[datetime]"))\
        t.textContent=new Date(t.dateTime).toLocaleString([],{dateStyle:"medium",timeStyle:"short"});\
        const w=document.querySelector("[data-seconds]");\
        if(w){let s=+w.dataset.seconds;const tick=()=>{if(s<=0){w.parentNode.textContent="You may try again now.";return}\
        w.textContent=s+(s==1?" second":" seconds");s--;setTimeout(tick,1000)};tick()}
        """
    static let localTimesHash = "sha256-" + Data(SHA256.hash(data: Data(localTimes.utf8))).base64EncodedString()

    private static let style = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1d2129}
        .thumbnail{display:block;border-radius:8px;object-fit:cover;margin-bottom:.5rem}
        .preview{display:block;width:100%;height:auto;max-height:55vh;object-fit:contain;border-radius:8px;margin:.5rem 0;background:#0000000d}
        audio.preview{background:none}
        .text{max-height:60vh;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.875rem;background:#f5f6f8;
        padding:.75rem;border-radius:8px;margin:.5rem 0}.cut{font-size:.875rem;color:#5b6270;margin:0}
        main{max-width:28rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
        h1{font-size:1.25rem;overflow-wrap:anywhere;margin:.25rem 0}.lead{font-size:1rem;font-weight:400;color:#5b6270}
        h2{font-size:1.25rem;overflow-wrap:anywhere;margin:.25rem 0}.type{font-size:.875rem;color:#5b6270;margin:0}
        .service{font-weight:600;color:#1a73e8;margin:0 0 .5rem}
        .button{display:inline-block;margin-top:1rem;padding:.6rem 1.4rem;border:0;border-radius:8px;background:#1a73e8;color:#fff;
        font:inherit;text-decoration:none;cursor:pointer}.problem{color:#b3261e}
        input{display:block;width:100%;box-sizing:border-box;font:inherit;padding:.5rem;margin-top:.25rem;border:1px solid #aab;border-radius:6px}
        .message{margin:.75rem 0;padding:.5rem .75rem;border-left:3px solid #1a73e8;background:#f5f6f8;white-space:pre-line;
        overflow-wrap:anywhere}
        #code{text-transform:uppercase;letter-spacing:.1em}
        .files{list-style:none;padding:0;margin:.75rem 0;max-height:50vh;overflow:auto}.files li{display:flex;gap:.5rem;
        justify-content:space-between;padding:.4rem 0;border-top:1px solid #e3e5e8}.files a{overflow-wrap:anywhere;color:#1a62c8}
        .files span{flex:none;color:#5b6270;font-size:.875rem}
        .drop{margin:1rem 0;padding:1rem;border:2px dashed #aab;border-radius:8px;text-align:center}.drop .button{margin-top:0}
        .drop.over{border-color:#1a73e8;background:#e8f0fe}.pick{position:absolute;width:1px;height:1px;opacity:0}
        .pick:focus-visible+label{outline:3px solid #1a73e8;outline-offset:2px}
        .sending li{flex-wrap:wrap}.sending progress{flex-basis:100%;height:.5rem}.sending .state{flex-basis:100%}
        @media (max-width:30rem){main{margin:0;border-radius:0;min-height:100vh;box-sizing:border-box}}
        """
}
