#!/usr/bin/env python3
"""Write the backend's OpenAPI document (default: backend/openapi.json) for the UI's client.

    python backend/scripts/generate-openapi.py [--output PATH]

Same as ``vigil-admin openapi --output PATH``; needs no database or other service.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
# Building the document reads no secret; silence the placeholder warnings.
os.environ.setdefault("VIGIL_SECRET_KEY", "openapi-generation")
os.environ.setdefault("VIGIL_INTERNAL_TOKEN", "openapi-generation")

from app.cli import main  # noqa: E402

if __name__ == "__main__":
    args = sys.argv[1:] or ["--output", str(BACKEND / "openapi.json")]
    raise SystemExit(main(["openapi", *args]))
