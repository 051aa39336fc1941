/// The values a request body holds.
indirect enum JSONField: Encodable {
    case text(String)
    case texts([String])
    case integer(Int64)
    case bool(Bool)
    case null
    case objects([[String: JSONField]])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .texts(let texts): try container.encode(texts)
        case .integer(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        case .objects(let objects): try container.encode(objects)
        }
    }
}

/// What `POST /share/batch` answers.
struct BatchReport: Decodable {
    let count: Int
}
