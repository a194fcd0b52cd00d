import Foundation
import Hummingbird
import Mustache

/// Fields every page's layout reads.
struct ShellModel: Hashable, Sendable {
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
    let kept = RenderedPages()

    /// Trove's own pages; each app names its own (`TroveApp.templates`).
    static let shellTemplates = ["layout", "home", "signup", "login", "account", "error"]
    /// The apps, in the home page's order (an error page leads back to the app it belongs to).
    let apps: [AppEntry]

    /// Loads the templates of `directory` and of `more` (an app's own folder), refusing to start when one of
    /// `required` is missing.
    init(directory: String, more: [URL] = [], assetVersion: String, required: [String], apps: [AppEntry]) async throws {
        var library = try await MustacheLibrary(directory: directory)
        for folder in more {
            for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            where file.pathExtension == "mustache" {
                try library.register(String(contentsOf: file, encoding: .utf8), named: file.deletingPathExtension().lastPathComponent)
            }
        }
        for name in required where library.getTemplate(named: name) == nil {
            throw MissingTemplate(name: name, directory: directory)
        }
        self.library = library
        self.assetVersion = assetVersion
        self.apps = apps
    }

    /// Renders `template` with the shell fields plus the model's own stored properties.
    func render(_ template: String, title: String, model: Any? = nil, context: TroveRequestContext, status: HTTPResponse.Status = .ok)
        -> Response
    {
        let shell = shell(title: title, context: context)
        guard let html = html(template, shell: shell, model: model) else { return Self.missing(template) }
        return Self.response(html, status: status)
    }

    /// The same for a page whose model says everything it shows: the page is rendered once per model and
    /// shell (signed in, username) and kept (`RenderedPages`), since Mustache's rendering is most of a page
    /// request's cost.
    func renderKept<Model: Hashable & Sendable>(
        _ template: String, title: String, model: Model, context: TroveRequestContext
    ) -> Response {
        let shell = shell(title: title, context: context)
        let key = RenderedPages.Key(template: template, shell: shell, model: model)
        if let html = kept.html(for: key) { return Self.response(html, status: .ok) }
        guard let rendered = html(template, shell: shell, model: model) else { return Self.missing(template) }
        let html = ByteBuffer(string: rendered)
        kept.keep(html, for: key)
        return Self.response(html, status: .ok)
    }

    /// A page that shows nothing beyond the shell (its data comes from the API).
    func renderKept(_ template: String, title: String, context: TroveRequestContext) -> Response {
        renderKept(template, title: title, model: ShellOnly(), context: context)
    }

    private struct ShellOnly: Hashable, Sendable {}

    private func shell(title: String, context: TroveRequestContext) -> ShellModel {
        let profile = context.session.profile
        return ShellModel(
            title: title, assetVersion: assetVersion,
            signedIn: profile.map { !$0.isGuest } ?? false, username: profile?.username ?? ""
        )
    }

    private func html(_ template: String, shell: ShellModel, model: Any?) -> String? {
        var values = Self.fields(of: shell)
        if let model { values.merge(Self.fields(of: model)) { _, page in page } }
        return library.render(values, withTemplate: template)
    }

    private static func response(_ html: String, status: HTTPResponse.Status) -> Response {
        response(ByteBuffer(string: html), status: status)
    }

    private static func response(_ html: ByteBuffer, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: html))
    }

    private static func missing(_ template: String) -> Response {
        Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "Missing template \(template)")))
    }

    struct ErrorModel {
        let status: Int
        let message: String
        /// The way back: the app the failed page belongs to, or Trove's home.
        let backHref: String
        let backLabel: String
    }

    func errorPage(status: HTTPResponse.Status, message: String, path: String = "/", context: TroveRequestContext) -> Response {
        let app = apps.first { path == "/\($0.slug)" || path.hasPrefix("/\($0.slug)/") }
        let model = ErrorModel(
            status: status.code, message: message,
            backHref: app.map { "/\($0.slug)" } ?? "/", backLabel: app.map { "Back to \($0.name)" } ?? "Back to Trove"
        )
        return render("error", title: "\(status.reasonPhrase) · Trove", model: model, context: context, status: status)
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
