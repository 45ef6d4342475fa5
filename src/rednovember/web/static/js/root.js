// The sub-path the server is served under ("" or e.g. "/rn", `rednovember serve --root-path`):
// the server writes it into <html data-root>. Every URL the front-end builds goes through url();
// the router reads the page's path through appPath().

export const ROOT = (globalThis.document?.documentElement?.dataset?.root || "").replace(/\/+$/, "");

// An app path ("/api/games", "/g/abc") as a URL path under the root.
export function url(path) {
  return ROOT + path;
}

// The full address of an app path, for links shared with others (and QR codes).
export function absoluteUrl(path) {
  return location.origin + url(path);
}

// The WebSocket address of an app path on this page's host.
export function wsUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${url(path)}`;
}

// A URL path (by default the page's) without the root: what the router matches.
export function appPath(pathname = location.pathname) {
  if (!ROOT) return pathname;
  if (pathname === ROOT) return "/";
  return pathname.startsWith(ROOT + "/") ? pathname.slice(ROOT.length) : pathname;
}
