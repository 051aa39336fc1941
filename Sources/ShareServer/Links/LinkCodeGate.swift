import Hummingbird
import ShareKit

/// The door of a link, a share's (`/s/{token}`) or a file request's (`/r/{token}`): tokens that open nothing and
/// wrong codes, held off where they could hurt (`LinkThrottle`). Wrong codes for a link from one address (five a
/// minute; one while the link meets twenty from anywhere), so that whoever saw a link can never lock out the one it
/// was meant for, who always gives the right code from an address of their own; tokens that do not exist, from one
/// address. A link that needs no code is never held off, nor is anyone for another link's guesses.
struct LinkCodeGate {
    /// Wrong codes per link and address, and tokens that do not exist per address.
    let throttle: LinkThrottle
    /// Wrong codes per link, from anywhere: past its number, the link is being guessed at.
    let codesTried: LinkThrottle

    /// Whether a request passes a link's code.
    enum Passage {
        /// It does: with the code it gave, nil when none was needed or the link's cookie remembered it.
        case passes(given: String?)
        /// It does not: the page that says why.
        case refused(RecipientPage.Content)
    }

    /// What a request from `client` for a token that opens nothing is answered: no such link, or after too many, a wait.
    func unknownToken(from client: String) -> RecipientPage.Content {
        let unknown = "unknown tokens from " + client
        if let wait = throttle.refusal(unknown) { return .tooManyTries(retryAfter: wait) }
        throttle.fail(unknown)
        return .notFound
    }

    /// Whether a request gives `code`, the code of the link with `token` (nil: it needs none): the one `given` (a
    /// form's), else the query's; one remembered for the link (`LinkCodeCookie`) passes too, and a stale one is no try.
    func check(_ code: String?, token: String, _ request: Request, client: String, given form: String?) throws -> Passage {
        guard let code else { return .passes(given: nil) }
        let given = try form ?? FormEncoding.values(request.uri.query, known: ["code"])["code"]
        if given == nil, let remembered = LinkCodeCookie.code(in: request.headers), ExtractionCode.matches(remembered, code) {
            return .passes(given: nil)
        }
        guard let given else { return .refused(.code(wrong: false)) }
        let (link, guesser) = ("codes for " + token, "codes for \(token) from \(client)")
        let underAttack = codesTried.refusal(link) != nil
        if let wait = throttle.refusal(guesser, allowed: underAttack ? 1 : nil) { return .refused(.tooManyTries(retryAfter: wait)) }
        guard ExtractionCode.matches(given, code) else {
            throttle.fail(guesser)
            codesTried.fail(link)
            return .refused(.code(wrong: true, triesLeft: throttle.triesLeft(guesser, allowed: underAttack ? 1 : nil)))
        }
        return .passes(given: given)
    }
}
