"""Vendor the card faces: one standalone SVG per card code from the
npm package ``svg-cards`` (LGPL-2.1, David Bellot and Huub de Beer), written
to ``static/vendor/svg-cards/`` with the package's LICENSE.

The package ships one sprite (940 kB) whose cards share definitions (pips,
court figures, the card's outline).  A browser cannot use a fragment of an
external sprite as a CSS background, so each card here becomes its own file
holding only what it draws: the card's group plus the transitive closure of
the elements it references (``xlink:href="#id"``), 2-60 kB each, cached
separately, fetched only for the cards on screen.

Each file is then optimised with svgo (pinned in tools/svgo/package.json,
installed there with ``npm ci``; run here at vendoring time, never by the
site): coordinates rounded to 1 decimal of the card's 169 x 245 user units
(0.06 % of its width, under a device pixel at any zoom a card is shown at),
shapes merged, editor metadata and unused ids dropped.  The court cards
and jokers went from 42-82 kB to 20-40 kB each, the 54 files from 1 040 000 to
about 550 000 bytes; the licence comment is written back after svgo.

Run (needs ``npm``; the packages are pinned)::

    python scripts/vendor_card_faces.py            # npm pack svg-cards@4.0.2
    python scripts/vendor_card_faces.py PATH.tgz   # an already downloaded tarball

Codes are the engine's (C1): rank ``A K Q J T 9 … 2`` + suit ``S H D C``, and
``BJ`` (big joker: the package's red joker) / ``SJ`` (small joker: its black
joker), so the two jokers differ in colour and in their file.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

PACKAGE = "svg-cards@4.0.2"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "static" / "vendor" / "svg-cards"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
HREF = f"{{{XLINK}}}href"
SUITS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
RANKS = {"A": "1", "K": "king", "Q": "queen", "J": "jack", "T": "10",
         **{str(n): str(n) for n in range(2, 10)}}
#: The package's width and height of one card (its viewBox).
VIEWBOX = "0 0 169.075 244.640"
SVGO = REPO / "tools" / "svgo" / "node_modules" / ".bin" / "svgo"
#: svgo's configuration: its default preset, 1 decimal (see the module's docstring).
SVGO_CONFIG = ("export default { multipass: true, floatPrecision: 1,"
               " plugins: [{ name: 'preset-default' }] };\n")
NOTICE = ("<!-- svg-cards 4.0.2 (LGPL-2.1): (C) 2005 David Bellot, (C) 2016, 2017 Huub de Beer;"
          " see LICENSE; optimised with svgo -->")


def sprite_ids() -> dict[str, str]:
    """Engine card code -> id of the card's group in the sprite (54 entries)."""
    ids = {r + s: f"{name}_{rank}" for s, name in SUITS.items() for r, rank in RANKS.items()}
    ids["BJ"] = "joker_red"
    ids["SJ"] = "joker_black"
    return ids


def closure(root: ET.Element, start: str) -> list[ET.Element]:
    """The element with id ``start`` and every element it references, directly
    or not, without an element that lies inside another one of the list (it
    comes along with its ancestor)."""
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    want, todo = set(), [start]
    while todo:
        i = todo.pop()
        if i in want or i not in by_id:
            continue
        want.add(i)
        for el in by_id[i].iter():
            ref = el.get(HREF) or el.get("href")
            if ref and ref.startswith("#"):
                todo.append(ref[1:])
    chosen = [by_id[i] for i in want]
    inside = set()
    for el in chosen:
        for sub in el.iter():
            if sub is not el and sub.get("id") in want:
                inside.add(sub.get("id"))
    return [el for el in chosen if el.get("id") not in inside]


def face_svg(root: ET.Element, card_id: str) -> str:
    """One standalone SVG document drawing the card ``card_id``."""
    defs = "".join(ET.tostring(el, encoding="unicode") for el in closure(root, card_id))
    # ElementTree writes the namespaces as ns0/ns1 prefixes; make them plain.
    defs = re.sub(r"\s+xmlns:ns\d+=\"[^\"]+\"", "", defs)
    defs = re.sub(r"<(/?)ns0:", r"<\1", defs).replace("ns1:href", "xlink:href")
    defs = re.sub(r'\s+id="(path|text|rect|polyline|circle|g)\d+"', "", defs)
    return (f'<svg xmlns="{SVG}" xmlns:xlink="{XLINK}" viewBox="{VIEWBOX}">'
            f"{NOTICE}"
            f"<defs>{defs}</defs><use xlink:href=\"#{card_id}\"/></svg>\n")


def optimise(folder: Path) -> None:
    """Run svgo (tools/svgo, installed with ``npm ci`` when missing) over every
    ``*.svg`` of ``folder`` in place, then put the licence notice back as the
    first child of each root ``<svg>`` (svgo drops comments).  Raises
    CalledProcessError when npm or svgo fails."""
    if not SVGO.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=SVGO.parents[2], check=True)
    config = folder / "svgo.config.mjs"
    config.write_text(SVGO_CONFIG, encoding="utf-8")
    try:
        subprocess.run([str(SVGO), "--config", str(config), "--quiet", "-f", str(folder)], check=True)
    finally:
        config.unlink()
    for f in folder.glob("*.svg"):
        text = f.read_text(encoding="utf-8")
        head = text.index(">", text.index("<svg")) + 1
        f.write_text(text[:head] + NOTICE + text[head:].rstrip("\n") + "\n", encoding="utf-8")


def faces_css() -> str:
    """CSS drawing the face of every element that names a card (``.card`` with
    ``data-card`` in a hand, ``.mini`` with ``data-card`` on the table or
    ``data-c`` in a replay's lists; a code
    may end in ``*``, C1's mark) as the background image of its
    ``::before`` (static/games/cards.css sizes it), under a white pad (the
    first layer) on which the site writes its own larger index.  The URL is
    relative to this file (a custom property would resolve it against the
    file using it).  Each selector's last compound holds the class, so that
    Chromium files the rule under that class and matches it against cards
    only, not against every element of the page at each style recalculation
    (the page audit)."""
    rules = [f'.card[data-card^="{c}"]::before,.mini[data-card^="{c}"]::before,.mini[data-c^="{c}"]::before'
             f'{{background-image:linear-gradient(#fff,#fff),url({c}.svg)}}' for c in sprite_ids()]
    return ("/* Generated by scripts/vendor_card_faces.py: the face of each card code (svg-cards 4.0.2, LGPL-2.1). */\n"
            + "\n".join(rules) + "\n")


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        if argv:
            tgz = Path(argv[0])
        else:
            name = subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=tmp, check=True,
                                  capture_output=True, text=True).stdout.strip().splitlines()[-1]
            tgz = Path(tmp) / name
        with tarfile.open(tgz) as tar:
            tar.extractall(tmp, filter="data")
        pkg = Path(tmp) / "package"
        root = ET.parse(pkg / "svg-cards.svg").getroot()
        OUT.mkdir(parents=True, exist_ok=True)
        for code, card_id in sprite_ids().items():
            (OUT / f"{code}.svg").write_text(face_svg(root, card_id), encoding="utf-8")
        optimise(OUT)
        shutil.copy(pkg / "LICENSE", OUT / "LICENSE")
        (OUT / "faces.css").write_text(faces_css(), encoding="utf-8")
    print(f"{len(sprite_ids())} faces written to {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
