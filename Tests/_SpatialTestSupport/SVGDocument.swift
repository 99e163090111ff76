import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An SVG (or any XML) file read with Foundation's `XMLParser`: its elements
/// in document order, each with its attributes, its text and its ancestors,
/// so tests can count classed elements inside a given group.
package struct SVGDocument {
  package struct Element {
    package var name: String
    package var attributes: [String: String]
    /// The characters directly inside the element.
    package var text: String
    /// Indices in ``SVGDocument/elements`` of the enclosing elements, outermost first.
    package var ancestors: [Int]

    /// The words of the `class` attribute.
    package var classes: [String] {
      (attributes["class"] ?? "").split(separator: " ").map(String.init)
    }

    package func number(_ attribute: String) -> Double? {
      attributes[attribute].flatMap(Double.init)
    }
  }

  package private(set) var elements: [Element] = []

  /// Parses `text`; nil unless it is well-formed XML.
  package init?(_ text: String) {
    let parser = XMLParser(data: Data(text.utf8))
    let collector = Collector()
    parser.delegate = collector
    guard parser.parse() else { return nil }
    elements = collector.elements
  }

  /// The elements whose class has every word of `classes` (`"marker kept"`),
  /// inside the element at index `container` when given.
  package func elements(classed classes: String, inside container: Int? = nil) -> [Element] {
    let words = classes.split(separator: " ").map(String.init)
    return elements.filter { e in
      let own = e.classes
      return words.allSatisfy(own.contains) && (container.map { e.ancestors.contains($0) } ?? true)
    }
  }

  /// Indices of the elements whose class has the word `word`.
  package func indices(classed word: String) -> [Int] {
    elements.indices.filter { elements[$0].classes.contains(word) }
  }

  private final class Collector: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    var open: [Int] = []

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
      elements.append(
        Element(name: elementName, attributes: attributeDict, text: "", ancestors: open))
      open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if let top = open.last { elements[top].text += string }
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?
    ) {
      open.removeLast()
    }
  }
}
