import HTTPTypes
import ShareKit

/// The code a recipient typed in a link's page, kept by their browser for that link alone (its path), for twelve
/// hours, out of scripts' reach (`HttpOnly`) and out of other sites' requests but a plain visit (`SameSite=Lax`): the
/// page, the file and the thumbnail open without the code in any address.
enum LinkCodeCookie {
    static let name = "share-code"
    static let maxAgeSeconds = 43_200

    /// The `Set-Cookie` value keeping `code` for the link at `path`. Codes are letters and digits only.
    static func setting(_ code: String, path: String) -> String {
        "\(name)=\(code); Path=\(path); Max-Age=\(maxAgeSeconds); HttpOnly; SameSite=Lax"
    }

    /// The code the request's cookies carry for its link, when they carry one that could be a code.
    static func code(in headers: HTTPFields) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0] == name, (try? ExtractionCode.validate(parts[1])) != nil { return parts[1] }
            }
        }
        return nil
    }
}
