import CityRoulette
import DatabaseDrivers
import Foundation
import Storage
import TestSupport
import Testing

@Suite struct CityStorageTests {
    @Test(arguments: DatabaseKind.allCases)
    func importsIdempotentlyAndReadsEverythingBack(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let repository = CityRepository(database: database.sql)
            #expect(try await repository.importState() == nil)
            let cities = try TestCities.cities()
            let countries = try TestCities.countries()
            var reported: [Int] = []
            let progress = ProgressLog()
            try await repository.importData(dataset: "cities500", cities: cities, countries: countries) { done, _ in progress.add(done) }
            reported = progress.values
            #expect(reported.last == cities.count)
            // Twice is the same as once.
            try await repository.importData(dataset: "cities500", cities: cities, countries: countries, now: Date().addingTimeInterval(1))
            let (read, keys, spellings) = try await repository.allCities(pageSize: 5)
            #expect(read == cities.map(\.city))
            #expect(keys == cities.map(\.searchKeys))
            #expect(
                spellings
                    == cities.flatMap {
                        SearchKey.spellingRules(keys: $0.searchKeys, joinedSpellings: $0.spellings.joined(separator: "\t"))
                    })
            #expect(read.first { $0.geonameid == TestCities.florenceID }?.latitude == 43.77925)
            #expect(try await repository.allCountries() == countries)
            let state = try #require(try await repository.importState())
            #expect(state.dataset == "cities500" && state.cityCount == cities.count)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aSmallerImportDropsCitiesButKeepsCollectedOnes(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let repository = CityRepository(database: database.sql)
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let cities = try TestCities.cities()
            let countries = try TestCities.countries()
            try await repository.importData(dataset: "cities500", cities: cities, countries: countries)
            _ = try await CityCollectionRepository(database: database.sql)
                .importCities([CollectedCity(geonameid: TestCities.pratoID, favourite: true)], profileID: profile.id)
            let florenceOnly = cities.filter { $0.city.geonameid == TestCities.florenceID }
            try await repository.importData(
                dataset: "cities15000", cities: florenceOnly, countries: countries, now: Date().addingTimeInterval(5))
            let ids = try await repository.allCities().cities.map(\.geonameid)
            #expect(Set(ids) == [TestCities.florenceID, TestCities.pratoID])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func importReplacesAndSaveMakesEqual(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let collection = CityCollectionRepository(database: database.sql)
            let profiles = ProfileRepository(database: database.sql)
            let owner = try await profiles.createGuest()
            let stranger = try await profiles.createGuest()
            // 40 plain and 10 favourites, imported in two goes.
            #expect(
                try await collection.importCities((1...40).map { CollectedCity(geonameid: $0, favourite: false) }, profileID: owner.id)
                    == 40)
            #expect(
                try await collection.importCities((41...50).map { CollectedCity(geonameid: $0, favourite: true) }, profileID: owner.id)
                    == 50)
            // Importing a city again replaces its star, without a duplicate.
            #expect(try await collection.importCities([CollectedCity(geonameid: 5, favourite: true)], profileID: owner.id) == 50)
            #expect(try await collection.entry(geonameid: 5, profileID: owner.id)?.favourite == true)
            _ = try await collection.importCities([CollectedCity(geonameid: 5, favourite: false)], profileID: owner.id)

            // The original app's example: unfavourite 3, delete 13 plain, save → 30 plain and 7 favourites.
            var shown = try await collection.list(profileID: owner.id).map {
                CollectedCity(geonameid: $0.geonameid, favourite: $0.favourite)
            }
            for index in shown.indices where [41, 42, 43].contains(shown[index].geonameid) { shown[index].favourite = false }
            shown.removeAll { (1...13).contains($0.geonameid) }
            shown.reverse()  // my order, rearranged
            let saved = try await collection.save(shown, profileID: owner.id)
            #expect(saved.filter { !$0.favourite }.count == 30)
            #expect(saved.filter(\.favourite).count == 7)
            #expect(saved.map(\.geonameid) == shown.map(\.geonameid))
            #expect(saved.map(\.position) == Array(0..<37))
            #expect(try await collection.count(profileID: owner.id) == 37)
            // Nothing of it belongs to anyone else.
            #expect(try await collection.list(profileID: stranger.id).isEmpty)
            #expect(try await collection.setFavourite(true, geonameid: 50, profileID: stranger.id) == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aRefusedSaveWritesNothing(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let collection = CityCollectionRepository(database: database.sql)
            let owner = try await ProfileRepository(database: database.sql).createGuest()
            _ = try await collection.importCities([CollectedCity(geonameid: 1, favourite: true)], profileID: owner.id)
            await #expect(throws: CityError.self) {
                try await collection.save(
                    [CollectedCity(geonameid: 2, favourite: false), CollectedCity(geonameid: 2, favourite: true)], profileID: owner.id)
            }
            #expect(try await collection.list(profileID: owner.id).map(\.geonameid) == [1])
            let starred = try #require(try await collection.setFavourite(false, geonameid: 1, profileID: owner.id))
            #expect(starred.favourite == false)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func surpriseHistoryKeepsTheTenNewest(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let history = SurpriseHistoryRepository(database: database.sql)
            let profiles = ProfileRepository(database: database.sql)
            let owner = try await profiles.createGuest()
            let other = try await profiles.createGuest()
            for search in 1...12 { try await history.record([search, search * 100], profileID: owner.id, keep: 10) }
            try await history.record([7], profileID: other.id, keep: 10)
            let recent = try await history.recent(profileID: owner.id, limit: 50)
            #expect(recent == (3...12).reversed().map { [$0, $0 * 100] })
            #expect(try await history.recent(profileID: other.id, limit: 10) == [[7]])
        }
    }
}

/// Collects progress reports from the importer's callback.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reported: [Int] = []
    func add(_ value: Int) { lock.withLock { reported.append(value) } }
    var values: [Int] { lock.withLock { reported } }
}
