"""Issue 20 §3, Web Push notices (web/push.py, web/push_api.py, web/hub/notices.py) against a push
service of the test's own on a loopback port, which checks the VAPID signature (RFC 8292) and
decrypts each push (RFC 8291, aes128gcm) with the subscription's private key, as a browser would:
one push when the seat must decide while its player is away, none while connected, none after
opting out, no token in any; a subscription the push service forgot (410) is dropped; bad input is
refused; the server's VAPID keys are made once for every process; on two processes over one
PostgreSQL each notice (email and push) goes exactly once."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import httpx
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from pgcluster import cluster, database_url
from test_server_mail import Inbox, confirm, mail_flags, play_until, two_seats
from webtools import Server, WsClient, auth, free_port

from rednovember.web.push import server_keys
from rednovember.web.store import Store

AFTER = 0.3  # --mail-after: seconds the seat to move is away before its notices go
QUIET = 2.5  # seconds in which no further push may come (many times AFTER)


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Push:
    """One request the push service took."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Browser:
    """A browser's side of one subscription: its key pair and authentication secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()`` as a browser sends it."""
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.secret)}}

    def read(self, push: Push) -> dict[str, Any]:
        """The push's payload, decrypted as the browser does (RFC 8291, aes128gcm)."""
        assert push.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(push.body, private_key=self.key, auth_secret=self.secret,
                                 version="aes128gcm")
        data: dict[str, Any] = json.loads(plain)
        return data


class PushService:
    """A push service on a loopback port: takes every POST (201), except at paths it was told
    are gone (410), and keeps what it took."""

    def __init__(self) -> None:
        self.pushes: list[Push] = []
        self.gone: set[str] = set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.pushes.append(Push(self.path, {k.lower(): v for k, v in
                                                       self.headers.items()}, body))
                self.send_response(410 if self.path in service.gone else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.host = f"127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def browser(self, name: str) -> Browser:
        return Browser(f"http://{self.host}/push/{name}")

    def at(self, name: str) -> list[Push]:
        return [p for p in self.pushes if p.path == f"/push/{name}"]

    def wait(self, name: str, count: int, timeout: float = 20.0) -> list[Push]:
        end = time.monotonic() + timeout
        while len(self.at(name)) < count:
            assert time.monotonic() < end, f"{len(self.at(name))} pushes to {name}, not {count}"
            time.sleep(0.05)
        return self.at(name)

    def stays(self, name: str, count: int) -> None:
        time.sleep(QUIET)
        assert len(self.at(name)) == count

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(service: PushService, *extra: str, db_url: str | None = None) -> Server:
        s = Server(tmp_path / f"push{len(started)}.db", db_url=db_url,
                   extra=["--push", "--push-test-host", service.host, "--mail-after",
                          str(AFTER), *extra]).start()
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def subscribe(api: httpx.Client, gid: str, seat: int, token: str, browser: Browser,
              lang: str = "en") -> httpx.Response:
    return api.post(f"/api/games/{gid}/seats/{seat}/push",
                    json={**browser.subscription(), "lang": lang}, headers=auth(token))


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(push: Push, key: str, service: PushService) -> None:
    """The push is signed with the server's VAPID key for this push service (RFC 8292:
    ``Authorization: vapid t=JWT, k=KEY``, the JWT signed ES256)."""
    scheme, rest = push.headers["authorization"].split(" ", 1)
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert scheme == "vapid" and parts["k"] == key
    head, body, sig = parts["t"].split(".")
    assert json.loads(unb64(head))["alg"] == "ES256"
    raw = unb64(sig)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not
    claims = json.loads(unb64(body))
    assert claims["aud"] == f"http://{service.host}" and claims["exp"] > time.time()
    assert claims["sub"].startswith(("mailto:", "https://"))


def test_a_push_the_browser_can_read_when_the_absent_seat_must_decide(
        service: PushService, servers: Callable[..., Server]) -> None:
    server = servers(service)
    bea = service.browser("bea")
    with httpx.Client(base_url=server.url, timeout=10) as api:
        info = api.get("/api/notices").json()
        assert info["mail"] is False and len(base64.urlsafe_b64decode(info["push_key"] + "=")) == 65
        gid, tokens = two_seats(api)
        r = subscribe(api, gid, 1, tokens[1], bea, "de")
        assert r.status_code == 200 and r.json() == {"game": gid, "seat": 1, "subscriptions": 1}
        play_until(api, gid, tokens, 1)  # Bea has never connected: she is away
        [push] = service.wait("bea", 1)
        check_vapid(push, info["push_key"], service)
        assert int(push.headers["ttl"]) > 0
        data = bea.read(push)
        assert data["title"] == "Roter November: Du bist am Zug"
        assert "Bea" in data["body"] and gid in data["body"]
        assert data["url"] == f"g/{gid}" and data["game"] == gid
        text = json.dumps(push.headers) + json.dumps(data) + push.path
        assert not any(t in text for t in tokens)  # no seat token in any push
        service.stays("bea", 1)  # one push for the whole wait
        with WsClient(server.url, gid, [tokens[1]]):  # Bea is here: her turns send nothing
            play_until(api, gid, tokens, 0)
            play_until(api, gid, tokens, 1)
            service.stays("bea", 1)
            play_until(api, gid, tokens, 0)
        play_until(api, gid, tokens, 1)  # she left: her next wait is told again
        assert bea.read(service.wait("bea", 2)[1])["game"] == gid
        off = api.post(f"/api/games/{gid}/seats/1/push/off", json={"endpoint": bea.endpoint},
                       headers=auth(tokens[1]))
        assert off.status_code == 200 and off.json()["subscriptions"] == 0
        play_until(api, gid, tokens, 0)
        play_until(api, gid, tokens, 1)
        service.stays("bea", 2)


def test_a_subscription_the_push_service_forgot_is_dropped(
        service: PushService, servers: Callable[..., Server]) -> None:
    server = servers(service)
    old, new = service.browser("old"), service.browser("new")
    service.gone.add("/push/old")
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        for browser in (old, new):
            assert subscribe(api, gid, 1, tokens[1], browser).status_code == 200
        play_until(api, gid, tokens, 1)
        service.wait("old", 1)  # 410: gone
        assert new.read(service.wait("new", 1)[0])["game"] == gid
        play_until(api, gid, tokens, 0)
        play_until(api, gid, tokens, 1)
        service.wait("new", 2)
        service.stays("old", 1)  # it was dropped: never asked again


def test_only_the_seats_own_token_subscribes_and_bad_input_is_refused(
        service: PushService, servers: Callable[..., Server]) -> None:
    server = servers(service, "--push-service", "push.example.invalid")
    good = service.browser("x").subscription()
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        path = f"/api/games/{gid}/seats/1/push"
        assert api.post(path, json=good).status_code == 401
        assert api.post(path, json=good, headers=auth(tokens[0])).status_code == 401
        assert api.post(f"{path}/off", json={"endpoint": good["endpoint"]},
                        headers=auth(tokens[0])).status_code == 401
        assert api.post(f"/api/games/{gid}/seats/7/push", json=good,
                        headers=auth(tokens[1])).status_code == 404
        keys = good["keys"]
        bads: list[dict[str, Any]] = [
            {}, {"endpoint": good["endpoint"]}, {**good, "extra": 1}, {**good, "lang": "xx"},
            {**good, "keys": {"p256dh": keys["p256dh"]}},
            {**good, "keys": {**keys, "auth": b64url(os.urandom(12))}},  # not 16 bytes
            {**good, "keys": {**keys, "p256dh": b64url(b"\x02" + os.urandom(32))}},  # compressed
            {**good, "keys": {**keys, "p256dh": "not base64!"}},
            {**good, "endpoint": "http://example.org/push/x"},  # http, not a test host
            {**good, "endpoint": "https://127.0.0.1/push/x"},  # an address: the server's net
            {**good, "endpoint": "https://localhost/push/x"},
            {**good, "endpoint": "https://example.org/push/x"},  # no browser's push service
            {**good, "endpoint": "https://fcm.googleapis.com.example.org/x"},
            {**good, "endpoint": "https://push.example.invalid/x\n"},
            {**good, "endpoint": "https://push.example.invalid/" + "x" * 1100},
        ]
        for bad in bads:
            r = api.post(path, json=bad, headers=auth(tokens[1]))
            assert r.status_code == 422, bad
            assert r.json()["error"]["code"] == "bad_message", r.text
        # a push service's address is taken (--push-service; seat 0 decides now: none is sent)
        assert api.get(f"/api/games/{gid}").json()["to_move"] == 0
        real = {**good, "endpoint": "https://fcm.push.example.invalid/send/abc:def"}
        assert api.post(path, json=real, headers=auth(tokens[1])).json()["subscriptions"] == 1
    assert service.pushes == []


def test_a_server_without_push_says_it_sends_none(tmp_path: Path) -> None:
    server = Server(tmp_path / "nopush.db").start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            assert api.get("/api/notices").json() == {"push_key": None, "mail": False}
            gid, tokens = two_seats(api)
            # (an address the schema allows: this server never posts anywhere)
            r = subscribe(api, gid, 0, tokens[0], Browser("https://fcm.googleapis.com/fcm/send/x"))
            assert r.status_code == 409 and r.json()["error"]["code"] == "no_push"
    finally:
        server.stop()


def test_the_vapid_keys_are_made_once_for_every_process(tmp_path: Path) -> None:
    url = database_url(tmp_path / "keys.db")
    stores = [Store(url) for _ in range(4)]
    try:
        with ThreadPoolExecutor(4) as pool:  # all ask at once: one pair is made
            keys = list(pool.map(lambda s: server_keys(s.engine), stores))
        assert len(set(keys)) == 1
        assert server_keys(Store(url).engine) == keys[0]  # and kept
    finally:
        for s in stores:
            s.close()


def test_two_processes_send_each_notice_exactly_once(
        service: PushService, inbox: Inbox, servers: Callable[..., Server]) -> None:
    """Both processes watch the game; the owner sends the email and the push under one
    compare-and-set in the database: over three waits, three of each; both processes sign with
    the same VAPID key."""
    url = cluster().database(f"push_{uuid.uuid4().hex[:12]}")
    flags = mail_flags(inbox)[:6]  # (the mail server, sender, public URL)
    a = servers(service, *flags, db_url=url)
    b = servers(service, *flags, db_url=url)
    bea = service.browser("bea")
    with httpx.Client(base_url=a.url, timeout=10) as api_a, \
            httpx.Client(base_url=b.url, timeout=10) as api_b:
        key = api_a.get("/api/notices").json()["push_key"]
        assert api_b.get("/api/notices").json() == {"push_key": key, "mail": True}
        gid, tokens = two_seats(api_a)
        assert subscribe(api_b, gid, 1, tokens[1], bea).status_code == 200
        r = api_a.post(f"/api/games/{gid}/seats/1/notify", json={"email": "bea@example.org"},
                       headers=auth(tokens[1]))
        assert r.status_code == 200
        confirm(api_b, inbox, "bea@example.org")
        watchers = [WsClient(s.url, gid) for s in (a, b)]  # spectators on both processes
        for n in (1, 2, 3):
            play_until(api_a if n % 2 else api_b, gid, tokens, 1)
            inbox.wait(n)
            push = service.wait("bea", n)[-1]
            check_vapid(push, key, service)
            assert bea.read(push)["game"] == gid
            with WsClient(b.url if n % 2 else a.url, gid, [tokens[1]]):  # she comes back
                play_until(api_a, gid, tokens, 0)
        service.stays("bea", 3)
        assert len(inbox.messages) == 3
        for w in watchers:
            w.close()
