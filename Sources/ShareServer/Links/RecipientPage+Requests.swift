import ShareHistory
import ShareKit

extension RecipientPage {
    /// A file request's page: its title, who asks, within which limits and until when, that nobody else with the link
    /// sees what is sent; where to pick or drop files, which `script` sends (each with its progress, resumed after a
    /// break); and without JavaScript, how to send with `curl`.
    static func request(_ opened: OpenedRequest, link: String, query: String, script: String) -> String {
        let request = opened.request
        let owner = opened.owner.isEmpty ? nil : HTMLText.escaped(opened.owner)
        let asks = owner.map { "<strong>\($0)</strong> asks you for files." } ?? "You are asked for files."
        var limits =
            request.maxFiles.map { max in
                let left = max - request.received
                return left == 1 ? "1 more file" : "Up to \(left) more files"
            } ?? "Any number of files"
        if let maxBytes = request.maxBytes { limits += ", each at most \(ByteSize.text(maxBytes))" }
        let head = """
            <h1>\(HTMLText.escaped(request.title))</h1><p class="lead">\(asks)</p>
            <p>\(limits). \(until(request.expiresAt)).</p>
            <p class="type">Only \(owner ?? "its owner") sees what you send: nobody else with this link does.</p>
            """
        guard request.state == .open else { return head + "<p><strong>It has all the files it asked for.</strong></p>" }
        let files = HTMLText.escaped(link + "/files/")
        return head + """
            <form class="drop" id="drop" data-link="\(HTMLText.escaped(link))" data-query="\(HTMLText.escaped(query))" \
            data-max-bytes="\(request.maxBytes.map(String.init) ?? "")">
            <input type="file" id="pick" class="pick" multiple>
            <label class="button" for="pick">Choose files</label><p class="type">or drop them here</p></form>
            <p id="said" role="status"></p>
            <ul class="files sending" id="sent" aria-label="Files sent"></ul>
            <noscript><p>This page sends files with JavaScript. Without it, send each file with <code>curl -T FILE \(files)NAME</code>.</p></noscript>
            <script type="module" src="\(HTMLText.escaped(script))"></script>
            """
    }
}
