from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import httpx
import jwt
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from app.core.config import settings
from tests.factories import PASSWORD, SignedUpUser, random_email, signup
from tests.live_server import all_at_once, live_server
from tests.smtp_server import SmtpServer

SIGNUP_LINK = "/signup/complete"
RESET_LINK = "/reset-password"


@contextmanager
def client_at(app: FastAPI, address: str) -> Iterator[TestClient]:
    """A test client whose requests come from ``address``."""
    with TestClient(app, client=(address, 50000)) as c:
        yield c


def _headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _security_log(client: TestClient, user: SignedUpUser | str) -> list[str]:
    token = user.token if isinstance(user, SignedUpUser) else user
    r = client.get("/api/v1/auth/security-log", headers=_headers(token))
    assert r.status_code == 200, r.text
    return [e["action"] for e in r.json()["data"]]


def _wait_out(db: Session, seconds: float) -> None:
    """Move every throttle counter ``seconds`` into the past (as if that long had passed)."""
    db.execute(
        text("UPDATE throttle_counters SET last_at = last_at - make_interval(secs => :s)"),
        {"s": seconds},
    )
    db.commit()


# --- sign-up by email -------------------------------------------------------------------------


def test_signup_emails_a_link_whose_page_sets_the_password(
    client: TestClient, mailbox: SmtpServer
) -> None:
    email = random_email()
    r = client.post("/api/v1/auth/signup", json={"email": email.upper()})
    assert r.status_code == 202
    assert r.json() == {
        "message": f"Check your inbox: if {email} can receive mail, a link to finish creating "
        "your account is on its way. It works once, within 24 hours."
    }
    mail = mailbox.wait_for(email, subject="Finish creating your Vigil account")
    body = mail.message.get_body(preferencelist=("plain",))
    assert body is not None
    assert "http://vigil.test/signup/complete#token=vge_" in body.get_content()
    token = mailbox.link_token(email, SIGNUP_LINK)
    # no account exists before the link is used
    r = client.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    assert r.status_code == 401

    r = client.post("/api/v1/auth/signup/pending", json={"token": token})
    assert r.status_code == 200
    assert r.json()["email"] == email
    r = client.post(
        "/api/v1/auth/signup/complete",
        json={"token": token, "password": PASSWORD, "full_name": "Ada"},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["token_type"] == "bearer"
    assert body["user"]["email"] == email
    assert body["user"]["full_name"] == "Ada"
    assert body["user"]["email_verified_at"] is not None
    claims = jwt.decode(body["access_token"], options={"verify_signature": False})
    assert claims["sub"] == body["user"]["id"]
    assert body["refresh_token"].startswith("vgr_")
    # the link works once
    r = client.post("/api/v1/auth/signup/complete", json={"token": token, "password": PASSWORD})
    assert r.status_code == 400
    assert r.json() == {
        "detail": "This link was used already: sign in, or sign up again",
        "code": "link_used",
    }
    r = client.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    assert r.status_code == 200
    assert _security_log(client, r.json()["access_token"])[-1] == "user.signup"


def test_signup_does_not_tell_whether_the_address_has_an_account(
    client: TestClient, mailbox: SmtpServer
) -> None:
    user = signup(client)
    new = random_email()
    before = len(mailbox.received())
    taken = client.post("/api/v1/auth/signup", json={"email": user.email})
    fresh = client.post("/api/v1/auth/signup", json={"email": new})
    assert taken.status_code == fresh.status_code == 202
    assert taken.headers.keys() == fresh.headers.keys()
    assert taken.json()["message"].replace(user.email, "X") == fresh.json()["message"].replace(
        new, "X"
    )
    # the owner of the address is told, with no link that could change anything
    mail = mailbox.wait_for(user.email, subject="You already have a Vigil account", after=before)
    body = mail.message.get_body(preferencelist=("plain",))
    assert body is not None and "#token=" not in body.get_content()
    assert "http://vigil.test/forgot-password" in body.get_content()
    # the password is unchanged, and the attempt is in the owner's security log
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 200
    assert "user.signup_existing" in _security_log(client, user)


def test_signup_answers_before_the_mail_server_does(
    client: TestClient, mailbox: SmtpServer
) -> None:
    """Email leaves on its own thread: a slow SMTP server changes no answer's timing, so the
    time taken tells nothing about the address either."""
    user = signup(client)
    mailbox.delay = 1.5
    try:
        for email in (user.email, random_email()):
            started = time.monotonic()
            r = client.post("/api/v1/auth/signup", json={"email": email})
            assert r.status_code == 202
            assert time.monotonic() - started < 1.0, email
    finally:
        mailbox.delay = 0


def test_signup_links_that_do_not_work_say_why(
    client: TestClient, mailbox: SmtpServer, db: Session
) -> None:
    r = client.post("/api/v1/auth/signup/pending", json={"token": "vge_nope"})
    assert r.status_code == 400
    assert r.json() == {
        "detail": "This link is not valid: check that you opened all of it, or sign up again",
        "code": "link_invalid",
    }
    email = random_email()
    client.post("/api/v1/auth/signup", json={"email": email})
    token = mailbox.link_token(email, SIGNUP_LINK)
    db.execute(
        text("UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE email = :e"),
        {"e": email},
    )
    db.commit()
    r = client.post("/api/v1/auth/signup/complete", json={"token": token, "password": PASSWORD})
    assert r.status_code == 400
    assert r.json()["code"] == "link_expired"
    # a password-reset link is no sign-up link
    owner = signup(client)
    client.post("/api/v1/auth/password-reset", json={"email": owner.email})
    reset = mailbox.link_token(owner.email, RESET_LINK)
    r = client.post("/api/v1/auth/signup/complete", json={"token": reset, "password": PASSWORD})
    assert r.status_code == 400
    assert r.json()["code"] == "link_invalid"


def test_the_first_link_of_an_address_to_finish_spends_the_others(
    client: TestClient, mailbox: SmtpServer
) -> None:
    email = random_email()
    client.post("/api/v1/auth/signup", json={"email": email})
    first = mailbox.link_token(email, SIGNUP_LINK)
    before = len(mailbox.received())
    client.post("/api/v1/auth/signup", json={"email": email})
    second = mailbox.link_token(email, SIGNUP_LINK, after=before)
    assert first != second
    r = client.post("/api/v1/auth/signup/complete", json={"token": second, "password": PASSWORD})
    assert r.status_code == 201
    r = client.post(
        "/api/v1/auth/signup/complete",
        json={"token": first, "password": "tangerine quorum ledge"},
    )
    assert r.status_code == 400
    assert r.json()["code"] == "link_used"


def test_signup_validation_names_the_field(client: TestClient) -> None:
    r = client.post("/api/v1/auth/signup", json={"email": "not-an-email"})
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "validation_error"
    assert body["detail"].startswith("body.email:")
    r = client.post("/api/v1/auth/signup/complete", json={"token": "x", "password": "short"})
    assert r.status_code == 422
    assert {tuple(e["loc"]) for e in r.json()["errors"]} == {("body", "password")}


def test_passwords_easy_to_guess_are_refused_saying_why(
    client: TestClient, mailbox: SmtpServer
) -> None:
    """Length alone lets `password` and `12345678` in: zxcvbn's estimate refuses them, and the
    account's own email and name, when the account is made and when the password changes."""
    email = random_email()
    client.post("/api/v1/auth/signup", json={"email": email})
    token = mailbox.link_token(email, SIGNUP_LINK)
    for password, why in (
        ("password", "top-10 common password"),
        ("12345678", "top-10 common password"),
        ("qwertyuiop", "common password"),
        ("zxcvbnm,./", "keyboard"),
        (email, "too easy to guess"),
        ("Ada Lovelace 1815", "too easy to guess"),
    ):
        r = client.post(
            "/api/v1/auth/signup/complete",
            json={"token": token, "password": password, "full_name": "Ada Lovelace 1815"},
        )
        assert r.status_code == 422, password
        body = r.json()
        assert body["detail"].startswith("body.password: Value error, password is too easy"), r
        assert why in body["detail"], (password, body["detail"])
        assert body["errors"][0]["loc"] == ["body", "password"]
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
        "/api/v1/auth/signup/complete",
        json={"token": token, "password": "tangerine quorum ledge"},
    )
    assert r.status_code == 201, r.text


def test_signup_and_reset_requests_are_throttled_per_client_and_address(
    client: TestClient, mailbox: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "EMAIL_REQUESTS_PER_CLIENT_PER_HOUR", 3)
    monkeypatch.setattr(settings, "EMAILS_PER_ADDRESS_PER_HOUR", 2)
    email = random_email()
    before = len(mailbox.received())
    for _ in range(3):
        assert client.post("/api/v1/auth/signup", json={"email": email}).status_code == 202
    r = client.post("/api/v1/auth/signup", json={"email": random_email()})
    assert r.status_code == 429
    assert r.json()["limit"] == "signup_per_client"
    assert "at most 3 an hour" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) > 3500
    # the address got 2 of the 3 (the third answered the same and sent nothing)
    mailbox.wait_for(email, after=before)
    time.sleep(0.3)
    assert sum(email in m.rcpt_tos for m in mailbox.received()[before:]) == 2
    # password resets count on their own
    r = client.post("/api/v1/auth/password-reset", json={"email": random_email()})
    assert r.status_code == 202


def test_without_an_smtp_server_signup_says_so(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "SMTP_HOST", None)
    for path, body in (
        ("/api/v1/auth/signup", {"email": random_email()}),
        ("/api/v1/auth/password-reset", {"email": random_email()}),
    ):
        r = client.post(path, json=body)
        assert r.status_code == 503
        assert r.json()["code"] == "email_unavailable"
        assert "VIGIL_SMTP_HOST" in r.json()["detail"]


# --- sign-in and its backoff ------------------------------------------------------------------


def test_login_and_me(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 200
    token = r.json()["access_token"]
    me = client.get("/api/v1/auth/me", headers=_headers(token))
    assert me.status_code == 200
    assert me.json()["email"] == user.email


def test_login_wrong_password_is_401(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": "wrong password"})
    assert r.status_code == 401
    assert r.json() == {"detail": "Incorrect email or password", "code": "invalid_credentials"}
    r = client.post("/api/v1/auth/login", json={"email": random_email(), "password": PASSWORD})
    assert r.status_code == 401


def test_failed_logins_back_off_and_never_lock_out(client: TestClient, db: Session) -> None:
    user = signup(client)
    wrong = {"email": user.email, "password": "nope-nope"}
    for _ in range(5):
        assert client.post("/api/v1/auth/login", json=wrong).status_code == 401
    waits = []
    for _ in range(12):
        r = client.post("/api/v1/auth/login", json=wrong)
        assert r.status_code == 429
        body = r.json()
        assert body["code"] == "limit_exceeded"
        assert body["limit"] == "login_backoff_account_client"
        wait = int(r.headers["Retry-After"])
        assert body["detail"] == (
            f"Too many failed sign-ins to this account from your address: wait {wait} s "
            "before trying again"
        )
        # right or wrong, nothing is checked while the wait lasts
        r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
        assert r.status_code == 429
        waits.append(wait)
        _wait_out(db, wait)
        assert client.post("/api/v1/auth/login", json=wrong).status_code == 401
    # 1, 2, 4 … seconds: a backoff that doubles up to its ceiling, never a lockout
    assert waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]
    _wait_out(db, 900)
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 200
    # a success forgets the failures: five free tries again
    for _ in range(5):
        assert client.post("/api/v1/auth/login", json=wrong).status_code == 401


def test_failures_from_elsewhere_never_slow_the_owner_down(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five wrong passwords for someone else's email used to lock its owner out for 15
    minutes. Now they slow down only the client that made them; failures from many clients
    slow down only clients the account never signed in from."""
    monkeypatch.setattr(settings, "TRUSTED_PROXIES", "10.0.0.0/8")
    victim = signup(client)
    wrong = {"email": victim.email, "password": "nope-nope"}
    with client_at(app, "10.1.1.1") as proxy:
        # the owner's own device, seen through the proxy, signed in before
        home = {"X-Forwarded-For": "198.51.100.7"}
        ok = proxy.post("/api/v1/auth/login", json={**wrong, "password": PASSWORD}, headers=home)
        assert ok.status_code == 200
        # an attacker at one address, then a botnet of 30
        attacker = {"X-Forwarded-For": "203.0.113.9"}
        codes = [proxy.post("/api/v1/auth/login", json=wrong, headers=attacker) for _ in range(8)]
        assert [r.status_code for r in codes] == [401] * 5 + [429] * 3
        assert codes[-1].json()["limit"] == "login_backoff_account_client"
        for n in range(30):
            for _ in range(2):
                proxy.post(
                    "/api/v1/auth/login", json=wrong, headers={"X-Forwarded-For": f"192.0.2.{n}"}
                )
        r = proxy.post("/api/v1/auth/login", json=wrong, headers={"X-Forwarded-For": "192.0.2.200"})
        assert r.status_code == 429
        assert r.json()["limit"] == "login_backoff_account"
        assert int(r.headers["Retry-After"]) <= settings.LOGIN_MAX_DELAY_PER_ACCOUNT_SECONDS
        # the owner, from their usual device, and with the right password from a client of
        # their own that failed nothing, is let in at once
        r = proxy.post("/api/v1/auth/login", json={**wrong, "password": PASSWORD}, headers=home)
        assert r.status_code == 200, r.text
    # the test client's own address (not behind the proxy) signed up and signs in
    r = client.post("/api/v1/auth/login", json={**wrong, "password": PASSWORD})
    assert r.status_code == 200


def test_a_client_that_sprays_many_accounts_backs_off(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "LOGIN_FREE_FAILURES_PER_CLIENT", 10)
    with client_at(app, "10.77.0.1") as sprayer:
        for _ in range(10):
            r = sprayer.post(
                "/api/v1/auth/login", json={"email": random_email(), "password": "nope-nope"}
            )
            assert r.status_code == 401
        r = sprayer.post(
            "/api/v1/auth/login", json={"email": random_email(), "password": "nope-nope"}
        )
        assert r.status_code == 429
        assert r.json()["limit"] == "login_backoff_client"
        assert r.json()["detail"].startswith("Too many failed sign-ins from your address: wait")


def test_parallel_guesses_get_no_more_tries_than_sequential_ones(app: FastAPI) -> None:
    """The attempt is counted in the same statement that lets it run, before the password is
    checked: 30 guesses at once get the 5 free ones, plus one per backoff step that passed
    while they ran (1 s, then 2 s more …). Checking and then recording, as before, let every
    guess in flight through."""
    with client_at(app, "10.9.9.9") as c:
        user = signup(c)
    with live_server(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        calls = [
            lambda: (
                http.post(
                    "/api/v1/auth/login", json={"email": user.email, "password": "nope-nope"}
                ).status_code
            )
            for _ in range(30)
        ]
        started = time.monotonic()
        codes = all_at_once(calls)
        took = time.monotonic() - started
    steps = sum(1 for passed in (1, 3, 7, 15, 31) if passed <= took)
    assert set(codes) == {401, 429}, codes
    assert 5 <= codes.count(401) <= 5 + steps, (codes, took)


def test_the_client_address_comes_from_trusted_proxies_only(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    def login_ip(c: TestClient, user: SignedUpUser, forwarded: str) -> str:
        r = c.post(
            "/api/v1/auth/login",
            json={"email": user.email, "password": PASSWORD},
            headers={"X-Forwarded-For": forwarded},
        )
        assert r.status_code == 200
        sessions = c.get("/api/v1/auth/sessions", headers=_headers(r.json()["access_token"]))
        current = [s for s in sessions.json()["data"] if s["current"]]
        return str(current[0]["ip"])

    with client_at(app, "10.20.30.40") as c:
        user = signup(c)
        # not trusted: the header is whatever the client wrote, and is ignored
        assert login_ip(c, user, "1.2.3.4") == "10.20.30.40"
        monkeypatch.setattr(settings, "TRUSTED_PROXIES", "10.20.0.0/16, 172.16.0.1")
        # trusted: the last address before the trusted proxies; a spoofed first entry is not it
        assert login_ip(c, user, "1.2.3.4, 198.51.100.2") == "198.51.100.2"
        assert login_ip(c, user, "1.2.3.4, 198.51.100.2, 172.16.0.1") == "198.51.100.2"


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


def test_session_tokens_are_accepted_only_as_bearer(client: TestClient) -> None:
    """A session token in a URL ends up in logs, history and Referer headers; as a Basic
    password it is easy to leak too. Only API keys may travel that way (for agents)."""
    from tests.factories import create_workspace

    user = signup(client)
    ws = create_workspace(client, user)
    basic = base64.b64encode(f"x:{user.token}".encode()).decode()
    for path in ("/api/v1/auth/me", f"/api/v1/workspaces/{ws['id']}/dashboards"):
        assert client.get(path, headers=user.headers).status_code == 200
        for how in (
            {"params": {"token": user.token}},
            {"headers": {"Authorization": f"Basic {basic}"}},
            {"headers": {"Authorization": f"Token {user.token}"}},
        ):
            r = client.get(path, **how)  # type: ignore[arg-type]
            assert r.status_code == 401, (path, how)
            assert r.json() == {
                "detail": "Session tokens are accepted only as 'Authorization: Bearer <token>'; "
                "?token= and HTTP Basic are for query keys",
                "code": "invalid_token",
            }


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
    r = client.post("/api/v1/auth/signup", json={"email": "new@vigil.local"})
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


# --- refresh tokens and sessions ----------------------------------------------------------------


def test_refresh_rotates_and_logout_revokes(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": user.refresh_token})
    assert r.status_code == 200
    new = r.json()
    assert new["refresh_token"] != user.refresh_token
    headers = _headers(new["access_token"])
    assert client.post("/api/v1/auth/logout", headers=headers).status_code == 200
    assert client.get("/api/v1/auth/me", headers=headers).status_code == 401
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": new["refresh_token"]})
    assert r.status_code == 401
    assert r.json()["code"] == "invalid_refresh"


def test_a_refresh_token_used_twice_ends_its_whole_session(client: TestClient) -> None:
    """The OAuth 2.0 security BCP's reuse detection: a spent refresh token that comes back
    means someone else holds the session's tokens; the whole family is revoked."""
    user = signup(client)
    elsewhere = client.post(
        "/api/v1/auth/login", json={"email": user.email, "password": PASSWORD}
    ).json()
    stolen = user.refresh_token
    rotated = client.post("/api/v1/auth/refresh", json={"refresh_token": stolen}).json()
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": stolen})
    assert r.status_code == 401
    assert r.json() == {
        "detail": "This refresh token was used before: its session has been ended in case it "
        "was stolen; sign in again",
        "code": "refresh_reused",
    }
    # every token of that session is dead: the rotated refresh token and the access tokens
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": rotated["refresh_token"]})
    assert r.status_code == 401
    assert (
        client.get("/api/v1/auth/me", headers=_headers(rotated["access_token"])).status_code == 401
    )
    assert client.get("/api/v1/auth/me", headers=user.headers).status_code == 401
    # the account's other session carries on, and its log says what happened
    assert (
        client.get("/api/v1/auth/me", headers=_headers(elsewhere["access_token"])).status_code
        == 200
    )
    log = _security_log(client, elsewhere["access_token"])
    assert log[:2] == ["user.refresh_reuse", "user.token_refresh"]


def test_people_list_their_sessions_and_sign_the_others_out(client: TestClient) -> None:
    user = signup(client)
    phone = client.post(
        "/api/v1/auth/login",
        json={"email": user.email, "password": PASSWORD},
        headers={"User-Agent": "Phone/1.0"},
    ).json()
    laptop = client.post(
        "/api/v1/auth/login",
        json={"email": user.email, "password": PASSWORD},
        headers={"User-Agent": "Laptop/2.0"},
    ).json()
    r = client.get("/api/v1/auth/sessions", headers=user.headers)
    assert r.status_code == 200
    sessions = r.json()["data"]
    assert r.json()["count"] == 3
    assert [s["current"] for s in sessions].count(True) == 1
    assert {s["user_agent"] for s in sessions} >= {"Phone/1.0", "Laptop/2.0"}
    phone_id = next(s["id"] for s in sessions if s["user_agent"] == "Phone/1.0")
    # end one by id: its tokens stop working at once
    r = client.delete(f"/api/v1/auth/sessions/{phone_id}", headers=user.headers)
    assert r.status_code == 200
    assert client.get("/api/v1/auth/me", headers=_headers(phone["access_token"])).status_code == 401
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": phone["refresh_token"]})
    assert r.status_code == 401
    # someone else's session is none of yours
    other = signup(client)
    r = client.delete(f"/api/v1/auth/sessions/{phone_id}", headers=other.headers)
    assert r.status_code == 404
    other_sessions = client.get("/api/v1/auth/sessions", headers=other.headers).json()["data"]
    r = client.delete(f"/api/v1/auth/sessions/{other_sessions[0]['id']}", headers=user.headers)
    assert r.status_code == 404
    assert client.get("/api/v1/auth/me", headers=other.headers).status_code == 200
    # sign out every other session
    r = client.post("/api/v1/auth/sessions/revoke-others", headers=user.headers)
    assert r.json() == {"message": "1 other session(s) ended", "ended": 1}
    assert (
        client.get("/api/v1/auth/me", headers=_headers(laptop["access_token"])).status_code == 401
    )
    assert client.get("/api/v1/auth/me", headers=user.headers).status_code == 200
    assert client.get("/api/v1/auth/sessions", headers=user.headers).json()["count"] == 1
    log = _security_log(client, user)
    assert log[:2] == ["user.sessions_revoke_others", "user.session_revoke"]


def test_change_password_signs_out_every_other_session(
    client: TestClient, mailbox: SmtpServer
) -> None:
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
    before = len(mailbox.received())
    r = client.post(
        "/api/v1/auth/password",
        json={"current_password": PASSWORD, "new_password": "a new password"},
        headers=user.headers,
    )
    assert r.status_code == 200
    assert client.get("/api/v1/auth/me", headers=user.headers).status_code == 200
    assert client.get("/api/v1/auth/me", headers=_headers(other["access_token"])).status_code == 401
    r = client.post("/api/v1/auth/refresh", json={"refresh_token": other["refresh_token"]})
    assert r.status_code == 401
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": "a new password"})
    assert r.status_code == 200
    mailbox.wait_for(user.email, subject="Your Vigil password was changed", after=before)
    log = _security_log(client, user)
    assert "user.password_changed" in log and "user.password_change_failed" in log


def test_password_reset_by_email(client: TestClient, mailbox: SmtpServer) -> None:
    user = signup(client)
    second = client.post(
        "/api/v1/auth/login", json={"email": user.email, "password": PASSWORD}
    ).json()
    nobody = random_email()
    before = len(mailbox.received())
    known = client.post("/api/v1/auth/password-reset", json={"email": user.email.upper()})
    unknown = client.post("/api/v1/auth/password-reset", json={"email": nobody})
    assert known.status_code == unknown.status_code == 202
    assert known.json()["message"].replace(user.email, "X") == unknown.json()["message"].replace(
        nobody, "X"
    )
    token = mailbox.link_token(user.email, RESET_LINK, after=before)
    time.sleep(0.3)
    assert not any(nobody in m.rcpt_tos for m in mailbox.received()[before:])
    r = client.post("/api/v1/auth/password-reset/pending", json={"token": token})
    assert r.json()["email"] == user.email
    r = client.post(
        "/api/v1/auth/password-reset/complete",
        json={"token": token, "new_password": "password"},
    )
    assert r.status_code == 422
    r = client.post(
        "/api/v1/auth/password-reset/complete",
        json={"token": token, "new_password": "marmalade quokka sextant"},
    )
    assert r.status_code == 200, r.text
    fresh = r.json()
    # every earlier session is over; the answer is a new one
    for old in (user.token, second["access_token"]):
        assert client.get("/api/v1/auth/me", headers=_headers(old)).status_code == 401
    assert client.get("/api/v1/auth/me", headers=_headers(fresh["access_token"])).status_code == 200
    r = client.post("/api/v1/auth/login", json={"email": user.email, "password": PASSWORD})
    assert r.status_code == 401
    r = client.post(
        "/api/v1/auth/login",
        json={"email": user.email, "password": "marmalade quokka sextant"},
    )
    assert r.status_code == 200
    r = client.post(
        "/api/v1/auth/password-reset/complete",
        json={"token": token, "new_password": "marmalade quokka sextant"},
    )
    assert r.status_code == 400
    assert r.json()["code"] == "link_used"
    log = _security_log(client, fresh["access_token"])
    assert log[:3] == ["user.login", "user.login_failed", "user.password_reset"]
    assert "user.password_reset_requested" in log


def test_profile_changes_and_refreshes_are_in_the_security_log(client: TestClient) -> None:
    user = signup(client)
    r = client.patch("/api/v1/auth/me", json={"full_name": "Grace"}, headers=user.headers)
    assert r.status_code == 200 and r.json()["full_name"] == "Grace"
    client.post("/api/v1/auth/refresh", json={"refresh_token": user.refresh_token})
    r = client.get("/api/v1/auth/security-log", headers=user.headers)
    events = r.json()["data"]
    assert [e["action"] for e in events[:2]] == ["user.token_refresh", "user.profile_update"]
    assert events[1]["details"] == {"full_name": {"from": None, "to": "Grace"}}
    r = client.get("/api/v1/auth/security-log", params={"renewals": "false"}, headers=user.headers)
    assert [e["action"] for e in r.json()["data"]] == ["user.profile_update", "user.signup"]
    # only events about your own account
    other = signup(client)
    assert _security_log(client, other) == ["user.signup"]
    r = client.get(
        "/api/v1/auth/security-log",
        params={"since": (datetime.now(UTC) + timedelta(minutes=1)).isoformat()},
        headers=user.headers,
    )
    assert r.json() == {"data": [], "count": 0}
