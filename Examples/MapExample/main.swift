// The README's library example, compiled and run in CI: what a map app writes.
import MapClustering
import SpatialIndexes

// Points are longitude and latitude in degrees; an id is a position in the array.
let hotels = [
  Point(latitude: 48.8584, longitude: 2.2945),  // 0
  Point(latitude: 48.8606, longitude: 2.3376),  // 1
  Point(latitude: 48.8530, longitude: 2.3499),  // 2
  Point(latitude: 51.5007, longitude: -0.1246),  // 3
]
let paris = Point(latitude: 48.8566, longitude: 2.3522)

// Cluster: one marker per grid cell of a phone screen at zoom 5.
var clusterer = try Clusterer<CellTree>(points: hotels)  // builds the index
var markers: [ClusterMarker] = []  // reused from frame to frame
clusterer.cluster(Viewport(center: paris, zoom: 5), strategy: .aggregate, into: &markers)
for marker in markers { print(marker.count, marker.coordinate) }

// Query: the ids inside a rectangle (edges included).
let index = clusterer.index
print(index.ids(in: Rect(minX: 2.2, minY: 48.8, maxX: 2.4, maxY: 48.9)))

// Nearest: the two hotels nearest to a position, by great-circle distance.
var near = NearestBuffer()  // reused: no allocation once warm
index.nearest(to: paris, k: 2, into: &near)
for neighbor in near.neighbors { print(neighbor.id, neighbor.distance) }
