"""Dev tool: fill the zh_Hant catalog and check the en one after ``makemessages``.

Usage (from the project root)::

    .venv/bin/python manage.py makemessages -l zh_Hant -l en --ignore=.venv --ignore='.venv/*'
    # write the English of every new entry in locale/en/LC_MESSAGES/django.po
    .venv/bin/python locale/translate.py        # fills zh_Hant, lists missing English
    .venv/bin/python manage.py compilemessages --ignore=.venv

``makemessages`` is the project's (``games/management/commands/makemessages.py``):
Django's, with the Jinja2 templates (the live table fragment, ``jinja2/``
folders) read by their Jinja2 environment, so their ``_()``, ``ngettext()`` and
``pgettext()`` calls are extracted with their plurals, contexts and lines
(``tests/site/test_jinja_messages.py`` checks each is a live entry of both
catalogs).  No entry is added to a catalog by hand: a new message is marked
in its template or module and extracted.

zh-Hans is the source language (the msgids).  For ``zh_Hant`` every empty or fuzzy
entry is converted with OpenCC (``s2twp``: Taiwan characters and phrases), then
fixed by :data:`ZH_HANT_FIXES` (whole-string overrides) and :data:`ZH_HANT_TERMS`
(term replacements).  The English catalog is kept by hand in the ``.po`` file
itself (``locale/en/LC_MESSAGES/django.po``, edited and reviewed there): this
tool writes none of it; it only lists on stderr the entries still without
English (empty, or fuzzy after ``makemessages`` changed their msgid) and exits
1 then (Django would show the Chinese source).  ``tests/site/test_i18n_catalogs.py``
checks both catalogs are complete.  Translations already in a catalog are
never overwritten.  Needs the dev packages ``polib`` and
``opencc-python-reimplemented``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import opencc
import polib

ROOT = Path(__file__).resolve().parent

#: Whole-message overrides for Traditional Chinese (Taiwan usage).
ZH_HANT_FIXES = {
    "初中生": "國中生",
    "退出登录": "登出",
    "English": "英文",
}

#: Term fixes applied after OpenCC conversion.
ZH_HANT_TERMS = [
    ("賬戶", "帳號"),
    ("退出登入", "登出"),
    ("型別", "類型"),
]

def _needs(entry: polib.POEntry) -> bool:
    if entry.obsolete:
        return False
    if "fuzzy" in entry.flags:
        return True
    if entry.msgid_plural:
        return not any(entry.msgstr_plural.values())
    return not entry.msgstr


def _settle(entry: polib.POEntry) -> None:
    if "fuzzy" in entry.flags:
        entry.flags.remove("fuzzy")
    entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None


def _header(po: polib.POFile) -> None:
    po.metadata_is_fuzzy = False
    po.metadata["Project-Id-Version"] = "cardroom"
    po.metadata["Language-Team"] = "cardroom"
    po.metadata["Last-Translator"] = "cardroom"
    po.metadata["PO-Revision-Date"] = po.metadata.get("POT-Creation-Date", "")
    po.header = "Cardroom UI translations; source language zh-Hans.  en: written here by hand; zh_Hant: filled by locale/translate.py (OpenCC)."


def to_hant(text: str, cc=opencc.OpenCC("s2twp")) -> str:
    """zh-Hans → zh-Hant (Taiwan) with the project's fixes."""
    if text in ZH_HANT_FIXES:
        return ZH_HANT_FIXES[text]
    out = cc.convert(text)
    for old, new in ZH_HANT_TERMS:
        out = out.replace(old, new)
    return out


def fill_hant(path: Path) -> int:
    po = polib.pofile(str(path))
    count = 0
    for entry in po:
        if not _needs(entry):
            continue
        if entry.msgid_plural:
            entry.msgstr_plural = {0: to_hant(entry.msgid)}  # nplurals=1
        else:
            entry.msgstr = to_hant(entry.msgid)
        _settle(entry)
        count += 1
    _header(po)
    po.metadata["Plural-Forms"] = "nplurals=1; plural=0;"
    po.metadata["Language"] = "zh_Hant"
    po.save()
    return count


def check_en(path: Path) -> list[str]:
    """The msgids of ``path``'s live entries still without English (empty or
    fuzzy); the file's header and plural forms are normalised, no msgstr is
    written."""
    po = polib.pofile(str(path))
    missing = [entry.msgid for entry in po if _needs(entry)]
    _header(po)
    po.metadata["Plural-Forms"] = "nplurals=2; plural=(n != 1);"
    po.metadata["Language"] = "en"
    po.save()
    return missing


def main() -> int:
    hant = fill_hant(ROOT / "zh_Hant" / "LC_MESSAGES" / "django.po")
    missing = check_en(ROOT / "en" / "LC_MESSAGES" / "django.po")
    print(f"zh_Hant: filled {hant}; en: missing {len(missing)} (write them in locale/en/LC_MESSAGES/django.po)")
    for msgid in missing:
        print(f"  en missing: {msgid!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
