#!/usr/bin/env python3
"""make_tiles.py: write the base game's tiles as a JCloisterZone-style
basic.xml for Carcasum's tile factory, from this project's own tile table
(src/tile_data.c, which docs/record.md and shared/spec/tiles.md describe).

usage: make_tiles.py SRC_TILE_DATA_C OUT_XML

Carcasum numbers a tile kind by its place in the file and a tile's parts
(nodes) by their place inside the <tile> element. This script keeps the
table's order for both, so that
  - Carcasum tile type i   is our kind chr(ord('A') + i), and
  - Carcasum node index j  is segment j of that kind in tile_data.c.
The only reordering Carcasum's reader needs (roads before the fields that
share their edge) already holds in our table, whose fields come last; the
script checks it.

Ports: our twelve ports (NNW N NNE ENE E ESE SSE S SSW WSW W WNW) become
JCloisterZone sides: a whole edge is its letter (N), the halves beside a
road are L and R as seen from the tile's centre looking out over that
edge (NNW = NL, NNE = NR, ENE = EL, ESE = ER, SSE = SL, SSW = SR,
WSW = WL, WNW = WR).
"""
import re
import sys

PORTS = ["NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"]
EDGES = "NESW"
# the two half ports of each edge, as JCloisterZone names them
HALF = {"NNW": "NL", "NNE": "NR", "ENE": "EL", "ESE": "ER",
        "SSE": "SL", "SSW": "SR", "WSW": "WL", "WNW": "WR"}


def port_env():
    env = {name: 1 << i for i, name in enumerate(PORTS)}
    env["NORTH"] = env["NNW"] | env["N"] | env["NNE"]
    env["EAST"] = env["ENE"] | env["E"] | env["ESE"]
    env["SOUTH"] = env["SSE"] | env["S"] | env["SSW"]
    env["WEST"] = env["WSW"] | env["W"] | env["WNW"]
    env["ALL"] = env["NORTH"] | env["EAST"] | env["SOUTH"] | env["WEST"]
    return env


ENV = port_env()


def ports_of(expr):
    """The port names of a C port expression such as 'ALL & ~S'."""
    expr = re.sub(r"(\d+)u\b", r"\1", expr)
    bits = eval(expr, {"__builtins__": {}}, dict(ENV))  # the table's own operators: | & ~ <<
    return [p for i, p in enumerate(PORTS) if bits & (1 << i)]


def split_top(text):
    """Split on the commas that are not inside parentheses or braces."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def read_table(path):
    """The 24 base kinds: [(id, count, edges, [segment, ...])]."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    kinds = []
    pat = re.compile(r'\{\s*"([A-X])"\s*,\s*0\s*,\s*(\d+)\s*,\s*\{([^}]*)\}\s*,\s*(\d+)\s*,\s*\{(.*?)\}\s*\}\s*,', re.S)
    for m in pat.finditer(text):
        kid, count, edges, nseg, segs = m.group(1), int(m.group(2)), m.group(3), int(m.group(4)), m.group(5)
        edges = [e.strip() for e in edges.split(",")]
        segments = []
        for s in split_top(segs):
            mm = re.match(r"(\w+)(?:\((.*)\))?$", s, re.S)
            macro, args = mm.group(1), mm.group(2)
            if macro == "CLOISTER":
                segments.append({"kind": "cloister", "ports": []})
                continue
            a = split_top(args)
            seg = {"kind": {"ROAD": "road", "CITY": "city", "CITY_PENNANT": "city",
                            "FIELD": "field"}[macro],
                   "ports": ports_of(a[0]), "pennant": macro == "CITY_PENNANT"}
            if macro == "FIELD":
                b = eval(re.sub(r"(\d+)u\b", r"\1", a[1]), {"__builtins__": {}}, {})
                seg["borders"] = [i for i in range(8) if b & (1 << i)]
            segments.append(seg)
        if len(segments) != nseg:
            sys.exit("make_tiles.py: tile %s: %d segments read, %d in the table" % (kid, len(segments), nseg))
        kinds.append((kid, count, edges, segments))
    ids = [k[0] for k in kinds]
    if ids != [chr(ord("A") + i) for i in range(24)]:
        sys.exit("make_tiles.py: expected the base kinds A..X in order, read %s" % " ".join(ids))
    return kinds


def sides(seg, edges):
    """JCloisterZone sides of a segment."""
    out = []
    for e_i, e in enumerate(EDGES):
        trio = PORTS[3 * e_i: 3 * e_i + 3]
        held = [p for p in trio if p in seg["ports"]]
        if not held:
            continue
        if seg["kind"] == "field" and edges[e_i] == "R":
            out += [HALF[p] for p in held]        # a field beside a road: its halves
        elif seg["kind"] == "road":
            out.append(e)                         # a road holds the middle port
        else:
            if len(held) != 3:
                sys.exit("make_tiles.py: a %s holding part of edge %s" % (seg["kind"], e))
            out.append(e)
    return out


def write_xml(kinds, out):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             "<!-- Written by make_tiles.py from src/tile_data.c: the base game's 24 tile kinds",
             "     A..X in order (Carcasum tile type = index), each tile's parts in the table's",
             "     segment order (Carcasum node index = segment index). -->",
             "<pack>"]
    for kid, count, edges, segs in kinds:
        lines.append('  <tile id="%s" count="%d">' % (kid, count))
        seen_field = False
        for i, s in enumerate(segs):
            if s["kind"] == "cloister":
                lines.append("    <cloister/>")
                continue
            sd = " ".join(sides(s, edges))
            if s["kind"] == "field":
                seen_field = True
                cities = []
                for b in s["borders"]:
                    city = segs[b]
                    if city["kind"] != "city" or b >= i:
                        sys.exit("make_tiles.py: tile %s: field %d borders segment %d, not an earlier city" % (kid, i, b))
                    cities.append(sides(city, edges)[0])
                attr = ' city="%s"' % " ".join(cities) if cities else ""
                lines.append("    <farm%s>%s</farm>" % (attr, sd))
            else:
                if seen_field:
                    sys.exit("make_tiles.py: tile %s: a %s after a field (Carcasum reads roads and cities first)" % (kid, s["kind"]))
                attr = ' pennant="yes"' if s.get("pennant") else ""
                lines.append("    <%s%s>%s</%s>" % (s["kind"], attr, sd, s["kind"]))
        if kid == "D":
            lines.append('    <position x="0" y="0"/>')   # the start tile: one of the four D
        lines.append("  </tile>")
    lines.append("</pack>")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_tiles.py SRC_TILE_DATA_C OUT_XML")
    kinds = read_table(sys.argv[1])
    if sum(k[1] for k in kinds) != 72:
        sys.exit("make_tiles.py: the base game should have 72 tiles")
    write_xml(kinds, sys.argv[2])


if __name__ == "__main__":
    main()
