// One page view's life (lobby, game, replay, learn): everything a page sets up outside its own
// elements (listeners on #app, document or window; its WebSocket; timers; observers) is tied to
// it and ends when the page is left, so a page never acts after the next one has started
// (issue 18: after a Rematch the old game page's handlers disabled the new game's buttons).
//
//   this.life = new PageLife();
//   this.life.listen(document, "keydown", fn);     // removed when the page ends
//   this.life.onEnd(() => socket.close());         // run when the page ends
//   if (this.life.ended) return;                   // after an await: the page may be gone

export class PageLife {
  constructor() {
    this.ctrl = new AbortController();
    this.ends = [];
  }

  get signal() { return this.ctrl.signal; }

  get ended() { return this.ctrl.signal.aborted; }

  // addEventListener, removed when the page ends (the options' signal).
  listen(target, type, fn, options = {}) {
    if (this.ended) return;
    target.addEventListener(type, fn, { ...(typeof options === "boolean" ? { capture: options } : options), signal: this.signal });
  }

  onEnd(fn) {
    if (this.ended) fn();
    else this.ends.push(fn);
  }

  end() {
    if (this.ended) return;
    this.ctrl.abort();
    for (const fn of this.ends.splice(0).reverse()) {
      try { fn(); } catch (e) { console.error(e); }
    }
  }
}
