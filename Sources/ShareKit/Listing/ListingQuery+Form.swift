/// A `ListingQuery` as query parameters: one strict decoder, whose every error names its parameter, and one
/// encoder, which writes only the fields that are set, in the order of `Parameter`.
extension ListingQuery {
    /// Every parameter a listing understands; others are ignored, so that old servers tolerate new clients.
    public enum Parameter: String, CaseIterable, Sendable {
        case folder, recursive, q, date, from, to, type, state, tz, sort, order, limit, trashed, cursor
    }

    /// Reads a query string (`date=2021-01-17&tz=Asia%2FShanghai`).
    public init(query: String?) throws(ShareError) {
        try self.init(parameters: try FormEncoding.pairs(query))
    }

    /// Reads decoded parameters, refusing any invalid value, and a known parameter given twice, by its name.
    public init(parameters: [(name: String, value: String)]) throws(ShareError) {
        var values: [Parameter: String] = [:]
        for (name, value) in parameters {
            guard let parameter = Parameter(rawValue: name) else { continue }
            guard values.updateValue(value, forKey: parameter) == nil else { throw .invalidParameter(name, "is given more than once") }
            // No name holds a control character, and SQLite would cut a text at a NUL: refused, never dropped.
            if let control = value.unicodeScalars.first(where: FileName.isControl) {
                throw .invalidParameter(name, "must not contain control characters (found U+\(FileName.hex(control)))")
            }
        }
        self.init()
        for parameter in Parameter.allCases {
            if let text = values[parameter] { try read(text, as: parameter) }
        }
    }

    /// The parameters of the fields that are set, in the order of `Parameter`.
    public var parameters: [(name: String, value: String)] {
        Parameter.allCases.compactMap { parameter in value(of: parameter).map { (parameter.rawValue, $0) } }
    }

    /// The query string of `parameters`.
    public var formEncoded: String { FormEncoding.encode(parameters) }

    private mutating func read(_ text: String, as parameter: Parameter) throws(ShareError) {
        let name = parameter.rawValue
        switch parameter {
        case .date:
            guard let day = CalendarDay(text) else { throw .invalidParameter(name, "must be a date as YYYY-MM-DD, got '\(text)'") }
            date = day
        case .from, .to:
            guard let bound = Bound(text) else {
                throw .invalidParameter(name, "must be a date (YYYY-MM-DD) or an RFC 3339 time, got '\(text)'")
            }
            if parameter == .from { from = bound } else { to = bound }
        case .tz:
            guard TimeZoneName.zone(text) != nil else {
                throw .invalidParameter(name, "must be an IANA time zone such as Europe/Paris, got '\(text)'")
            }
            zone = text
        case .q:
            if let problem = SearchWords.problem(with: text) { throw .invalidParameter(name, problem) }
            self.text = text
        case .type:
            types = try Self.set(text, parameter: parameter, noun: "categories")
        case .state:
            states = try Self.set(text, parameter: parameter, noun: "states")
        case .folder:
            do {
                folder = try FolderPath.normalize(text)
            } catch .invalidField(_, let reason) {
                throw .invalidParameter(name, reason)
            }
        case .recursive:
            recursive = try BooleanParameter.parse(text, parameter: name)
        case .trashed:
            trashed = try BooleanParameter.parse(text, parameter: name)
        case .sort:
            sort = try Self.choice(text, parameter: name)
        case .order:
            order = try Self.choice(text, parameter: name)
        case .limit:
            limit = try Self.limit(text)
        case .cursor:
            cursor = text
        }
    }

    /// A page size as `limit=` writes it (listings, events, downloads); a 400 naming `limit` otherwise.
    public static func limit(_ text: String) throws(ShareError) -> Int {
        guard let number = Int64(clientDigits: text), number >= Int64(limits.lowerBound), number <= Int64(limits.upperBound) else {
            throw .invalidParameter(
                Parameter.limit.rawValue, "must be a whole number from 1 to \(limits.upperBound), got '\(text.prefix(40))'")
        }
        return Int(number)
    }

    private func value(of parameter: Parameter) -> String? {
        switch parameter {
        case .folder: return folder
        case .recursive: return recursive.map(String.init)
        case .q: return text
        case .date: return date?.description
        case .from: return from?.description
        case .to: return to?.description
        case .type: return types.map { types in IconCategory.allCases.filter(types.contains).map(\.rawValue).joined(separator: ",") }
        case .state: return states.map { states in ShareState.allCases.filter(states.contains).map(\.rawValue).joined(separator: ",") }
        case .tz: return zone
        case .sort: return sort?.rawValue
        case .order: return order?.rawValue
        case .limit: return limit.map(String.init)
        case .trashed: return trashed.map(String.init)
        case .cursor: return cursor
        }
    }

    /// A comma-separated list of `Choice`s (`pdf,doc`), any case; `noun` names them in the error.
    private static func set<Choice: RawRepresentable & CaseIterable & Hashable>(
        _ text: String, parameter: Parameter, noun: String
    ) throws(ShareError) -> Set<Choice> where Choice.RawValue == String {
        var choices: Set<Choice> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let choice = Choice(rawValue: name.lowercased()) else {
                let known = Choice.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidParameter(parameter.rawValue, "must list \(noun) among \(known), got '\(name)'")
            }
            choices.insert(choice)
        }
        return choices
    }

    private static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String, parameter: String) throws(ShareError) -> Choice
    where Choice.RawValue == String {
        guard let choice = Choice(rawValue: text) else {
            let known = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidParameter(parameter, "must be one of \(known), got '\(text)'")
        }
        return choice
    }
}
