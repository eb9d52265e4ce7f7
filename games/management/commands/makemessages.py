"""``manage.py makemessages``: Django's, reading the Jinja2 templates as Jinja2.

Django's ``makemessages`` reads every ``.html`` file as a Django template
(:func:`django.utils.translation.templatize`), so in the Jinja2 templates
(each Jinja2 backend's folders: ``<app>/jinja2/`` and its ``DIRS``) it sees
the ``_()`` calls of a literal but not the ``ngettext()`` nor the
``pgettext()`` ones: their catalog entries would be marked obsolete by every
run.

This command is Django's with one change: a file under a Jinja2 backend's
template folder is parsed by that backend's own environment, and its gettext
calls (``_``, ``gettext``, ``ngettext``, ``pgettext``, ``npgettext``; what
:func:`jinja2.ext.extract_from_ast` finds, ``{% trans %}`` blocks too when the
environment has the i18n extension) are written, each on its own line, into
the Python file that Django hands to ``xgettext`` in place of the template.
Everything else is Django's: one ``xgettext`` pass over all files, the
``.pot``, ``msguniq`` and ``msgmerge`` into each ``django.po``, the
``#: path:line`` references naming the template and the line of the call.
Options and usage are Django's (``manage.py makemessages -l zh_Hant -l en
--ignore=.venv --ignore='.venv/*'``; see ``locale/translate.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from django.core.management.commands import makemessages
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from jinja2 import Environment
from jinja2.ext import extract_from_ast
from jinja2.lexer import newline_re

#: The gettext functions read in a Jinja2 template → the positions of their
#: arguments: context, singular, plural (None where the function has none).
FUNCTIONS = {
    "_": (None, 0, None),
    "gettext": (None, 0, None),
    "ngettext": (None, 0, 1),
    "pgettext": (0, 1, None),
    "npgettext": (0, 1, 2),
}


@dataclass(frozen=True)
class Message:
    """One gettext call of a Jinja2 template with literal strings."""

    line: int
    msgid: str
    plural: str | None = None
    context: str | None = None

    def python(self) -> str:
        """The same call in Python, as ``xgettext --language=Python`` reads it
        with Django's keywords (``pgettext:1c,2``, ``npgettext:1c,2,3``)."""
        if self.context is None and self.plural is None:
            return f"gettext({self.msgid!r})"
        if self.context is None:
            return f"ngettext({self.msgid!r}, {self.plural!r}, 0)"
        if self.plural is None:
            return f"pgettext({self.context!r}, {self.msgid!r})"
        return f"npgettext({self.context!r}, {self.msgid!r}, {self.plural!r}, 0)"


def jinja_backends() -> list[Jinja2]:
    """The project's Jinja2 template backends (``settings.TEMPLATES``)."""
    return [engine for engine in engines.all() if isinstance(engine, Jinja2)]


def jinja_folders() -> list[tuple[Path, Environment]]:
    """Every folder a Jinja2 backend loads templates from (its ``DIRS`` and,
    with ``APP_DIRS``, each installed app's ``jinja2/``) that exists, resolved,
    with that backend's environment."""
    return [(Path(d).resolve(), b.env) for b in jinja_backends() for d in b.template_dirs if Path(d).is_dir()]


def jinja_template_dirs() -> list[Path]:
    """The folders of :func:`jinja_folders`."""
    return [folder for folder, _env in jinja_folders()]


def jinja_environment_for(path: str | os.PathLike) -> Environment | None:
    """The environment of the Jinja2 backend whose template folders hold
    ``path``, or None when no Jinja2 backend loads it."""
    path = Path(path).resolve()
    return next((env for folder, env in jinja_folders() if path.is_relative_to(folder)), None)


def jinja_messages(source: str, env: Environment) -> list[Message]:
    """The gettext calls of the Jinja2 template ``source`` whose message
    arguments are literal strings (a call with a variable message is not a
    message of the catalog: its strings are marked where they are written),
    in the order of the template."""
    found = []
    for line, function, strings in extract_from_ast(env.parse(source), tuple(FUNCTIONS)):
        if not isinstance(strings, tuple):
            strings = (strings,)
        context_at, msgid_at, plural_at = FUNCTIONS[function]

        def at(position):
            return strings[position] if position is not None and position < len(strings) else None

        msgid, plural, context = at(msgid_at), at(plural_at), at(context_at)
        if msgid is None or (plural_at is not None and plural is None) or (context_at is not None and context is None):
            continue
        found.append(Message(line, msgid, plural, context))
    return found


def python_stub(source: str, env: Environment) -> str:
    """A Python text holding the gettext calls of the Jinja2 template
    ``source`` on the template's own lines (so ``xgettext``'s ``#: path:line``
    references point at the template), nothing else."""
    messages = jinja_messages(source, env)
    count = max([len(newline_re.findall(source)) + 1, *(m.line for m in messages)])
    lines = [[] for _ in range(count)]
    for message in messages:
        lines[message.line - 1].append(message.python())
    return "\n".join("; ".join(calls) for calls in lines) + "\n"


class BuildFile(makemessages.BuildFile):
    """Django's build file; a Jinja2 template is read by its environment
    (:func:`python_stub`) instead of Django's ``templatize``."""

    @cached_property
    def jinja_env(self) -> Environment | None:
        """The Jinja2 environment that loads this file, if one does."""
        if self.domain != "django" or not self.is_templatized:
            return None
        return jinja_environment_for(self.path)

    def preprocess(self):
        """Write the file ``xgettext`` reads: Django's for a Django template,
        the template's gettext calls for a Jinja2 one."""
        if self.jinja_env is None:
            return super().preprocess()
        with open(self.path, encoding="utf-8") as fp:
            source = fp.read()
        with open(self.work_path, "w", encoding="utf-8") as fp:
            fp.write(python_stub(source, self.jinja_env))


class Command(makemessages.Command):
    """Django's ``makemessages``, with Jinja2 templates read as Jinja2."""

    help = makemessages.Command.help + (
        "\n\nTemplates under a Jinja2 backend's folders are read by its environment: "
        "their _(), gettext(), ngettext(), pgettext() and npgettext() calls are extracted."
    )
    build_file_class = BuildFile
