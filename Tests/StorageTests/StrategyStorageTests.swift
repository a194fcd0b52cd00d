import DatabaseDrivers
import Foundation
import ObliqueStrategies
import SQLKit
import Storage
import TestSupport
import Testing

@Suite struct StrategyStorageTests {
    @Test(arguments: DatabaseKind.allCases)
    func importIsIdempotentAndNumbersCardsWithinEditions(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let first = try await TestDeck.importAll(into: database)
            #expect(first.inserted == 9)
            let second = try await TestDeck.importAll(into: database)
            #expect(second.inserted == 0 && second.updated == 0 && second.retired == 0 && second.unchanged == 9)
            let cards = try await StrategyDeckRepository(database: database.sql).publishedCards()
            #expect(cards.count == 9)
            #expect(cards.filter { $0.edition == 2 }.map(\.cardNumber) == [1, 2, 3])
            #expect(cards.first { $0.text == "Listen to the quiet voice" }?.edition == DeckSection.firstExtraEdition)
            let sections = try await StrategyDeckRepository(database: database.sql).sections()
            #expect(
                sections.map(\.label) == ["1st edition (1975)", "2nd edition (1978)", "3rd edition (1979)", "4th edition (1996)", "Extra"])
            #expect(sections.map(\.count) == [3, 3, 1, 1, 1])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aNewerFileUpdatesInPlaceWithoutBreakingFavourites(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            try await TestDeck.importAll(into: database)
            let deck = StrategyDeckRepository(database: database.sql)
            let mine = StrategyProfileRepository(database: database.sql)
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let old = try #require(try await deck.publishedCards().first { $0.text == "Use an old idea" })
            let dropped = try #require(try await deck.publishedCards().first { $0.text == "Work at a different speed" })
            try await mine.setFavourite(profileID: profile.id, cardID: old.id)
            try await mine.setFavourite(profileID: profile.id, cardID: dropped.id)

            let newer = [
                DeckSection(
                    name: "Edition 1", cards: ["A brand new card", "Honour thy error as a hidden intention", "Use an old idea, again"])
            ]
            let report = try await StrategyImporter(database: database.sql).importSections(newer)
            #expect(report.inserted == 1 && report.retired == 1)

            let favourites = try await mine.favourites(profileID: profile.id)
            #expect(Set(favourites.map(\.id)) == [old.id, dropped.id])
            #expect(favourites.first { $0.id == old.id }?.text == "Use an old idea, again")
            // The retired card leaves the deck but still opens by id.
            #expect(try await deck.publishedCards().contains { $0.id == dropped.id } == false)
            #expect(try await deck.card(id: dropped.id, visibleTo: nil)?.text == "Work at a different speed")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func favouritesAreIdempotentPerProfileAndCountedInPopular(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            try await TestDeck.importAll(into: database)
            let cards = try await StrategyDeckRepository(database: database.sql).publishedCards()
            let repository = StrategyProfileRepository(database: database.sql)
            let profiles = ProfileRepository(database: database.sql)
            let ada = try await profiles.createGuest()
            let bob = try await profiles.createGuest()
            try await repository.setFavourite(profileID: ada.id, cardID: cards[0].id)
            try await repository.setFavourite(profileID: ada.id, cardID: cards[0].id)
            try await repository.setFavourite(profileID: bob.id, cardID: cards[0].id)
            try await repository.setFavourite(profileID: bob.id, cardID: cards[1].id)
            #expect(try await repository.favourites(profileID: ada.id).map(\.id) == [cards[0].id])
            let popular = try await repository.popular()
            #expect(popular.map(\.card.id) == [cards[0].id, cards[1].id])
            #expect(popular.map(\.favourites) == [2, 1])
            try await repository.removeFavourite(profileID: ada.id, cardID: cards[0].id)
            #expect(try await repository.favourites(profileID: ada.id).isEmpty)
            #expect(try await repository.favourites(profileID: bob.id).count == 2)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func ownCardsBelongToTheirProfileOnly(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let repository = StrategyProfileRepository(database: database.sql)
            let deck = StrategyDeckRepository(database: database.sql)
            let profiles = ProfileRepository(database: database.sql)
            let ada = try await profiles.createGuest()
            let bob = try await profiles.createGuest()
            let first = try await repository.createOwnCard(profileID: ada.id, text: "Walk the dog first")
            let second = try await repository.createOwnCard(profileID: ada.id, text: "Call someone")
            #expect(first.edition == 0 && first.cardNumber == 1 && second.cardNumber == 2)
            #expect(try await deck.card(id: first.id, visibleTo: ada.id) == first)
            #expect(try await deck.card(id: first.id, visibleTo: bob.id) == nil)
            #expect(try await deck.card(id: first.id, visibleTo: nil) == nil)
            #expect(try await repository.updateOwnCard(profileID: bob.id, id: first.id, text: "Hijacked") == nil)
            #expect(try await repository.deleteOwnCard(profileID: bob.id, id: first.id) == false)
            #expect(try await repository.updateOwnCard(profileID: ada.id, id: first.id, text: "Walk the cat")?.text == "Walk the cat")
            #expect(try await repository.deleteOwnCard(profileID: ada.id, id: second.id))
            #expect(try await repository.ownCards(profileID: ada.id).map(\.text) == ["Walk the cat"])
            #expect(try await deck.publishedCards().isEmpty, "own cards never join the published deck")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func historyKeepsTheLatestFiftyDrawsWithNotes(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            try await TestDeck.importAll(into: database)
            let cards = try await StrategyDeckRepository(database: database.sql).publishedCards()
            let repository = StrategyProfileRepository(database: database.sql)
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            for index in 0..<55 {
                try await repository.recordDraw(
                    profileID: profile.id, cardID: cards[index % cards.count].id, at: start.addingTimeInterval(Double(index)))
            }
            let history = try await repository.history(profileID: profile.id)
            #expect(history.count == 50)
            // Trimmed in the table, not only in what is shown (the database's trigger does it).
            let stored = try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("strategy_draws").where("profile_id", .equal, profile.id).first()?.decode(column: "n", as: Int.self)
            #expect(stored == 50)
            #expect(history.first?.drawnAt == start.addingTimeInterval(54))
            #expect(history.last?.drawnAt == start.addingTimeInterval(5))
            let noted = try await repository.setNote(profileID: profile.id, entryID: history[0].id, note: "Used it for the chorus")
            #expect(noted?.note == "Used it for the chorus")
            let other = try await ProfileRepository(database: database.sql).createGuest()
            #expect(try await repository.setNote(profileID: other.id, entryID: history[0].id, note: "x") == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func theTrimKeepsTheNewestFiftyByTimeThenOrderAndTouchesNoOtherProfile(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            try await TestDeck.importAll(into: database)
            let cards = try await StrategyDeckRepository(database: database.sql).publishedCards()
            let repository = StrategyProfileRepository(database: database.sql)
            let profiles = ProfileRepository(database: database.sql)
            let (busy, quiet) = (try await profiles.createGuest(), try await profiles.createGuest())
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            for index in 0..<3 {
                try await repository.recordDraw(profileID: quiet.id, cardID: cards[0].id, at: start.addingTimeInterval(Double(index)))
            }
            // Four draws share each millisecond, as quick taps can: among equal times the later draw is the newer.
            for index in 0..<70 {
                try await repository.recordDraw(
                    profileID: busy.id, cardID: cards[index % cards.count].id, at: start.addingTimeInterval(Double(index / 4)))
            }
            let kept = try await repository.history(profileID: busy.id)
            #expect(kept.count == 50)
            let stored = try await database.sql.select().column("card_id").from("strategy_draws")
                .where("profile_id", .equal, busy.id).orderBy("id").all().map { try $0.decode(column: "card_id", as: Int.self) }
            #expect(stored == (20..<70).map { cards[$0 % cards.count].id }, "the 20 oldest draws went, the newest 50 stayed")
            #expect(kept.map(\.card.id) == stored.reversed())
            #expect(try await repository.history(profileID: quiet.id).count == 3, "a profile under 50 keeps every draw")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func shuffleMemoryStartsANewRoundForTheExhaustedSet(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            try await TestDeck.importAll(into: database)
            let cards = try await StrategyDeckRepository(database: database.sql).publishedCards()
            let repository = StrategyProfileRepository(database: database.sql)
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            try await repository.recordShuffleDraw(profileID: profile.id, cardID: cards[0].id, newRound: nil)
            try await repository.recordShuffleDraw(profileID: profile.id, cardID: cards[1].id, newRound: nil)
            #expect(try await repository.shuffleDrawn(profileID: profile.id) == [cards[0].id, cards[1].id])
            try await repository.recordShuffleDraw(profileID: profile.id, cardID: cards[0].id, newRound: [cards[0].id, cards[1].id])
            #expect(try await repository.shuffleDrawn(profileID: profile.id) == [cards[0].id])
            try await repository.resetShuffle(profileID: profile.id)
            #expect(try await repository.shuffleDrawn(profileID: profile.id).isEmpty)
        }
    }
}
