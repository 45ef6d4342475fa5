"""``python -m rednovember.web.openapi [FILE]``: writes the HTTP API's published document
(docs/openapi.json keeps a copy; a test checks it is current, and tests/web/test_openapi_live.py
runs Schemathesis against it). What it declares: web/responses.py."""

from __future__ import annotations

import json
import sys

from .app import create_app


def openapi_text() -> str:
    return json.dumps(create_app("sqlite://").openapi(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = openapi_text()
    if args:
        with open(args[0], "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
