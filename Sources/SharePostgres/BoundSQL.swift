import PostgresNIO
import ShareHistory

/// SQL written a piece at a time, each value bound (`$1`, `$2`…) where it is written: for statements whose
/// conditions depend on the request, so that no condition and its values can drift apart.
struct BoundSQL {
    private(set) var text: String
    private(set) var binds = PostgresBindings()

    init(_ text: String = "") {
        self.text = text
    }

    mutating func append(_ more: String) {
        text += more
    }

    /// Binds `value` and writes its placeholder.
    mutating func bind(_ value: some PostgresDynamicTypeEncodable) {
        binds.append(value)
        text += "$\(binds.count)"
    }

    /// Binds an array (`text[]`, `bigint[]`…) and writes its placeholder.
    mutating func bind<Element: PostgresArrayEncodable>(array: [Element]) throws {
        try binds.append(array)
        text += "$\(binds.count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }
}
