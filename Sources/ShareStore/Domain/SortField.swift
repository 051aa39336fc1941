/// What a listing is ordered by; ties are always broken by id so that pages never overlap or skip.
public enum SortField: String, CaseIterable, Sendable {
    case createdAt, name, size
}

public enum SortDirection: String, CaseIterable, Sendable {
    case asc, desc
}
