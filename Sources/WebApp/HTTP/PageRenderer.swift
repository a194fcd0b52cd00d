import Foundation
import Hummingbird
import Mustache

/// Fields every page's layout reads.
struct ShellModel {
    let title: String
    let assetVersion: String
    let signedIn: Bool
    let username: String
}

/// Renders mustache templates into HTML responses. Templates are loaded once at start, and a missing one
/// stops the start rather than failing a request later.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let assetVersion: String

    static let requiredTemplates = [
        "layout", "home", "signup", "login", "account", "error", "app-pending", "strategies", "strategy-card", "poetry", "poetry-public",
        "cities", "city", "country", "yoga", "stories", "story", "story-map",
    ]

    init(directory: String, assetVersion: String) async throws {
        let library = try await MustacheLibrary(directory: directory)
        for name in Self.requiredTemplates where library.getTemplate(named: name) == nil {
            throw MissingTemplate(name: name, directory: directory)
        }
        self.library = library
        self.assetVersion = assetVersion
    }

    /// Renders `template` with the shell fields plus the model's own stored properties.
    func render(_ template: String, title: String, model: Any? = nil, context: TroveRequestContext, status: HTTPResponse.Status = .ok) -> Response {
        let profile = context.session.profile
        let shell = ShellModel(
            title: title, assetVersion: assetVersion,
            signedIn: profile.map { !$0.isGuest } ?? false, username: profile?.username ?? ""
        )
        var values = Self.fields(of: shell)
        if let model { values.merge(Self.fields(of: model)) { _, page in page } }
        guard let html = library.render(values, withTemplate: template) else {
            return Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "Missing template \(template)")))
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    struct ErrorModel {
        let status: Int
        let message: String
    }

    func errorPage(status: HTTPResponse.Status, message: String, context: TroveRequestContext) -> Response {
        render("error", title: "\(status.reasonPhrase) · Trove", model: ErrorModel(status: status.code, message: message), context: context, status: status)
    }

    private static func fields(of value: Any) -> [String: Any] {
        var result: [String: Any] = [:]
        for child in Mirror(reflecting: value).children {
            if let label = child.label { result[label] = child.value }
        }
        return result
    }
}

struct MissingTemplate: Error, CustomStringConvertible {
    let name: String
    let directory: String
    var description: String { "The template '\(name).mustache' is missing from \(directory)." }
}
