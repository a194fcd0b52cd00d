import DatabaseDrivers
import Foundation
import SQLKit
import Storage
import TestSupport
import Testing

@testable import WebApp

/// A server started without one of `make import`'s imports names it, with the command that loads it.
@Suite struct DataSetNoticeTests {
    @Test(arguments: DatabaseKind.allCases)
    func namesEachMissingDataSetUntilItIsImported(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let sets = TroveApps.all.flatMap { $0.dataSets }
            #expect(
                await DataSetNotice.missing(sets, database: database.sql).map(\.command) == [
                    "trove import strategies", "trove import pronunciations", "trove import cities", "trove import basemap",
                ])

            try await BasemapRepository(database: database.sql).replace(with: #"{"format":"trove-basemap-1"}"#)
            try await TestCities.importFixture(into: database)
            #expect(
                await DataSetNotice.missing(sets, database: database.sql).map(\.command) == [
                    "trove import strategies", "trove import pronunciations",
                ])
        }
    }

    @Test func theMessageSaysWhatIsMissingAndHowToLoadIt() {
        let basemap = CitiesApp.dataSets[1]
        #expect(
            DataSetNotice.message(basemap)
                == "Not imported: the offline basemap, so City Roulette's map shows no land or borders where the street map "
                + "cannot be fetched. Run `trove import basemap` (docs/DEPLOY.md).")
    }
}
