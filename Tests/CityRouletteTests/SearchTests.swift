import CityRoulette
import Testing

@Suite struct SearchKeyTests {
    @Test(arguments: [
        ("Sant Julià de Lòria", "sant julia de loria"),
        ("Saint-Étienne", "saint etienne"),
        ("Łódź", "lodz"),
        ("  São   Paulo ", "sao paulo"),
        ("Ærøskøbing", "aeroskobing"),
        ("St. John's", "st john s"),
        ("Москва", "москва"),
        ("Köln", "koln"),
        ("  Saint-Louis du Ha! Ha! ", "saint louis du ha ha"),
        ("ＴＯＫＹＯ", "tokyo"),
        // The Persian half-space (a zero-width non-joiner) is left out, typed or not.
        ("مک\u{200C}دیل، تکزاس", "مکدیل تکزاس"),
        ("कि", "कि"),
    ])
    func normalizes(_ input: String, _ expected: String) {
        #expect(SearchKey.normalize(input) == expected)
    }

    @Test func listsTheTailsThatStartAWord() {
        #expect(
            SearchKey.wordTails(of: "san jose del monte").map(String.init) == [
                "san jose del monte", "jose del monte", "del monte", "monte",
            ])
        #expect(SearchKey.wordTails(of: "york").map(String.init) == ["york"])
    }

    @Test(arguments: [
        ("firenze", "Firenze", SearchKey.Spelling.capitalized),
        ("new york", "New York", .capitalized),
        ("флоренция", "Флоренция", .capitalized),
        ("los angeles", "los angeles", .key),
        ("москва", "москва", .key),
        ("sao paulo", "São Paulo", .stored),
        ("new york", "New york", .stored),
        ("new york", "NEW YORK", .stored),
        ("new york", "New-York", .stored),
        ("st john s", "St. John's", .stored),
        ("firenze", "Firenze ", .stored),
        ("a", "A", .capitalized),
        ("fih", "FIH", .code),
        ("fzaa", "FZAA", .code),
        ("la", "LA", .code),
        ("paris", "PARIS", .stored),
        ("a1b", "A1B", .stored),
        ("1st avenue", "1st Avenue", .capitalized),
        // Equal as Swift strings (canonically), but not byte for byte: the bytes stored are what is shown.
        ("caf\u{E9}", "caf\u{65}\u{301}", .stored),
    ])
    func tellsHowANameAsWrittenFollowsFromItsKey(_ key: String, _ spelling: String, _ rule: SearchKey.Spelling) {
        #expect(SearchKey.spellingRule(key: key, spelling: spelling.utf8) == rule)
        if rule != .stored { #expect(SearchKey.spelling(ofKey: key, by: rule) == spelling) }
    }

    @Test func everyRuleGivesBackTheNameItWasFoundFor() {
        let names = [
            "Firenze", "Florenz", "Флоренция", "東京", "Saint-Étienne", "Ærøskøbing", "ǆungla", "ßtadt", "İstanbul", "istanbul",
            "Nueva York", "los Angeles", "Los angeles", "Ｔｏｋｙｏ", "Rome", "roma", "ROMA",
        ]
        let named = SearchKey.keyedNames(name: "City", alternateNames: names)
        let rules = SearchKey.spellingRules(keys: named.keys, joinedSpellings: named.spellings.joined(separator: "\t"))
        #expect(rules.count == named.keys.count - 1)
        for (rule, (key, spelling)) in zip(rules, zip(named.keys, named.spellings).dropFirst()) where rule != .stored {
            #expect(SearchKey.spelling(ofKey: key, by: rule) == spelling, "\(spelling)")
        }
        #expect(rules.filter { $0 != .stored }.count >= 5)
        // Spellings missing from the stored list count as stored; more than there are keys are left.
        #expect(SearchKey.spellingRules(keys: ["rome", "roma", "rom"], joinedSpellings: "Rome\tRoma") == [.capitalized, .stored])
        #expect(SearchKey.spellingRules(keys: ["rome", "roma"], joinedSpellings: "Rome\troma\tRom") == [.key])
        #expect(SearchKey.spellingRules(keys: ["rome", "roma"], joinedSpellings: "") == [.stored])
        #expect(SearchKey.spellingRules(keys: ["rome"], joinedSpellings: "Rome").isEmpty)
    }
}

@Suite struct CitySearchTests {
    let catalog = CityCatalog(
        cities: [
            City(
                geonameid: 1, name: "Florence", countryCode: "IT", admin1Code: "", latitude: 43.8, longitude: 11.2, population: 350_000,
                timezone: ""),
            City(
                geonameid: 2, name: "Florianópolis", countryCode: "BR", admin1Code: "", latitude: -27.6, longitude: -48.5,
                population: 500_000, timezone: ""),
            City(
                geonameid: 3, name: "Vila Flor", countryCode: "BR", admin1Code: "", latitude: -6.3, longitude: -35.1, population: 3000,
                timezone: ""),
            City(
                geonameid: 4, name: "Sant Julià de Lòria", countryCode: "AD", admin1Code: "", latitude: 42.5, longitude: 1.5,
                population: 8000, timezone: ""),
            City(
                geonameid: 5, name: "York", countryCode: "GB", admin1Code: "", latitude: 54, longitude: -1.1, population: 150_000,
                timezone: ""),
            City(
                geonameid: 6, name: "New York City", countryCode: "US", admin1Code: "", latitude: 40.7, longitude: -74,
                population: 8_800_000, timezone: ""),
        ],
        alternateNames: [["Firenze", "Florenz"], [], ["Flor"], [], [], ["New York", "NYC"]],
        countries: []
    )

    func names(_ query: String, limit: Int = 10) throws -> [String] {
        try catalog.search(query, limit: limit).map(\.city.name)
    }

    @Test func findsByPrefixOfTheNameOrOfAnyWordIgnoringCaseAndAccents() throws {
        #expect(try names("sant julia") == ["Sant Julià de Lòria"])
        #expect(try names("LORIA") == ["Sant Julià de Lòria"])
        #expect(try names("florian") == ["Florianópolis"])
        #expect(try names("zzz").isEmpty)
    }

    @Test func ranksOwnExactNamesThenWholeNamesThenWordsEachByProminence() throws {
        // "York" itself first, then New York City by a later word of its name.
        #expect(try names("york") == ["York", "New York City"])
        // Whole-name prefixes by prominence: Florence, named three ways, before Florianópolis, more populous and named
        // one way. The "Flor" of Vila Flor is an alternate, so it counts no more than a prefix.
        #expect(try names("flor") == ["Florence", "Florianópolis", "Vila Flor"])
    }

    @Test func aCityTypedByItsOwnNameComesBeforeALargerOneMatchedByAnAlternate() throws {
        let beirut = City(
            geonameid: 1, name: "Beirut", countryCode: "LB", admin1Code: "", latitude: 33.9, longitude: 35.5, population: 1_900_000,
            timezone: "")
        let bern = City(
            geonameid: 2, name: "Bern", countryCode: "CH", admin1Code: "", latitude: 46.9, longitude: 7.4, population: 133_000,
            timezone: "")
        let catalog = CityCatalog(
            cities: [beirut, bern], alternateNames: [["Berut", "Beyrouth", "Bayrut"], ["Berne", "Berna"]], countries: [])
        #expect(try catalog.search("ber", limit: 5).map(\.city.name) == ["Bern", "Beirut"])
        // With no own name to compete, the alternate leads.
        #expect(try catalog.search("beyr", limit: 5).map(\.city.name) == ["Beirut"])
    }

    /// A city of `population` at no place in particular.
    func city(_ id: Int, _ name: String, _ population: Int) -> City {
        City(geonameid: id, name: name, countryCode: "", admin1Code: "", latitude: 0, longitude: 0, population: population, timezone: "")
    }

    @Test func aNameTypedInFullCountsTenfoldAndAWholeAlternateAsAnOwnNameBegun() throws {
        let catalog = CityCatalog(
            cities: [
                city(1, "Par", 1_500), city(2, "Paris", 2_100_000), city(3, "Bath", 88_000), city(4, "Bathinda", 285_000),
                city(5, "Rome", 2_300_000), city(6, "Roma", 20_000), city(7, "Roman", 50_000),
            ],
            alternateNames: [[], ["Parigi", "Paryż"], ["Akemanchester"], [], ["Roma", "Rom", "Rzym"], [], []], countries: [])
        // A village whose name is the query does not come before a capital it begins.
        #expect(try catalog.search("par", limit: 5).map(\.city.name) == ["Paris", "Par"])
        // A town typed in full comes before a larger city its name begins.
        #expect(try catalog.search("bath", limit: 5).map(\.city.name) == ["Bath", "Bathinda"])
        // "Roma" typed in full is Rome's alternate name: Rome first, then the town of that name, then one it begins.
        #expect(try catalog.search("roma", limit: 5).map(\.city.name) == ["Rome", "Roma", "Roman"])
    }

    @Test func twoLettersBeginANameRatherThanNameAnAlternate() throws {
        let catalog = CityCatalog(
            cities: [
                city(1, "Chongqing", 7_457_599), city(2, "Paris", 2_138_551), city(3, "Pau", 77_000), city(4, "Los Angeles", 3_820_914),
                city(5, "Lagos", 9_000_000), city(6, "Las Vegas", 641_903),
            ],
            alternateNames: [["Pa", "Pa-hsien"], ["Parigi", "Paryż"], [], ["LA", "Lo-sang-chi"], ["Lagosi"], []], countries: [])
        // "Pa", an old name of Chongqing, led Paris: two letters are counted as a name begun, not as a whole name.
        let found = try catalog.search("pa", limit: 5).map(\.city.name)
        #expect(found.first == "Paris" && Set(found) == ["Paris", "Chongqing", "Pau"], "\(found)")
        // Unless written as a code: "LA" is all of Los Angeles's name, as strong as Las Vegas's begun.
        #expect(try catalog.search("la", limit: 5).map(\.city.name) == ["Lagos", "Los Angeles", "Las Vegas"])
    }

    @Test func aVillageWithManyNamesStaysBelowALargeCity() throws {
        let city = City(
            geonameid: 1, name: "Valencia", countryCode: "VE", admin1Code: "", latitude: 10.2, longitude: -68, population: 1_000_000,
            timezone: "")
        let village = City(
            geonameid: 2, name: "Valence", countryCode: "FR", admin1Code: "", latitude: 44.9, longitude: 4.9, population: 500,
            timezone: "")
        let manyNames = (1...20).map { "Valence \($0)" }
        let catalog = CityCatalog(cities: [village, city], alternateNames: [manyNames, []], countries: [])
        #expect(try catalog.search("val", limit: 5).map(\.city.name) == ["Valencia", "Valence"])
        // With as many names, the more populous first.
        let twin = City(
            geonameid: 3, name: "Valencia", countryCode: "ES", admin1Code: "", latitude: 39.5, longitude: -0.4, population: 800_000,
            timezone: "")
        let twins = CityCatalog(cities: [twin, city], alternateNames: [[], []], countries: [])
        #expect(try twins.search("valencia", limit: 5).map(\.city.countryCode) == ["VE", "ES"])
    }

    @Test func findsByAlternateNamesAndSaysWhichMatched() throws {
        let found = try catalog.search("firenze", limit: 5)
        #expect(found.map(\.city.name) == ["Florence"])
        #expect(found.first?.matchedName == "firenze")
        #expect(found.first?.matchedNamePosition == 1)
        #expect(try catalog.search("florence", limit: 5).first?.matchedName == nil)
    }

    @Test func aCitysCodeMatchesOnlyWhenTypedWhole() throws {
        let nyc = try #require(try catalog.search("nyc", limit: 5).first)
        #expect(nyc.city.name == "New York City" && nyc.matchedSpelling == "NYC")
        // Begun, a code is no name: "fi" offered Kinshasa first, by its airport's "FIH".
        #expect(try names("ny").isEmpty)
        // The same in answers computed ahead (a one- or two-letter query).
        var builder = NameIndex.Builder()
        builder.add(cityIndex: 0, primary: "kinshasa", alternates: ["fih", "finshasa"], spellings: [.code, .capitalized])
        for city in 1...6 { builder.add(cityIndex: city, primary: "fier \(city)", alternates: []) }
        let index = builder.build(prominence: [100, 1, 1, 1, 1, 1, 1], maximumLimit: 10, heavyRange: 2)
        #expect(index.search("fi", limit: 10).first { $0.cityIndex == 0 }?.key == "finshasa")
        #expect(index.search("fih", limit: 10).map(\.cityIndex) == [0])
        #expect(index.search("fih", limit: 10).first?.spelling == "FIH")
        let codeOnly = {
            var b = NameIndex.Builder()
            b.add(cityIndex: 0, primary: "kinshasa", alternates: ["fih"], spellings: [.code])
            return b
        }()
        #expect(codeOnly.build(prominence: [1], maximumLimit: 10, heavyRange: 1).search("f", limit: 10).isEmpty)
        #expect(codeOnly.build(prominence: [1], maximumLimit: 10, heavyRange: 1).search("fih", limit: 10).count == 1)
    }

    @Test func givesTheNameAsWrittenWhenItsKeyDoes() throws {
        // Capitalized, and as the key is.
        #expect(try catalog.search("firen", limit: 5).first?.matchedSpelling == "Firenze")
        let lower = CityCatalog(cities: [catalog.cities[0]], alternateNames: [["fiorenza", "Fiorènza"]], countries: [])
        #expect(try lower.search("fiorenza", limit: 5).first?.matchedSpelling == "fiorenza")
        // The same key written with an accent: the first spelling is the one kept.
        #expect(try lower.search("fiorenza", limit: 5).first?.matchedNamePosition == 1)
        // A later word of an alternate gives the whole name, not the word.
        let byWord = try catalog.search("yor", limit: 5).first { $0.city.geonameid == 6 }
        #expect(byWord?.matchedName == nil, "New York City's own name matches first")
        let alternateWord = CityCatalog(cities: [catalog.cities[5]], alternateNames: [["Big Apple", "Gotham"]], countries: [])
        let apple = try #require(try alternateWord.search("apple", limit: 5).first)
        #expect(apple.matchedName == "apple" && apple.matchedSpelling == "Big Apple" && apple.matchedNamePosition == 1)
        // A name its key does not give is left to the database (by position).
        let accented = CityCatalog(
            cities: [catalog.cities[1]],
            alternateNames: [["Ilha de Santa Catarina", "Florianopolis Desterro", "Nossa Senhora do Desterro"]], countries: [])
        let desterro = try #require(try accented.search("desterro", limit: 5).first)
        #expect(desterro.matchedSpelling == "Florianopolis Desterro" && desterro.matchedNamePosition == 2)
        let senhora = try #require(
            try CityCatalog(cities: [catalog.cities[1]], alternateNames: [["São José do Desterro"]], countries: []).search("jose", limit: 5)
                .first)
        #expect(senhora.matchedSpelling == nil && senhora.matchedNamePosition == 1 && senhora.matchedName == "jose do desterro")
    }

    @Test func oneCharacterFindsTooAndLimitsHold() throws {
        #expect(try names("f", limit: 2) == ["Florence", "Florianópolis"])
        #expect(throws: CityError.self) { try catalog.search("", limit: 5) }
        #expect(throws: CityError.self) { try catalog.search("  ,. ", limit: 5) }
        #expect(throws: CityError.self) { try catalog.search("york", limit: 501) }
        #expect(throws: CityError.self) { try catalog.search("york", limit: 0) }
    }
}

/// The sorted table, with answers computed at build time for long ranges, must rank exactly as reading
/// every key would.
@Suite struct NameIndexTests {
    /// Cities with one to three random words over a small alphabet (so prefixes are shared a lot) and
    /// zero to two alternate names.
    func randomNames(count: Int, seed: UInt64) -> [(primary: String, alternates: [String])] {
        var generator = SeededGenerator(seed: seed)
        func word() -> String {
            String((0..<Int.random(in: 1...5, using: &generator)).map { _ in "abcé".randomElement(using: &generator)! })
        }
        func name() -> String { (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }.joined(separator: " ") }
        return (0..<count).map { _ in (name(), (0..<Int.random(in: 0...2, using: &generator)).map { _ in name() }) }
    }

    /// The ranking as a full scan does it: each city's best match (tier, then weight), then tier, the prominence
    /// as the match weighs it (larger first) and the city.
    func reference(_ names: [(primary: String, alternates: [String])], prominence: [Float], query: String, limit: Int) -> [Int] {
        var best: [Int: (tier: Int, weight: NameIndex.Weight)] = [:]
        for (city, name) in names.enumerated() {
            for (number, key) in ([name.primary] + name.alternates).enumerated() {
                for (offset, tail) in SearchKey.wordTails(of: key).enumerated() where tail.hasPrefix(query) {
                    let whole = offset == 0 && tail == query && (number == 0 || query.utf8.count > 2)
                    let weight: NameIndex.Weight = number > 0 ? (whole ? .alternateName : .alternate) : (whole ? .ownName : .own)
                    let match = (tier: offset > 0 ? 1 : 0, weight: weight)
                    if let current = best[city], (current.tier, current.weight.rawValue) <= (match.tier, match.weight.rawValue) { continue }
                    best[city] = match
                }
            }
        }
        func weighed(_ city: Int) -> Float { best[city]!.weight.of(prominence[city]) }
        return best.keys.sorted { (best[$0]!.tier, -weighed($0), $0) < (best[$1]!.tier, -weighed($1), $1) }.prefix(limit).map { $0 }
    }

    @Test func agreesWithAFullScanWithAndWithoutAnswersComputedAhead() {
        let names = randomNames(count: 400, seed: 11)
        var builder = NameIndex.Builder()
        for (city, name) in names.enumerated() { builder.add(cityIndex: city, primary: name.primary, alternates: name.alternates) }
        var generator = SeededGenerator(seed: 12)
        // Few distinct values, so that ties (broken by the city) are common.
        let prominence = names.map { _ in Float(Int.random(in: 0..<40, using: &generator)) }
        let ahead = builder.build(prominence: prominence, maximumLimit: 50, heavyRange: 8)
        let scanned = builder.build(prominence: prominence, maximumLimit: 50, heavyRange: .max)
        let queries =
            ["a", "b", "c", "é", "ab", "ba", "cé", "abc", "éé", "a b", "ca c", "abca", "d", "z"] + names.prefix(30).map(\.primary)
        for query in queries {
            for limit in [1, 7, 50] {
                let expected = reference(names, prominence: prominence, query: query, limit: limit)
                #expect(ahead.search(query, limit: limit).map(\.cityIndex) == expected, "\(query) limit \(limit), answered ahead")
                #expect(scanned.search(query, limit: limit).map(\.cityIndex) == expected, "\(query) limit \(limit), scanned")
            }
        }
    }

    @Test func aMatchSaysWhichNameItWasAndThatNameIsReadFromTheStoredList() {
        var builder = NameIndex.Builder()
        builder.add(cityIndex: 0, primary: "sant julia de loria", alternates: ["san julia de loria", "sant zhulia"])
        builder.add(cityIndex: 1, primary: "zhulia", alternates: [])
        let index = builder.build(prominence: [2, 1], maximumLimit: 10)
        func position(_ query: String) -> [Int] { index.search(query, limit: 10).filter { $0.cityIndex == 0 }.map(\.name) }
        #expect(position("sant julia") == [0])
        #expect(position("loria") == [0], "the own name's word beats an alternate's")
        #expect(position("san julia") == [1])
        #expect(position("zhulia") == [2], "a word of the second alternate")
        #expect(index.search("zhulia", limit: 10).map(\.name) == [0, 2])

        let spellings = "Sant Julià de Lòria\tSan Julia de Loria\tСант Жулиа"
        #expect(SearchKey.spelling(at: 0, joinedSpellings: spellings) == "Sant Julià de Lòria")
        #expect(SearchKey.spelling(at: 1, joinedSpellings: spellings) == "San Julia de Loria")
        #expect(SearchKey.spelling(at: 2, joinedSpellings: spellings) == "Сант Жулиа")
        #expect(SearchKey.spelling(at: 3, joinedSpellings: spellings) == nil)
        #expect(SearchKey.spelling(at: -1, joinedSpellings: spellings) == nil)
        #expect(SearchKey.spelling(at: 0, joinedSpellings: "") == "")
    }
}
