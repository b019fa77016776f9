from __future__ import annotations

import jwt
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.factories import PASSWORD, random_email, signup


def test_signup_returns_tokens_and_user(client: TestClient) -> None:
    email = random_email()
    r = client.post(
        "/api/v1/auth/signup",
        json={"email": email.upper(), "password": PASSWORD, "full_name": "Ada"},
    )
    assert r.status_code == 201
    body = r.json()
    assert body["token_type"] == "bearer"
    assert body["user"]["email"] == email
    assert body["user"]["full_name"] == "Ada"
    claims = jwt.decode(body["access_token"], options={"verify_signature": False})
    assert claims["sub"] == body["user"]["id"]
    assert body["refresh_token"].startswith("vgr_")


def test_signup_duplicate_email_is_409(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/auth/signup", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 409
    assert r.json() == {
        "detail": "An account with this email already exists",
        "code": "email_taken",
    }


def test_signup_validation_names_the_field(client: TestClient) -> None:
    r = client.post("/api/v1/auth/signup", json={"email": "not-an-email", "password": "short"})
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "validation_error"
    assert body["detail"].startswith("body.email:")
    assert {tuple(e["loc"]) for e in body["errors"]} == {("body", "email"), ("body", "password")}


def test_passwords_easy_to_guess_are_refused_saying_why(client: TestClient) -> None:
    """Length alone lets `password` and `12345678` in: zxcvbn's estimate refuses them, and the
    account's own email and name, at sign-up and when the password changes."""
    email = random_email()
    for password, why in (
        ("password", "top-10 common password"),
        ("12345678", "top-10 common password"),
        ("qwertyuiop", "common password"),
        ("zxcvbnm,./", "keyboard"),
        (email, "too easy to guess"),
        ("Ada Lovelace 1815", "too easy to guess"),
    ):
        r = client.post(
            "/api/v1/auth/signup",
            json={"email": email, "password": password, "full_name": "Ada Lovelace 1815"},
        )
        assert r.status_code == 422, password
        assert r.json()["detail"].startswith("body.password: Value error, password is too easy"), r
        assert why in r.json()["detail"], (password, r.json()["detail"])
    user = signup(client)
    r = client.post(
        "/api/v1/auth/password",
        json={"current_password": PASSWORD, "new_password": "iloveyou1"},
        headers=user.headers,
    )
    assert r.status_code == 422
    assert "body.new_password: Value error, password is too easy to guess" in r.json()["detail"]
    # a phrase of uncommon words is fine
    r = client.post(
        "/api/v1/auth/signup", json={"email": random_email(), "password": "tangerine quorum ledge"}
    )
    assert r.status_code == 201, r.text


def test_login_and_me(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 200
    token = r.json()["access_token"]
    me = client.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200
    assert me.json()["email"] == user.email


def test_login_wrong_password_is_401(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": "wrong password"})
    assert r.status_code == 401
    assert r.json() == {"detail": "Incorrect email or password", "code": "invalid_credentials"}
    r = client.post("/api/v1/auth/login", json={"email": random_email(), "password": PASSWORD})
    assert r.status_code == 401


def test_me_requires_a_valid_token(client: TestClient) -> None:
    assert client.get("/api/v1/auth/me").json() == {
        "detail": "Not authenticated",
        "code": "unauthorized",
    }
    r = client.get("/api/v1/auth/me", headers={"Authorization": "Bearer garbage"})
    assert r.status_code == 401
    assert r.json()["code"] == "invalid_token"
    forged = jwt.encode(
        {"sub": "x", "typ": "access", "exp": 9999999999}, "other", algorithm="HS256"
    )
    r = client.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {forged}"})
    assert r.status_code == 401


def test_login_is_throttled_per_account(client: TestClient) -> None:
    user = signup(client)
    for _ in range(5):
        r = client.post("/api/v1/auth/login", json={"email": user.email, "password": "nope-nope"})
        assert r.status_code == 401
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 429
    body = r.json()
    assert body["code"] == "limit_exceeded"
    assert body["limit"] == "login_failures_per_account"
    assert "at most 5 per 900 s" in body["detail"]
    assert r.headers["Retry-After"] == "900"


def test_a_successful_login_clears_earlier_failures(client: TestClient) -> None:
    user = signup(client)
    for _ in range(4):
        client.post("/api/v1/auth/login", json={"email": user.email, "password": "nope-nope"})
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 200
    for _ in range(4):
        r = client.post("/api/v1/auth/login", json={"email": user.email, "password": "nope-nope"})
        assert r.status_code == 401
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 200


def test_login_is_throttled_per_address(client: TestClient) -> None:
    for _ in range(20):
        r = client.post(
            "/api/v1/auth/login", json={"email": random_email(), "password": "nope-nope"}
        )
        assert r.status_code == 401
    r = client.post("/api/v1/auth/login", json={"email": random_email(), "password": "nope-nope"})
    assert r.status_code == 429
    assert r.json()["limit"] == "login_failures_per_address"


def test_refresh_rotates_and_logout_revokes(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": user.refresh_token})
    assert r.status_code == 200
    new = r.json()
    # the spent refresh token no longer works
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": user.refresh_token})
    assert r.status_code == 401
    assert r.json()["code"] == "invalid_refresh"
    headers = {"Authorization": f"Bearer {new['access_token']}"}
    assert client.post("/api/v1/auth/logout", headers=headers).status_code == 200
    assert client.get("/api/v1/auth/me", headers=headers).status_code == 401
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": new["refresh_token"]})
    assert r.status_code == 401


def test_change_password_revokes_other_sessions(client: TestClient) -> None:
    user = signup(client)
    other = client.post(
        "/api/v1/auth/login", json={"email": user.email, "password": PASSWORD}
    ).json()
    r = client.post(
        "/api/v1/auth/password",
        json={"current_password": "wrong", "new_password": "a new password"},
        headers=user.headers,
    )
    assert r.status_code == 401
    r = client.post(
        "/api/v1/auth/password",
        json={"current_password": PASSWORD, "new_password": "a new password"},
        headers=user.headers,
    )
    assert r.status_code == 200
    assert client.get("/api/v1/auth/me", headers=user.headers).status_code == 200
    other_headers = {"Authorization": f"Bearer {other['access_token']}"}
    assert client.get("/api/v1/auth/me", headers=other_headers).status_code == 401
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": "a new password"})
    assert r.status_code == 200


def test_api_key_is_not_a_session(client: TestClient) -> None:
    r = client.get("/api/v1/auth/me", headers={"Authorization": "Bearer vgq_abc"})
    assert r.status_code == 401
    assert "query endpoints" in r.json()["detail"]


def test_login_accepts_an_address_on_a_special_use_domain(client: TestClient, db: Session) -> None:
    """Sign-in compares the stored address; it does not re-validate its domain."""
    from app.services import users
    from app.services.audit import Actor

    email = f"ops-{random_email().split('@')[0]}@vigil.local"
    users.create_user(
        db, email=email, password=PASSWORD, full_name=None, actor=Actor(None, None, None, None)
    )
    db.commit()
    r = client.post("/api/v1/auth/login", json={"email": email.upper(), "password": PASSWORD})
    assert r.status_code == 200, r.text
    r = client.post("/api/v1/auth/signup", json={"email": "new@vigil.local", "password": PASSWORD})
    assert r.status_code == 422


def test_a_body_that_is_not_json_says_why(client: TestClient) -> None:
    headers = {"Content-Type": "application/json"}
    truncated = b'{"email": "a@b.c", "password": '
    r = client.post("/api/v1/auth/login", content=truncated, headers=headers)
    assert r.status_code == 422
    assert r.json() == {
        "detail": "the body is not valid JSON: Expecting value at character 31",
        "code": "validation_error",
        "errors": [{"loc": ["body", 31], "msg": "JSON decode error", "type": "json_invalid"}],
    }
    r = client.post("/api/v1/auth/login", content=b'{"email": "\xff"}', headers=headers)
    assert r.status_code == 400
    assert r.json()["detail"].startswith("the body is not UTF-8 text: 'utf-8' codec can't decode")
