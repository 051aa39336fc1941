import Hummingbird

/// The paths no authenticator reads: health checks, the OpenAPI document and the page's own files answer whoever asks,
/// so that a health check carrying a stale token still gets its answer; and shares' links, which their token guards.
struct SignInScope: Sendable {
    /// Full paths, base path included, in their one spelling (`RequestPath`).
    let openPaths: Set<String>
    /// Beginnings of full paths that are open, such as `/s/`.
    var openPrefixes: [String] = []

    func isOpen(_ request: Request) -> Bool {
        openPaths.contains(request.uri.path) || openPrefixes.contains { request.uri.path.hasPrefix($0) }
    }

    /// Whether an authenticator reads `request`: not on an open path, and not once an earlier one has named its user.
    func asks(_ request: Request, _ context: ShareRequestContext) -> Bool {
        context.identity == nil && !isOpen(request)
    }
}
