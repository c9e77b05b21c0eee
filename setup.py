"""Packaging beyond what pyproject.toml can say: the Alembic migrations and the scenarios.

They live in ``migrations/`` at the repository root (where ``alembic.ini`` and the project's
layout put them) and install as ``vahalite_bot/migrations``, so that a non-editable install
migrates its database at start like a checkout does (``vahalite_bot.store.migrate`` finds
either). The scenario files of ``boards/`` install as ``vahalite_bot/boards`` the same way
(``vahalite_bot.scenarios`` finds either). pyproject.toml cannot map one folder into another
package while also finding the packages automatically; everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["vahalite_bot", "vahalite_bot.*"]),
        "vahalite_bot.migrations",
        "vahalite_bot.migrations.versions",
        "vahalite_bot.boards",
    ],
    package_dir={"vahalite_bot.migrations": "migrations", "vahalite_bot.boards": "boards"},
    # package-data (script.py.mako, README.md) is in pyproject.toml, which overrides it here.
)
