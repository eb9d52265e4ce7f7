/* The live table: card selection, countdown, stale-message guard.
 *
 * Selected cards are kept by code and occurrence (a four-deck hand holds
 * equal cards) and re-applied after every swap of #table, so a move by
 * another player does not lose the selection.  #cards-input (outside the
 * table) carries the space-separated codes POSTed with "play".
 */
(function () {
  "use strict";
  var selected = [];  // [{code, nth}]
  var clockOffset = 0;  // server time - browser time, ms

  function cardsInput() { return document.getElementById("cards-input"); }

  function keyOf(btn) {
    var code = btn.getAttribute("data-card");
    var nth = 0, all = document.querySelectorAll('#my-hand [data-card], .my-hand [data-card]');
    for (var i = 0; i < all.length; i++) {
      if (all[i] === btn) break;
      if (all[i].getAttribute("data-card") === code) nth++;
    }
    return {code: code, nth: nth};
  }

  function sync() {
    var input = cardsInput();
    if (input) input.value = selected.map(function (s) { return s.code; }).join(" ");
  }

  function reapply() {
    var seen = {}, keep = [];
    var all = document.querySelectorAll(".my-hand [data-card]");
    for (var i = 0; i < all.length; i++) {
      var code = all[i].getAttribute("data-card");
      var nth = seen[code] || 0;
      seen[code] = nth + 1;
      var on = selected.some(function (s) { return s.code === code && s.nth === nth; });
      all[i].classList.toggle("selected", on);
      all[i].setAttribute("aria-pressed", on ? "true" : "false");
      if (on) keep.push({code: code, nth: nth});
    }
    selected = keep;
    sync();
  }

  // 提示: select the suggested cards (data-hint, from the server's C5 move).
  document.addEventListener("click", function (ev) {
    var hint = ev.target.closest && ev.target.closest("[data-action=hint]");
    if (!hint) return;
    var want = (hint.getAttribute("data-hint") || "").split(" ").filter(Boolean);
    var seen = {};
    selected = want.map(function (code) {
      var nth = seen[code] || 0; seen[code] = nth + 1;
      return {code: code, nth: nth};
    });
    reapply();
  });

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest(".my-hand [data-card]");
    if (!btn) return;
    var k = keyOf(btn);
    var idx = selected.findIndex(function (s) { return s.code === k.code && s.nth === k.nth; });
    if (idx >= 0) selected.splice(idx, 1); else selected.push(k);
    reapply();
  });

  function tableVersion(root) {
    var t = (root || document).querySelector("#table");
    return t ? parseInt(t.getAttribute("data-version") || "0", 10) : -1;
  }

  // The previous hand's result (<details>) stays open across table swaps.
  var lastResultOpen = false;
  document.addEventListener("toggle", function (ev) {
    if (ev.target && ev.target.id === "last-result") lastResultOpen = ev.target.open;
  }, true);

  function afterTableSwap() {
    var lr = document.getElementById("last-result");
    if (lr && lastResultOpen) lr.open = true;
    var cd = document.getElementById("countdown");
    if (cd) {
      var serverNow = parseInt(cd.getAttribute("data-server-now") || "0", 10);
      if (serverNow) clockOffset = serverNow - Date.now();
    }
    reapply();
    tick();
  }

  // A websocket message older than what is shown (a POST answer overtook it) is dropped.
  document.addEventListener("htmx:wsBeforeMessage", function (ev) {
    var m = /data-version="(\d+)"/.exec(ev.detail.message || "");
    if (m && document.getElementById("table") && parseInt(m[1], 10) < tableVersion()) {
      ev.preventDefault();
    }
  });
  document.addEventListener("htmx:wsAfterMessage", afterTableSwap);
  document.addEventListener("htmx:afterSwap", afterTableSwap);
  document.addEventListener("htmx:oobAfterSwap", afterTableSwap);

  // A play (bid, bury) in flight: its cards leave the selection at once (the
  // websocket may show the new hand before the POST answers, and a remaining
  // copy of a played card must not light up); a refusal gives them back.
  var CARD_POSTS = ["play", "bid", "bury"];
  var pending = null;
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var el = ev.detail.elt;
    var verb = el && el.getAttribute && el.getAttribute("data-action");
    if (CARD_POSTS.indexOf(verb) >= 0) { pending = selected; selected = []; }
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    var el = ev.detail.elt;
    var verb = el && el.getAttribute && el.getAttribute("data-action");
    if (CARD_POSTS.indexOf(verb) < 0) return;
    var accepted = ev.detail.successful && ev.detail.xhr && ev.detail.xhr.status < 300;
    if (!accepted && pending) selected = pending;
    pending = null;
    reapply();
  });

  // A POST answer older than the table shown (the websocket was faster) is not swapped in.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr, target = ev.detail.target;
    if (!xhr || !target || target.id !== "table") return;
    var m = /data-version="(\d+)"/.exec(xhr.responseText || "");
    if (m && parseInt(m[1], 10) < tableVersion()) {
      ev.detail.shouldSwap = false;
      // the request succeeded: clear an earlier refusal as the answer's oob part would
      var msg = document.getElementById("act-msg");
      if (msg && xhr.status < 300) { msg.textContent = ""; msg.classList.remove("error"); }
    }
  });

  function tick() {
    var cd = document.getElementById("countdown");
    if (!cd) return;
    var deadline = parseInt(cd.getAttribute("data-deadline") || "0", 10);
    if (!deadline) { cd.textContent = ""; return; }
    var left = Math.max(0, Math.ceil((deadline - (Date.now() + clockOffset)) / 1000));
    cd.textContent = left + "s";
    cd.classList.toggle("urgent", left <= 5);
  }
  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", afterTableSwap);
})();
