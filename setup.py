"""Packaging beyond what pyproject.toml can say: the Alembic migrations and the scenarios.

They live in ``migrations/`` at the repository root (where ``alembic.ini`` and the project's
layout put them) and install as ``vahalite_bot/migrations``, so that a non-editable install
migrates its database at start like a checkout does (``vahalite_bot.store.migrate`` finds
either). The scenario files of ``boards/`` install as ``vahalite_bot/boards`` the same way
(``vahalite_bot.scenarios`` finds either). pyproject.toml cannot map one folder into another
package while also finding the packages automatically; everything else is in pyproject.toml.

The folders of data files (``codex/demo``, ``i18n/locales/ru``, ``render/fonts``...) are
listed as (namespace) packages too: setuptools warns about, and will one day drop, data
folders that are not. The build's scratch folder is a temporary one, removed when the build
ends, so that ``pip install .`` leaves no ``build/`` in the checkout.
"""

import atexit
import shutil
import tempfile

from setuptools import find_namespace_packages, setup

SCRATCH = tempfile.mkdtemp(prefix="vahalite-build-")
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)

setup(
    packages=[
        *find_namespace_packages(
            include=["vahalite_bot", "vahalite_bot.*"], exclude=["*.__pycache__"]
        ),
        "vahalite_bot.migrations",
        "vahalite_bot.migrations.versions",
        "vahalite_bot.boards",
    ],
    package_dir={"vahalite_bot.migrations": "migrations", "vahalite_bot.boards": "boards"},
    # package-data (script.py.mako, README.md) is in pyproject.toml, which overrides it here.
    options={"build": {"build_base": SCRATCH}},
)
