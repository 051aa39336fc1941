import Hummingbird

extension RouterMethods {
    /// Answers every other method on `path` with 405 instead of the router's 404.
    func rejectMethods(on path: RouterPath, except allowed: [HTTPRequest.Method]) {
        let others: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options, .trace, .init("QUERY")!]
        for method in others where !allowed.contains(method) {
            on(path, method: method) { _, _ -> Response in throw Problem.methodNotAllowed(allowed: allowed) }
        }
    }
}
