import Foundation
import Hummingbird
import ShareHistory
import ShareKit

/// Reading JSON request bodies and writing JSON responses.
enum JSONBody {
    /// Decodes the body as `Body`, turning every decoding failure into an error that names the field.
    ///
    /// A body above `maxBytes` throws `NIOTooManyBytesError`, answered as 413. One that stops arriving is the
    /// `ConnectionGuard`'s to answer (408), for every route alike.
    static func decode<Body: Decodable>(_ type: Body.Type, from request: Request, maxBytes: Int) async throws -> Body {
        let buffer = try await request.body.collect(upTo: maxBytes)
        return try decode(Body.self, from: Data(buffer: buffer))
    }

    /// Decodes one JSON object, turning a failure into an error that names the field. A key given twice is
    /// refused by name: the decoder would silently keep one of the two values.
    static func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws(ShareError) -> Body {
        let members = JSONObjectMembers(Array(data))
        if let key = members?.repeatedKey { throw .invalidField(key, "is given more than once") }
        do {
            return try WireJSON.decoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw members.flatMap { unreadableMember(of: $0, as: Body.self) } ?? problem(for: error)
        } catch {
            throw .malformedBody("the body could not be read as JSON")
        }
    }

    /// The member the decoder cannot read, found by decoding each alone, when the body as a whole is
    /// well-formed: a number out of range (`1e400`) is otherwise reported against the whole body.
    private static func unreadableMember<Body: Decodable>(of members: JSONObjectMembers, as type: Body.Type) -> ShareError? {
        for (key, value) in members.members {
            guard let quotedKey = try? WireJSON.encoder().encode(key) else { continue }
            let alone = Data("{".utf8) + quotedKey + Data(":".utf8) + Data(value) + Data("}".utf8)
            guard isUnreadable(alone, as: Body.self) else { continue }
            return .invalidField(key, "is not a value this server can read: '\(String(decoding: value.prefix(40), as: UTF8.self))'")
        }
        return nil
    }

    /// True when the decoder rejects `data` as a whole rather than one field of it.
    private static func isUnreadable<Body: Decodable>(_ data: Data, as type: Body.Type) -> Bool {
        do {
            _ = try WireJSON.decoder().decode(Body.self, from: data)
            return false
        } catch DecodingError.dataCorrupted(let context) {
            return context.codingPath.isEmpty
        } catch {
            return false
        }
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        response(bytes: try WireJSON.encoder().encode(value), status: status, headers: headers)
    }

    /// A response of JSON already written as bytes (a listing's page, statistics).
    static func response(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func problem(for error: DecodingError) -> ShareError {
        switch error {
        case .typeMismatch(let expected, let context), .valueNotFound(let expected, let context):
            guard let field = context.codingPath.first?.stringValue else { return .malformedBody("the body must be a JSON object") }
            return .invalidField(field, "must be \(describe(expected))")
        case .dataCorrupted(let context):
            guard let field = context.codingPath.first?.stringValue else { return .malformedBody("the body is not valid JSON") }
            return .invalidField(field, context.debugDescription)
        case .keyNotFound(let key, _):
            return .invalidField(key.stringValue, "is required")
        @unknown default:
            return .malformedBody("the body could not be read as JSON")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is WholeNumber.Type, is Decimal.Type: return "an integer"
        default: return "of another type"
        }
    }
}
