import uuid

from app.core.security import create_access_token, decode_access_token


def test_each_access_token_is_new_even_within_one_second() -> None:
    user, session = uuid.uuid4(), uuid.uuid4()
    first, _ = create_access_token(user_id=user, session_id=session)
    second, expires_in = create_access_token(user_id=user, session_id=session)
    assert first != second
    a, b = decode_access_token(first), decode_access_token(second)
    assert a is not None and b is not None
    assert (a["sub"], a["sid"]) == (b["sub"], b["sid"]) == (str(user), str(session))
    assert a["jti"] != b["jti"]
    assert expires_in > 0
