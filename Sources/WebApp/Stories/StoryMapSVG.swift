import ChooseYourDestiny
import Foundation

/// Draws a `StoryMap` as SVG (built here, so the template includes it unescaped). Text is escaped;
/// colours come from classes in stories.css, so the map follows light and dark mode. Each box carries its chapter's
/// `data-id` and each arrow its `data-from`/`data-to`, so the page (stories/map.js) can hide the chapters a reader
/// has not visited and mark where they are.
enum StoryMapSVG {
    static let nodeWidth = 150.0, nodeHeight = 44.0, columnGap = 70.0, rowGap = 22.0, margin = 16.0

    static func render(_ map: StoryMap) -> String {
        let width = margin * 2 + Double(max(map.columns, 1)) * (nodeWidth + columnGap) - columnGap
        let height = margin * 2 + Double(max(map.rows, 1)) * (nodeHeight + rowGap) - rowGap
        var position: [String: (x: Double, y: Double)] = [:]
        for node in map.nodes {
            position[node.id] = (margin + Double(node.column) * (nodeWidth + columnGap), margin + Double(node.row) * (nodeHeight + rowGap))
        }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sm-svg\" viewBox=\"0 0 \(format(width)) \(format(height))\" "
            + "width=\"\(format(width))\" height=\"\(format(height))\" role=\"img\" aria-labelledby=\"story-map-title\">"
            + "<title id=\"story-map-title\">Map of the story's chapters and choices</title>"
            + "<defs><marker id=\"sm-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
            + "<path d=\"M0 0L10 5L0 10z\" class=\"sm-arrowhead\"/></marker></defs>"
        for edge in map.edges {
            guard let from = position[edge.from], let to = position[edge.to] else { continue }
            let startX = from.x + nodeWidth
            let startY = from.y + nodeHeight / 2
            let endX = to.x
            let endY = to.y + nodeHeight / 2
            // Backward and same-column choices loop around instead of crossing the boxes.
            let bend = endX > startX ? (endX - startX) / 2 : columnGap
            let path =
                endX > startX
                ? "M\(format(startX)) \(format(startY))C\(format(startX + bend)) \(format(startY)) \(format(endX - bend)) \(format(endY)) \(format(endX)) \(format(endY))"
                : "M\(format(startX)) \(format(startY))C\(format(startX + bend)) \(format(startY - 60)) \(format(endX - bend)) \(format(endY - 60)) \(format(endX)) \(format(endY))"
            svg +=
                "<path class=\"sm-edge\" data-from=\"\(escape(edge.from))\" data-to=\"\(escape(edge.to))\" d=\"\(path)\" marker-end=\"url(#sm-arrow)\"/>"
        }
        for node in map.nodes {
            guard let point = position[node.id] else { continue }
            let label = node.name.count > 20 ? String(node.name.prefix(19)) + "…" : node.name
            svg +=
                "<g class=\"sm-node sm-\(node.kind.rawValue)\" data-id=\"\(escape(node.id))\"><title>\(escape(node.name)) (\(describe(node.kind)))</title>"
                + "<rect x=\"\(format(point.x))\" y=\"\(format(point.y))\" width=\"\(format(nodeWidth))\" height=\"\(format(nodeHeight))\" rx=\"8\"/>"
                + "<text x=\"\(format(point.x + nodeWidth / 2))\" y=\"\(format(point.y + nodeHeight / 2 + 5))\" text-anchor=\"middle\">\(escape(label))</text></g>"
        }
        return svg + "</svg>"
    }

    static func describe(_ kind: StoryMap.Kind) -> String {
        switch kind {
        case .start: "the first chapter"
        case .chapter: "a chapter"
        case .ending: "an ending"
        case .unreachable: "no choice leads here"
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
