"""Optional compiled engine: ``python setup_engine.py build_ext --inplace``
(or ``make engine-fast``) compiles the engine's unchanged pure-Python modules
with Cython 3 into extension modules next to them (``*.so``, git-ignored).

Python imports an extension module before the ``.py`` of the same name, so a
built tree runs the compiled code and a tree without ``.so`` files the pure
Python: the same source, the same play (``scripts/engine_fingerprint.py``
prints identical hashes either way).  ``make engine-clean`` removes them.

Directives keep Python's semantics: annotations are not used as C types
(``annotation_typing=False``), division, overflow and bounds are Python's.
"""
import glob
import os
import sys

from setuptools import setup
from Cython.Build import cythonize

HERE = os.path.dirname(os.path.abspath(__file__))

#: The modules compiled: every engine module but the packages' __init__
#: (registries, kept importable by name) and the command-line helpers.
SKIP = {"__init__.py", "bench_tricks.py", "simulate.py"}


def engine_modules() -> list[str]:
    """Relative paths of the engine's modules to compile."""
    paths = sorted(glob.glob("games/engine/**/*.py", recursive=True))
    return [p for p in paths if os.path.basename(p) not in SKIP]


os.chdir(HERE)
setup(
    name="cardroom-engine-fast",
    packages=[],
    py_modules=[],
    ext_modules=cythonize(
        engine_modules(),
        language_level=3,
        nthreads=int(os.environ.get("ENGINE_FAST_JOBS", "1")),
        compiler_directives={
            "annotation_typing": False,
            "binding": True,
            "embedsignature": True,
            "always_allow_keywords": True,
        },
        build_dir="tmp/engine-fast-build",
        quiet=True,
    ),
    script_args=sys.argv[1:] or ["build_ext", "--inplace"],
    options={"build": {"build_base": "tmp/engine-fast-build"}},
)
