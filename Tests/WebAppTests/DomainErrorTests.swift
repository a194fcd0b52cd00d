import Accounts
import ChooseYourDestiny
import CityRoulette
import MagneticPoetry
import ObliqueStrategies
import Testing
import YogiYogini

@testable import WebApp

/// Every domain error of every app is answered as a 4xx with a code of its own, never as a 500. The compiler makes
/// each app's error type know its answer (`TroveApp.DomainError: HTTPMappedError`, with exhaustive switches);
/// this checks what each case answers. A new case fails to compile until it has an answer, and belongs here.
@Suite struct DomainErrorTests {
    static let every: [[any Error]] = [
        [
            AccountError.invalidUsername("x"), .invalidPassword("x"), .usernameTaken, .alreadySignedIn, .wrongCredentials(),
            .wrongCredentials(triesLeft: 0),
            .tooManyAttempts(retryAfterSeconds: 3), .profileNotFound,
        ] as [AccountError],
        [
            StrategyError.cardNotFound, .emptyDeck, .editionNotFound(9), .invalidText("x"), .invalidNote("x"), .unknownTimeZone("x"),
            .historyEntryNotFound,
        ] as [StrategyError],
        [
            PoetryError.invalid("x"), .wordSetNotFound, .wordSetNameTaken("x"), .poemNotFound, .versionConflict(current: 2), .notAnImage,
            .backgroundNotFound,
            .pronunciationsNotImported,
        ] as [PoetryError],
        [
            CityError.invalidCoordinates("x"), .invalidRadius("x"), .invalidLimit("x"), .invalidQuery("x"), .cityNotFound,
            .countryNotFound, .notInCollection, .unknownCities([1]), .invalidCollection("x"),
        ] as [CityError],
        [
            StoryError.invalid(["x"]), .unreadable("x"), .storyNotFound, .resourceNotFound, .storyExists, .invalidPath("x"),
            .signInRequired,
        ] as [StoryError],
        [
            YogaError.invalid("x"), .studentNotFound, .studentTypeNotFound, .studentTypeExists("x"), .venueNotFound, .sessionNotFound,
            .noClass, .classInSession, .notOnRoster(["x"]), .studentHasSessions(2), .venueWithoutCoordinates,
        ] as [YogaError],
    ]

    static let flat: [any Error] = every.flatMap { $0 }

    @Test(arguments: Array(flat.indices))
    func isAClientError(index: Int) throws {
        let error = Self.flat[index]
        let answer = try #require(ErrorMapping.apiError(for: error), "\(error) has no answer: it would be a 500")
        #expect((400..<500).contains(answer.status.code), "\(error) answers \(answer.status.code)")
        #expect(!answer.code.isEmpty && !answer.message.isEmpty, "\(error)")
    }

    @Test func everyAppsErrorTypeIsListedHere() {
        let listed = Set(Self.flat.map { String(describing: type(of: $0)) })
        for app in TroveApps.all {
            #expect(listed.contains(String(describing: app.errorType)), "\(app.entry.name)'s errors are not in DomainErrorTests.every")
        }
    }
}

extension TroveApp {
    static var errorType: any Error.Type { DomainError.self }
}
