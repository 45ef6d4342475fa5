"""Draws the installed app's icons (issue 20 §4) from the favicon (static/img/favicon.svg) with
Debian's Chromium: icon-192.png and icon-512.png (the favicon as it is) and icon-maskable-512.png
(the submarine inside the central safe circle of a full-bleed square, for launchers that cut the
icon to their own shape). Run it after changing the favicon, and commit the PNGs:

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parents[1] / "src" / "rednovember" / "web" / "static" / "img"
CHROMIUM = os.environ.get("RN_CHROMIUM", "/usr/bin/chromium")
BACKGROUND = "#0b2236"  # the favicon's own background


def page(svg: str, size: int, maskable: bool) -> str:
    if maskable:  # the drawing at 70 %: inside the safe circle (80 % of the side) on any mask
        inner = int(size * 0.7)
        body = (f"<div style='width:{size}px;height:{size}px;background:{BACKGROUND};display:flex;"
                f"align-items:center;justify-content:center'><img src='data:image/svg+xml;utf8,"
                f"{svg}' width='{inner}' height='{inner}'></div>")
    else:
        body = f"<img src='data:image/svg+xml;utf8,{svg}' width='{size}' height='{size}'>"
    return f"<html><body style='margin:0;background:transparent'>{body}</body></html>"


def main() -> None:
    svg = (IMG / "favicon.svg").read_text(encoding="utf-8").strip().replace("#", "%23")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox"])
        for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                     ("icon-maskable-512.png", 512, True)):
            tab = browser.new_page(viewport={"width": size, "height": size})
            tab.set_content(page(svg.replace("rx=\"7\" ", "") if maskable else svg, size, maskable))
            tab.locator("img").evaluate("img => img.decode()")
            tab.screenshot(path=str(IMG / name), omit_background=True,
                           clip={"x": 0, "y": 0, "width": size, "height": size})
            tab.close()
            print(IMG / name)
        browser.close()


if __name__ == "__main__":
    main()
