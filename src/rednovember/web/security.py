"""Seat and creator tokens: random secrets handed out once; only their SHA-256 hash is stored."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

TOKEN_BYTES = 32  # 43 url-safe characters
GAME_ID_BYTES = 9  # 12 url-safe characters
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
GAME_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def new_token() -> str:
    """A fresh secret token (url-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


def hash_token(token: str) -> str:
    """The stored form of a token: hex SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def plausible_token(token: object) -> bool:
    """Cheap shape check before hashing (rejects junk without touching the database)."""
    return isinstance(token, str) and _TOKEN_RE.match(token) is not None


def matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` hashes to ``stored_hash`` (constant-time comparison)."""
    if stored_hash is None or not plausible_token(token):
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def valid_game_id(game_id: object) -> bool:
    return isinstance(game_id, str) and GAME_ID_RE.match(game_id) is not None


__all__ = ["GAME_ID_RE", "hash_token", "matches", "new_game_id", "new_token", "plausible_token",
           "valid_game_id"]
