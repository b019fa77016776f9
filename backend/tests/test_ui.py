from __future__ import annotations

import gzip
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core.errors import VigilError
from app.main import vigil_error_handler
from app.ui import mount_ui


def ui_client(ui_dir: Path) -> TestClient:
    app = FastAPI()
    app.add_exception_handler(VigilError, vigil_error_handler)
    mount_ui(app, ui_dir)
    return TestClient(app)


def test_serves_files_and_falls_back_to_index(tmp_path: Path) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<html>vigil</html>")
    (tmp_path / "assets" / "app.js").write_text("console.log(1)")
    client = ui_client(tmp_path)
    assert client.get("/").text == "<html>vigil</html>"
    assert client.get("/w/123/dashboards/abc").text == "<html>vigil</html>"
    r = client.get("/assets/app.js")
    assert r.text == "console.log(1)"
    assert "immutable" in r.headers["cache-control"]
    assert client.get("/assets/missing.js").status_code == 404
    assert client.get("/%2e%2e/%2e%2e/etc/passwd").text == "<html>vigil</html>"


def test_api_paths_never_get_the_ui(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html>vigil</html>")
    client = ui_client(tmp_path)
    for path in ("/api/nope", "/v1/nope", "/prometheus/api/v1/nope"):
        r = client.get(path)
        assert r.status_code == 404
        assert r.json() == {"detail": f"No such endpoint: {path}", "code": "not_found"}


def test_missing_build_says_so(tmp_path: Path) -> None:
    r = ui_client(tmp_path / "absent").get("/")
    assert r.status_code == 200
    assert "The web UI is not built" in r.text


def test_assets_are_sent_precompressed_when_the_browser_accepts_it(tmp_path: Path) -> None:
    assets = tmp_path / "assets"
    assets.mkdir()
    (tmp_path / "index.html").write_text("<html>vigil</html>")
    source = "console.log('vigil');" * 200
    (assets / "app.js").write_text(source)
    (assets / "app.js.gz").write_bytes(gzip.compress(source.encode()))
    (assets / "plain.css").write_text("body{}")
    client = ui_client(tmp_path)

    r = client.get("/assets/app.js", headers={"Accept-Encoding": "gzip, deflate"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["vary"] == "Accept-Encoding"
    assert "immutable" in r.headers["cache-control"]
    assert r.text == source  # the client undid the encoding: the bytes are the asset's

    # no Brotli copy: "br" alone gets the plain file; q=0 refuses a coding
    for accept in ("br", "gzip;q=0", "identity", ""):
        r = client.get("/assets/app.js", headers={"Accept-Encoding": accept})
        assert "content-encoding" not in r.headers, accept
        assert r.text == source

    r = client.get("/assets/plain.css", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in r.headers
    assert r.text == "body{}"
    # index.html is never cached for long, compressed or not
    index = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert index.headers["cache-control"] == "no-cache"
