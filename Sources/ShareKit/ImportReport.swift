/// The answer to `POST /share/import`: valid records are stored, invalid ones are reported by line.
public struct ImportReport: Codable, Sendable, Equatable {
    public struct Problem: Codable, Sendable, Equatable {
        public var line: Int
        public var detail: String

        public init(line: Int, detail: String) {
            self.line = line
            self.detail = detail
        }
    }

    public var imported = 0
    public var rejected = 0
    /// The first problems, in order (at most `maxProblems`; `rejected` counts them all).
    public var problems: [Problem] = []

    public static let maxProblems = 100

    public init() {}

    public mutating func reject(line: Int, detail: String) {
        rejected += 1
        if problems.count < Self.maxProblems { problems.append(Problem(line: line, detail: detail)) }
    }
}
