"""A game's WebSocket (docs/protocol.md §4): the loop that reads a connection's messages (``hello``
first, within :data:`HELLO_TIMEOUT`; each one counted against the connection's limit and its
client's in this process) and
:func:`handle`, which answers one message through the hub and never raises."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable
from typing import Any

from fastapi import WebSocket
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from .hub import Connection, Hub, LiveGame
from .protocol import ProtocolError, decode, request_id, validate

log = logging.getLogger("rednovember.web")

HELLO_TIMEOUT = 10.0


async def send_close(ws: WebSocket, msg: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(msg))
    with contextlib.suppress(Exception):
        await ws.close(code)


async def serve_socket(hub: Hub, lg: LiveGame, ws: WebSocket, conn: Connection,
                        writer: asyncio.Task[None]) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HELLO_TIMEOUT
    while conn.close_code is None and not writer.done():
        receive: Awaitable[Message] = ws.receive()
        raw: Message | None
        try:
            if not conn.hello:
                raw = await asyncio.wait_for(receive, max(0.01, deadline - loop.time()))
            else:
                raw = await _receive_or_writer_done(receive, writer)
        except TimeoutError:
            conn.close_code = 4000
            conn.push_obj({"type": "error", "code": "bad_message",
                           "message": f"send 'hello' within {HELLO_TIMEOUT:.0f} s"})
            conn.outbox.put_nowait(None)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if raw is None or raw["type"] == "websocket.disconnect":
            return
        text = raw.get("text")
        if text is None:
            text = raw.get("bytes") or b""
        try:
            conn.limit.check("")
            conn.client_limit.check(conn.client)
        except ProtocolError as exc:
            conn.push_obj({"type": "error", "id": _id_of(text), **exc.to_dict()})
            continue
        await handle(hub, lg, conn, text)


def _id_of(text: str | bytes) -> str | int | None:
    """The request id of a message, if it has a readable one."""
    try:
        return request_id(decode(text))
    except ProtocolError:
        return None


async def _receive_or_writer_done(receive: Awaitable[Message],
                                  writer: asyncio.Task[None]) -> Message | None:
    recv = asyncio.ensure_future(receive)
    done, _ = await asyncio.wait({recv, writer}, return_when=asyncio.FIRST_COMPLETED)
    if recv in done:
        return recv.result()
    recv.cancel()
    with contextlib.suppress(BaseException):
        await recv
    return None


async def handle(hub: Hub, lg: LiveGame, conn: Connection, text: str | bytes) -> None:
    """One client message. Never raises: every refusal is an ``error`` message to the client."""
    rid: str | int | None = None
    ref: str | None = None
    try:
        raw = decode(text)
        rid = request_id(raw)
        ref = raw.get("type") if isinstance(raw.get("type"), str) else None
        if ref is not None and len(ref) > 40:
            ref = ref[:40]
        msg = validate(raw)
        if msg.type == "hello":
            await hub.hello(lg, conn, msg.tokens, msg.creator)
            return
        if not conn.hello:
            raise ProtocolError("bad_message", "send 'hello' first")
        if msg.type == "ping" and msg.target is None:  # a keep-alive (with a target: a board ping)
            conn.push_obj({"type": "pong", "id": rid})
            return
        if msg.type == "sync":
            hub.send_states(lg, conn)
            return
        if msg.type == "rematch":
            # a player whose seat a bot plays (and who may take it back) may ask too
            nxt = await hub.rematch(lg, lg.held_seats(conn) | lg.owned_seats(conn), conn.creator,
                                    conn.client)
            conn.push_obj({"type": "ack", "id": rid, "ref": msg.type, "version": lg.version,
                           "next": nxt.id})
            return
        assert msg.seat is not None
        if msg.type == "hint":  # answered later, to this connection alone (web/hub/hints.py)
            hub.hints.start(lg, conn, msg.seat, rid)
            return
        if msg.type == "act":
            assert msg.action is not None
            await hub.act(lg, hub.held_seat(lg, conn, msg.seat), msg.action, msg.version)
        elif msg.type == "undo":
            await hub.undo(lg, hub.held_seat(lg, conn, msg.seat), msg.version)
        elif msg.type == "chat":
            assert msg.text is not None
            await hub.chat(lg, conn, msg.seat, msg.text)
        elif msg.type == "ping":
            assert msg.target is not None and msg.what is not None
            await hub.ping(lg, conn, msg.seat, msg.target, msg.what)
        elif msg.type == "bot":
            assert msg.bot is not None
            by = lg.held_seats(conn)
            await hub.hand_to_bot(lg, msg.seat, msg.bot, by, conn.creator)
        elif msg.type == "reclaim":
            assert msg.token is not None
            await hub.reclaim(lg, msg.seat, msg.token, msg.name)
        conn.push_obj({"type": "ack", "id": rid, "ref": msg.type, "version": lg.version})
    except ProtocolError as exc:
        conn.push_obj({"type": "error", **exc.to_dict(), "id": rid, "ref": ref})
        if ref == "hello" and exc.code == "rate_limited" and not conn.hello:
            conn.close_code = 4429  # one spectator too many: the socket closes (4429)
            conn.outbox.put_nowait(None)
    except Exception:
        log.exception("message handling failed in game %s", lg.id)
        conn.push_obj({"type": "error", "code": "internal",
                       "message": "internal error; nothing changed", "id": rid, "ref": ref})


__all__ = ["HELLO_TIMEOUT", "handle", "send_close", "serve_socket"]
