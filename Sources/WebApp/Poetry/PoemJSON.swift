import Foundation
import MagneticPoetry
import Storage

/// A poem as the API answers it (and as the account export keeps it); a list leaves the board out.
struct PoemJSON: Codable, Sendable, APIAnswer {
    let id: String
    let title: String
    let version: Int
    let updated_at: Date
    let board: Board?
    let has_background: Bool
    let public_id: String?

    init(_ poem: PoemRepository.Poem) {
        id = poem.id
        title = poem.title
        version = poem.version
        updated_at = poem.updatedAt
        board = poem.board
        has_background = poem.hasBackground
        public_id = poem.publicId
    }
}
