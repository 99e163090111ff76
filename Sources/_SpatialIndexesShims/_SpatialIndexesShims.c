// SwiftPM wants a source file in every C target; the shims are all in the header.
#include "_SpatialIndexesShims.h"
