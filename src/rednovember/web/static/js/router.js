// Moving between pages without a reload: a page asks for a path, and the entry point (app.js),
// which knows the pages, shows it. Kept apart so that no page imports the entry point.

import { url } from "./root.js";

let show = () => {};

// The entry point's router (called once at start).
export function onNavigate(fn) {
  show = fn;
}

export function navigate(path) {
  history.pushState({}, "", url(path));
  show();
}
