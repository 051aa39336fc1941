import Hummingbird

extension RouterMethods {
    /// Answers every other method on `path` with 405 instead of the router's 404, naming `allowed`.
    func rejectMethods(on path: RouterPath, except allowed: [HTTPRequest.Method]) {
        rejectMethods(on: path, handled: allowed) { _ in allowed }
    }

    /// Answers every method on `path` but `handled` with 405, naming the methods `allowed` gives for the request:
    /// for a path whose routes answer some of its values alone (`/share/batch` takes a POST, no other record does).
    func rejectMethods(
        on path: RouterPath, handled: [HTTPRequest.Method], allowed: @escaping @Sendable (Context) -> [HTTPRequest.Method]
    ) {
        let others: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options, .trace, .init("QUERY")!]
        for method in others where !handled.contains(method) {
            on(path, method: method) { _, context -> Response in throw Problem.methodNotAllowed(allowed: allowed(context)) }
        }
    }
}
