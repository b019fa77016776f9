"""Running Alembic from code (the CLI and the tests), wherever the package is installed."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.core.config import settings

ALEMBIC_DIR = Path(__file__).resolve().parent / "alembic"


def alembic_config(url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(ALEMBIC_DIR))
    config.attributes["url"] = url or settings.sqlalchemy_url
    return config


def upgrade(url: str | None = None, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def check(url: str | None = None) -> None:
    """Raise if the models and the migrations disagree (``alembic check``)."""
    command.check(alembic_config(url))
