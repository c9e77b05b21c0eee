"""Packaging beyond what pyproject.toml can say: the Alembic migrations.

They live in ``migrations/`` at the repository root (where ``alembic.ini`` and the project's
layout put them) and install as ``vahalite_bot/migrations``, so that a non-editable install
migrates its database at start like a checkout does (``vahalite_bot.store.migrate`` finds
either). pyproject.toml cannot map one folder into another package while also finding the
packages automatically; everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["vahalite_bot", "vahalite_bot.*"]),
        "vahalite_bot.migrations",
        "vahalite_bot.migrations.versions",
    ],
    package_dir={"vahalite_bot.migrations": "migrations"},
    # package-data (script.py.mako, README.md) is in pyproject.toml, which overrides it here.
)
