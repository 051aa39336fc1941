import ShareClient

extension CommandContext {
    /// The record's JSON for scripts, a sentence for people.
    func report(_ answer: ShareAPI.Answer, _ sentence: String) {
        json ? printJSON(answer.body) : print(sentence)
    }
}
