import ServiceLifecycle

/// The store `shared` serves, opened from `[database]` by the store's own module, and the jobs that keep that kind of
/// store (SQLite's log checkpoints, automatic backups, PostgreSQL's connection pool). Nothing above it asks which
/// store it is.
public struct ServedStore: Sendable {
    public var store: any ShareStore
    /// What runs beside the server for as long as it serves.
    public var services: [any Service]

    public init(store: any ShareStore, services: [any Service] = []) {
        self.store = store
        self.services = services
    }
}
