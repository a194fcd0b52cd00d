import Foundation
import Storage

/// The YogiYogini part of the account export: roster, types, venues, the class in session, every session.
struct YogaExportSection: ProfileDataSection {
    let roster: YogaRosterRepository
    let venues: YogaVenueRepository
    let classes: YogaClassRepository
    let sessions: YogaSessionRepository
    let key = "yoga"

    struct Export: Encodable, Sendable {
        let students: [StudentJSON]
        let studentTypes: [StudentTypeJSON]
        let venues: [VenueJSON]
        let classInSession: ClassJSON?
        let sessions: [SessionJSON]
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        Export(
            students: try await roster.students(profileID: profileID).map(StudentJSON.init),
            studentTypes: try await roster.types(profileID: profileID).map(StudentTypeJSON.init),
            venues: try await venues.list(profileID: profileID).map(VenueJSON.init),
            classInSession: try await classes.current(profileID: profileID).map { ClassJSON($0, now: Date()) },
            sessions: try await sessions.list(profileID: profileID).map(SessionJSON.init)
        )
    }
}
