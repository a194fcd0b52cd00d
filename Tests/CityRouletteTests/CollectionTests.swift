import CityRoulette
import Testing

@Suite struct CollectionTests {
    func cities(_ ids: ClosedRange<Int>, favourite: Bool = false) -> [CollectedCity] {
        ids.map { CollectedCity(geonameid: $0, favourite: favourite) }
    }

    @Test func importAddsWithReplaceAndNoDuplicates() throws {
        let existing = [CollectedCity(geonameid: 1, favourite: false), CollectedCity(geonameid: 2, favourite: true)]
        // London (1) again, now starred, plus a new city: London is replaced in place, the new one goes last.
        let result = try CityCollection.importing(
            [CollectedCity(geonameid: 3, favourite: false), CollectedCity(geonameid: 1, favourite: true)], into: existing)
        #expect(
            result == [
                CollectedCity(geonameid: 1, favourite: true), CollectedCity(geonameid: 2, favourite: true),
                CollectedCity(geonameid: 3, favourite: false),
            ])
        // Replace means replace: an import can also take a star away.
        #expect(try CityCollection.importing([CollectedCity(geonameid: 2, favourite: false)], into: existing)[1].favourite == false)
    }

    /// The original app's example: 40 plain + 10 favourites; unfavourite 3, delete 13 plain, save → 30 + 7.
    @Test func saveMakesTheCollectionWhatWasShown() throws {
        var shown = cities(1...40) + cities(41...50, favourite: true)
        for index in shown.indices where [41, 42, 43].contains(shown[index].geonameid) { shown[index].favourite = false }
        shown.removeAll { (1...13).contains($0.geonameid) }
        let saved = try CityCollection.saving(shown)
        #expect(saved.filter { !$0.favourite }.count == 30)
        #expect(saved.filter(\.favourite).count == 7)
        #expect(throws: CityError.self) { try CityCollection.saving(cities(1...2) + cities(2...2)) }
    }

    /// A scene opened on 1, 2, 3 (2 starred), while another device adds 4, deletes 3 and stars 1; the scene deletes 2
    /// and adds 5. Saved: the scene's changes and the other device's, none undone by the other.
    @Test func aSaveFromAStaleSceneKeepsWhatChangedElsewhere() throws {
        let base = [CollectedCity(geonameid: 1, favourite: false), CollectedCity(geonameid: 2, favourite: true)] + cities(3...3)
        let existing = [CollectedCity(geonameid: 1, favourite: true), CollectedCity(geonameid: 2, favourite: true)] + cities(4...4)
        let shown = [CollectedCity(geonameid: 5, favourite: false), CollectedCity(geonameid: 3, favourite: false)] + cities(1...1)
        let saved = try CityCollection.saving(shown, base: base, existing: existing)
        #expect(saved == [CollectedCity(geonameid: 5, favourite: false), CollectedCity(geonameid: 1, favourite: true)] + cities(4...4))

        // A star changed here wins over the other device's, and a city deleted there but starred here comes back.
        let starred = [CollectedCity(geonameid: 3, favourite: true), CollectedCity(geonameid: 1, favourite: false)]
        #expect(
            try CityCollection.saving(starred, base: base.filter { $0.geonameid != 2 }, existing: existing)
                == [CollectedCity(geonameid: 3, favourite: true), CollectedCity(geonameid: 1, favourite: true)]
                + cities(2...2, favourite: true) + cities(4...4))
        // Unchanged elsewhere, it is the plain save.
        #expect(try CityCollection.saving(shown, base: base, existing: base) == shown)
        #expect(throws: CityError.self) { try CityCollection.saving(cities(1...2) + cities(2...2), base: [], existing: []) }
    }

    @Test func refusesOversizeImports() {
        #expect(throws: CityError.self) { try CityCollection.importing(cities(1...501), into: []) }
    }
}
