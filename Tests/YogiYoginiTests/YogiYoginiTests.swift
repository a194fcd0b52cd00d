import Foundation
import Testing
import YogiYogini

@Suite struct YogaValidationTests {
    @Test func namesAreTrimmedAndBounded() throws {
        #expect(try YogaValidation.name("  Ana Lima ") == "Ana Lima")
        #expect(throws: YogaError.self) { try YogaValidation.name("   ") }
        #expect(throws: YogaError.self) { try YogaValidation.name(String(repeating: "a", count: 101)) }
        #expect(throws: YogaError.self) { try YogaValidation.name("two\nlines") }
    }

    @Test func notesAreBoundedUnlessWrittenOverLongerOnes() throws {
        #expect(try YogaValidation.notes(nil) == "" && YogaValidation.notes("  knee \n") == "knee")
        let limit = String(repeating: "n", count: YogaValidation.maximumNotesLength)
        #expect(throws: YogaError.self) { try YogaValidation.notes(limit + "n") }
        #expect(throws: YogaError.self) { try YogaValidation.notes(limit + "n", over: limit) }
        // Two devices' notes kept together pass the limit; an edit of them may be as long as they are.
        let merged = limit + "\n" + "more"
        #expect(try YogaValidation.notes(merged, over: merged + " ") == merged)
        #expect(throws: YogaError.self) { try YogaValidation.notes(merged + "!", over: merged) }
    }

    @Test func attendeesDeletedMeanwhileAreKeptByTheNameTheDeviceKnew() throws {
        #expect(try YogaValidation.departed(["b", "c", "b"], knownNames: ["b": " Ben ", "c": "Cleo", "a": "Ana"]) == ["Ben", "Cleo"])
        #expect(try YogaValidation.departed([], knownNames: nil) == [])
        #expect(throws: YogaError.notOnRoster(["c"])) { try YogaValidation.departed(["b", "c"], knownNames: ["b": "Ben"]) }
        #expect(throws: YogaError.notOnRoster(["b"])) { try YogaValidation.departed(["b"], knownNames: nil) }
        #expect(throws: YogaError.self) { try YogaValidation.departed(["b"], knownNames: ["b": ""]) }
    }

    @Test func namesAreOrderedAsAPersonReadsThem() {
        let names = ["Student 10", "Zoë", "émile", "Student 9", "adam", "Émile B", "ＡＤＡ"]
        #expect(names.sorted { NameOrder($0) < NameOrder($1) } == ["ＡＤＡ", "adam", "émile", "Émile B", "Student 9", "Student 10", "Zoë"])
        #expect(NameOrder("Zoë") == NameOrder("zoe"))
        #expect(!(NameOrder("zoe") < NameOrder("Zoë")))
        #expect(NameOrder("Room 007") == NameOrder("room 7"))
        #expect(NameOrder("Room 7b") < NameOrder("Room 07c"))
        #expect(NameOrder("Ann") < NameOrder("Anna") && NameOrder("Ann 2") < NameOrder("Anna"))
        #expect(NameOrder("9") < NameOrder("10") && NameOrder("") < NameOrder("a"))
    }

    @Test func datesMustBeRealAndWrittenYYYYMMDD() throws {
        #expect(try YogaValidation.date("2024-02-29") == "2024-02-29")
        for bad in ["2023-02-29", "2024-13-01", "22-11-2026", "2026/11/22", "yesterday", "2026-11-2"] {
            #expect(throws: YogaError.self, "\(bad)") { try YogaValidation.date(bad) }
        }
    }

    @Test func placesNeedBothCoordinatesOrNone() throws {
        #expect(try YogaValidation.place(VenuePlace(name: " Loft ", address: "", latitude: nil, longitude: nil)).name == "Loft")
        #expect(throws: YogaError.self) { try YogaValidation.place(VenuePlace(name: "Loft", address: "", latitude: 43, longitude: nil)) }
        #expect(throws: YogaError.self) { try YogaValidation.place(VenuePlace(name: "Loft", address: "", latitude: 95, longitude: 0)) }
    }

    @Test func sessionsEndAfterTheyStartAndLastUnderADay() throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        try YogaValidation.times(start: start, end: start.addingTimeInterval(3600))
        #expect(throws: YogaError.self) { try YogaValidation.times(start: start, end: start) }
        #expect(throws: YogaError.self) { try YogaValidation.times(start: start, end: start.addingTimeInterval(25 * 3600)) }
        #expect(throws: YogaError.self) { try YogaValidation.temperature(300) }
    }

    @Test func aClassHandedOverStartedInTheLastDayAndNotLaterThanNow() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try YogaValidation.checkInTime(nil, now: now) == now)
        let earlier = now.addingTimeInterval(-40 * 60)
        #expect(try YogaValidation.checkInTime(earlier, now: now) == earlier)
        #expect(try YogaValidation.checkInTime(now.addingTimeInterval(120), now: now) == now)  // a clock a little ahead
        #expect(throws: YogaError.self) { try YogaValidation.checkInTime(now.addingTimeInterval(600), now: now) }
        #expect(throws: YogaError.self) { try YogaValidation.checkInTime(now.addingTimeInterval(-25 * 3600), now: now) }
    }
}

@Suite struct StudentEditTests {
    @Test func anEditKeepsWhatItDidNotChangeAsSavedElsewhere() {
        let base = Student(id: "s", name: "Ana", joinedOn: "2026-01-10", active: true, typeID: "member", notes: "")
        var phone = base  // the phone wrote a note
        phone.notes = "Knee injury"
        var laptop = base  // the laptop, from the same form, changed the type and the name
        laptop.typeID = "trial"
        laptop.name = "Ana Lima"
        let afterLaptop = Student.edited(laptop, base: base, current: base)
        #expect(afterLaptop == laptop)
        let afterBoth = Student.edited(phone, base: base, current: afterLaptop)
        #expect(
            afterBoth == Student(id: "s", name: "Ana Lima", joinedOn: "2026-01-10", active: true, typeID: "trial", notes: "Knee injury"))
        // A field both changed: the later edit wins, as the person saw and typed it.
        var again = base
        again.name = "Ana B."
        #expect(Student.edited(again, base: base, current: afterBoth).name == "Ana B.")
        // Set back to what the form showed, while it changed elsewhere: that is no change here.
        #expect(Student.edited(base, base: base, current: afterBoth) == afterBoth)
    }
}

@Suite struct YogaStatisticsTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let day: TimeInterval = 86_400

    func student(_ id: String, active: Bool = true, joined: String = "2020-01-01") -> Student {
        Student(id: id, name: id.capitalized, joinedOn: joined, active: active, typeID: nil, notes: "")
    }

    @Test func countsAttendancePerStudentVenueAndMonth() {
        let sessions: [YogaStatistics.SessionFacts] = [
            .init(startedAt: now - 2 * day, venueID: "park", venueName: "Park", attendeeIDs: ["ana", "ben"]),
            .init(startedAt: now - 40 * day, venueID: "park", venueName: "Park", attendeeIDs: ["ana", nil]),
            .init(startedAt: now - 100 * day, venueID: "loft", venueName: "Loft", attendeeIDs: ["ben"]),
        ]
        let figures = YogaStatistics(
            sessions: sessions, students: [student("ana"), student("ben"), student("cy")], now: now, slippingWeeks: 3)
        let ana = figures.students.first { $0.id == "ana" }!
        let ben = figures.students.first { $0.id == "ben" }!
        #expect((ana.last30Days, ana.last90Days, ana.total) == (1, 2, 2))
        #expect((ben.last30Days, ben.last90Days, ben.total) == (1, 1, 2))
        #expect(ana.lastSeen == now - 2 * day)
        // A former student (nil) still counts in the head count of the venue and month.
        #expect(figures.venues.map(\.name) == ["Park", "Loft"])
        #expect(figures.venues[0].averageAttendance == 2)
        #expect(figures.months.map(\.sessions).reduce(0, +) == 3)
        #expect(figures.months.map(\.attendance).reduce(0, +) == 5)
    }

    @Test func listsActiveStudentsNotSeenForNWeeksMostAbsentFirst() {
        let sessions: [YogaStatistics.SessionFacts] = [
            .init(startedAt: now - 30 * day, venueID: nil, venueName: "Park", attendeeIDs: ["ana"]),
            .init(startedAt: now - 60 * day, venueID: nil, venueName: "Park", attendeeIDs: ["ben", "gone"]),
            .init(startedAt: now - 1 * day, venueID: nil, venueName: "Park", attendeeIDs: ["cy"]),
        ]
        let students = [
            student("ana"), student("ben"), student("cy"), student("dee", joined: "2020-01-01"),
            student("eve", active: false), student("fay", joined: "2099-01-01"),
        ]
        let figures = YogaStatistics(sessions: sessions, students: students, now: now, slippingWeeks: 3)
        // Dee never came (joined long ago), Ben 8 weeks ago, Ana 4; Cy came yesterday, Eve is inactive, Fay just joined.
        #expect(figures.slipping.map(\.id) == ["dee", "ben", "ana"])
        #expect(figures.slipping.map(\.weeksAbsent) == [nil, 8, 4])
        #expect(YogaStatistics(sessions: sessions, students: students, now: now, slippingWeeks: 5).slipping.map(\.id) == ["dee", "ben"])
    }

    @Test func regularsAreWhoCameMostInTheLastSessions() {
        let newestFirst: [[String?]] = [["ana", "ben"], ["ana"], ["cy", "ana", nil], ["ben"]] + Array(repeating: ["old"], count: 10)
        let regulars = YogaStatistics.regulars(sessionsNewestFirst: newestFirst, recent: 10)
        #expect(regulars.map(\.id) == ["old", "ana", "ben", "cy"])
        #expect(YogaStatistics.regulars(sessionsNewestFirst: newestFirst, recent: 4).map(\.id) == ["ana", "ben", "cy"])
        #expect(YogaStatistics.regulars(sessionsNewestFirst: newestFirst, recent: 4).map(\.times) == [3, 2, 1])
    }
}
