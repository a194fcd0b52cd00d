import NIOCore
import Synchronization

/// Pages already rendered, by template, shell and model (`PageRenderer.renderKept`). A page is a pure
/// function of those, so a kept page is never stale; the store is emptied when it reaches `limit` pages, which
/// bounds its memory (a few MB) however many people sign in.
final class RenderedPages: Sendable {
    /// Unchecked: `model` is an AnyHashable made only from a Sendable model (see init).
    struct Key: Hashable, @unchecked Sendable {
        let template: String
        let shell: ShellModel
        let model: AnyHashable

        init<Model: Hashable & Sendable>(template: String, shell: ShellModel, model: Model) {
            self.template = template
            self.shell = shell
            self.model = AnyHashable(model)
        }
    }

    static let limit = 512
    private let pages = Mutex<[Key: ByteBuffer]>([:])

    func html(for key: Key) -> ByteBuffer? {
        pages.withLock { $0[key] }
    }

    func keep(_ html: ByteBuffer, for key: Key) {
        pages.withLock { pages in
            if pages.count >= Self.limit { pages.removeAll(keepingCapacity: true) }
            pages[key] = html
        }
    }
}
