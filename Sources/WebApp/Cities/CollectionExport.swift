/// A collection as GeoJSON (for maps and GIS tools) and as CSV (for spreadsheets), in "my order".
enum CollectionExport {
    struct FeatureCollection: Encodable {
        let type = "FeatureCollection"
        let features: [Feature]
    }

    struct Feature: Encodable {
        struct Point: Encodable {
            let type = "Point"
            /// GeoJSON puts longitude first.
            let coordinates: [Double]
        }

        struct Properties: Encodable {
            let geonameid: Int
            let name: String
            let country_code: String
            let country_name: String
            let population: Int
            let timezone: String
            let favourite: Bool
            let position: Int
        }

        let type = "Feature"
        let id: Int
        let geometry: Point
        let properties: Properties
    }

    static func geoJSON(_ cities: [CityJSON]) -> FeatureCollection {
        FeatureCollection(
            features: cities.map { city in
                Feature(
                    id: city.geonameid, geometry: .init(coordinates: [city.longitude, city.latitude]),
                    properties: .init(
                        geonameid: city.geonameid, name: city.name, country_code: city.country_code, country_name: city.country_name,
                        population: city.population, timezone: city.timezone, favourite: city.favourite ?? false,
                        position: city.position ?? 0
                    )
                )
            })
    }

    static let csvHeader = [
        "geonameid", "name", "country_code", "country_name", "latitude", "longitude", "population", "timezone", "favourite",
    ]

    static func csv(_ cities: [CityJSON]) -> String {
        var lines = [csvHeader.joined(separator: ",")]
        for city in cities {
            let fields = [
                String(city.geonameid), city.name, city.country_code, city.country_name, String(city.latitude), String(city.longitude),
                String(city.population), city.timezone, (city.favourite ?? false) ? "true" : "false",
            ]
            lines.append(CSV.line(fields))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
