import ShareKit

extension ShareID {
    /// Checks an id given by a client (`POST` with `id`, or an import), naming the rule it breaks.
    public static func validate(_ id: String, field: String = "id") throws(ShareError) -> String {
        guard (1...64).contains(id.utf8.count) else {
            throw .invalidField(field, "must be 1 to 64 characters long")
        }
        guard usesAllowedCharacters(id) else {
            throw .invalidField(field, "may contain only letters A-Z, a-z, digits, '_' and '-'")
        }
        guard !isReserved(id) else { throw .invalidField(field, "must not be the reserved word '\(id)'") }
        return id
    }
}
