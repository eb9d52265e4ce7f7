/* The live table: card selection, countdown, stale-message check.
 *
 * Selected cards are kept by code and occurrence (a four-deck hand holds
 * equal cards) and re-applied after every swap of #table, so a move by
 * another player does not lose the selection.  #cards-input (outside the
 * table) carries the space-separated codes POSTed with "play".
 */
/* Pushed tables are morphed, not replaced (the largest-paint fix):
 * the pushed #table says hx-swap-oob="morph" and the table's buttons
 * hx-swap="morph", and idiomorph (static/vendor/idiomorph-ext.min.js, htmx's
 * "morph" extension, enabled on #table itself: on #table-ws it would take the
 * chat's beforeend swaps for its own) turns the page's table into the new
 * one keeping its elements, which take the new attributes and text.  What the
 * page itself added or chose is kept through a morph: an element marked
 * data-morph-keep (table_ui.js's hand tools bar) and the fan's strip width
 * (below); what the viewer chose (whether a <details> is open, a control
 * they changed) by static/games/morph.js, the rules every morphed page
 * shares, which the room page loads too.  Each script asks a rule set before
 * it first, so the two compose in either order.
 *
 * A push carries only the regions of the table that changed (games/render/regions.py): an unchanged one comes as a stub,
 * <tag id="…" data-keep="HASH"></tag>, and the morph keeps the page's element
 * (every region says its own hash in data-h).  Before such a push is applied,
 * each stub's element must be on the page with that hash; if one is not (a
 * POST answer or a dropped push changed it), the push is dropped and the
 * socket asked for the whole table (#table-full, {"full": "1"}).
 */
(function () {
  "use strict";
  if (!window.Idiomorph) return;
  var callbacks = window.Idiomorph.defaults.callbacks;
  callbacks.beforeNodeMorphed = function (oldNode, newNode) {
    return !(newNode.nodeType === 1 && newNode.hasAttribute("data-keep"));
  };
  callbacks.beforeNodeRemoved = function (node) {
    return !(node.hasAttribute && node.hasAttribute("data-morph-keep"));
  };
  var before = callbacks.beforeAttributeUpdated;  // morph.js's, if it ran first
  callbacks.beforeAttributeUpdated = function (name, element, mutation) {
    if (before && before(name, element, mutation) === false) return false;
    // the fan's strip width and rows (table_ui.js; the server never sends
    // them): removed, the hand of 52 cards would be laid out and painted
    // twice per push (the page audit)
    return !(mutation === "remove" && element.id === "my-hand" && (name === "style" || name === "data-rows"));
  };
})();

(function () {
  "use strict";
  // Selected cards by code, element and copies: [{code, nth, n}], nth the
  // element's place among the hand's elements of that code (a card marked to bury is
  // its own element), n how many of its copies (a stack of identical cards,
  // data-count, is one element: four decks hold up to four; each tap takes
  // one more copy, the tap after the last puts them all back).  Re-applied
  // after every swap of #table, so a move by another player does not lose
  // the selection.
  var selected = [];
  var clockOffset = 0;  // server time - browser time, ms

  function cardsInput() { return document.getElementById("cards-input"); }
  function handCards() { return document.querySelectorAll(".my-hand [data-card]"); }
  function copies(btn) { return parseInt(btn.getAttribute("data-count") || "1", 10) || 1; }

  function keyOf(btn) {
    var code = btn.getAttribute("data-card");
    var nth = 0, all = document.querySelectorAll('#my-hand [data-card], .my-hand [data-card]');
    for (var i = 0; i < all.length; i++) {
      if (all[i] === btn) break;
      if (all[i].getAttribute("data-card") === code) nth++;
    }
    return {code: code, nth: nth};
  }
  function find(code, nth) {
    for (var i = 0; i < selected.length; i++) if (selected[i].code === code && selected[i].nth === nth) return i;
    return -1;
  }

  // the codes POSTed with a card verb: each copy once, in the hand's order
  function sync() {
    var input = cardsInput();
    if (!input) return;
    var codes = [], seen = {}, all = handCards();
    for (var i = 0; i < all.length; i++) {
      var code = all[i].getAttribute("data-card"), nth = seen[code] || 0;
      seen[code] = nth + 1;
      var k = find(code, nth);
      for (var j = 0; k >= 0 && j < selected[k].n; j++) codes.push(code);
    }
    input.value = codes.join(" ");
  }

  function reapply() {
    var seen = {}, keep = [];
    var all = handCards();
    for (var i = 0; i < all.length; i++) {
      var code = all[i].getAttribute("data-card");
      var nth = seen[code] || 0;
      seen[code] = nth + 1;
      var k = find(code, nth), n = k >= 0 ? Math.min(selected[k].n, copies(all[i])) : 0;
      all[i].classList.toggle("selected", n > 0);
      all[i].setAttribute("aria-pressed", n > 0 ? "true" : "false");
      if (n > 0 && copies(all[i]) > 1) all[i].setAttribute("data-sel", n); else all[i].removeAttribute("data-sel");
      if (n > 0) keep.push({code: code, nth: nth, n: n});
    }
    selected = keep;
    sync();
  }

  // 提示: select the suggested cards (data-hint, from the server's C5 move):
  // each code's copies taken from its elements in the hand's order.
  document.addEventListener("click", function (ev) {
    var hint = ev.target.closest && ev.target.closest("[data-action=hint]");
    if (!hint) return;
    var want = {};
    (hint.getAttribute("data-hint") || "").split(" ").filter(Boolean).forEach(function (code) {
      want[code] = (want[code] || 0) + 1;
    });
    var seen = {}, all = handCards();
    selected = [];
    for (var i = 0; i < all.length; i++) {
      var code = all[i].getAttribute("data-card"), nth = seen[code] || 0;
      seen[code] = nth + 1;
      var n = Math.min(want[code] || 0, copies(all[i]));
      if (n > 0) { selected.push({code: code, nth: nth, n: n}); want[code] -= n; }
    }
    reapply();
  });

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest(".my-hand [data-card]");
    if (!btn) return;
    var k = keyOf(btn), idx = find(k.code, k.nth);
    var n = ((idx >= 0 ? selected[idx].n : 0) + 1) % (copies(btn) + 1);
    if (idx >= 0) selected.splice(idx, 1);
    if (n > 0) selected.push({code: k.code, nth: k.nth, n: n});
    reapply();
  });

  function tableVersion(root) {
    var t = (root || document).querySelector("#table");
    return t ? parseInt(t.getAttribute("data-version") || "0", 10) : -1;
  }

  // The previous hand's result and any <details data-keep-open id=…> (e.g. a
  // game's previous round) stay open across table swaps.  Not the morph's
  // rule (static/games/morph.js keeps a <details>' open attribute while
  // idiomorph morphs it, on every morphed page): this one remembers the
  // viewer's choice by id and re-opens the element after any swap, for the
  // two cases no morph callback sees: a table replaced whole (the outerHTML
  // swap of a POST answer whose button left the page, below) and a block
  // that left the table and comes back as a new, closed element (the
  // previous round, gone between hands, back after the next hand's first
  // round).
  var keptOpen = {};
  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (d && d.id && (d.id === "last-result" || (d.hasAttribute && d.hasAttribute("data-keep-open")))) {
      keptOpen[d.id] = d.open;
      // tapped just before a push replaced it: the table on screen follows
      var cur = document.getElementById(d.id);
      if (cur && cur !== d && cur.open !== d.open) cur.open = d.open;
    }
  }, true);

  // The tap itself says what it opens: its toggle event comes a moment later
  // and, when a push replaced the table meanwhile, fires on the old table,
  // out of the document, where the listener above never hears it.
  document.addEventListener("click", function (ev) {
    var s = ev.target.closest && ev.target.closest("summary");
    var d = s && s.parentElement;
    if (d && d.tagName === "DETAILS" && d.id && d.querySelector("summary") === s &&
        (d.id === "last-result" || d.hasAttribute("data-keep-open"))) {
      keptOpen[d.id] = !d.open;
    }
  }, true);

  function afterTableSwap() {
    Object.keys(keptOpen).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && keptOpen[id] && !d.open) d.open = true;
    });
    // the server's clock at the render (on the root: a region kept by a
    // push would carry an old one)
    var root = document.getElementById("table");
    var serverNow = root ? parseInt(root.getAttribute("data-server-now") || "0", 10) : 0;
    if (serverNow) clockOffset = serverNow - Date.now();
    reapply();
    tick();
  }

  // A websocket message older than what is shown (a POST answer overtook it) is dropped.
  // A refusal shown next to the cards (#act-msg, inside #table) survives a
  // pushed table of the same hand and action count (nothing was played).
  var keptMsg = null;
  function tableKey(root) {
    var t = (root || document).querySelector ? (root || document).querySelector("#table") : null;
    return t ? (t.getAttribute("data-hand") || "") + ":" + (t.getAttribute("data-actions") || "") : "";
  }
  // A stub stands for an element the page must have as it is (data-h).
  var STUB = /<([a-z][a-z0-9]*) id="([^"]+)" data-keep="([0-9a-f]+)"><\/\1>/g;
  function stubsHold(message) {
    STUB.lastIndex = 0;
    for (var m = STUB.exec(message); m; m = STUB.exec(message)) {
      var el = document.getElementById(m[2]);
      if (!el || el.getAttribute("data-h") !== m[3]) return false;
    }
    return true;
  }
  document.addEventListener("htmx:wsBeforeMessage", function (ev) {
    var m = /data-version="(\d+)"/.exec(ev.detail.message || "");
    if (m && document.getElementById("table") && parseInt(m[1], 10) < tableVersion()) {
      ev.preventDefault();
      return;
    }
    if (m && !stubsHold(ev.detail.message)) {
      ev.preventDefault();
      var full = document.getElementById("table-full");
      if (full && window.htmx) window.htmx.trigger(full, "submit");
      return;
    }
    var msg = document.getElementById("act-msg");
    keptMsg = msg && msg.innerHTML.trim() ? {html: msg.innerHTML, error: msg.classList.contains("error"), key: tableKey()} : null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var msg = document.getElementById("act-msg");
    if (keptMsg && msg && !msg.innerHTML.trim() && keptMsg.key === tableKey()) {
      msg.innerHTML = keptMsg.html;
      msg.classList.toggle("error", keptMsg.error);
    }
    keptMsg = null;
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

  // A POST answer no newer than the table shown (the websocket was faster) is not swapped in.
  // A newer one whose button a push took off the page meanwhile replaces the
  // table: htmx finds the swap's extensions (the morph) from that button, and a
  // button out of the page has none.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr, target = ev.detail.target;
    if (!xhr || !target || target.id !== "table") return;
    var m = /data-version="(\d+)"/.exec(xhr.responseText || "");
    if (m && parseInt(m[1], 10) <= tableVersion()) {
      ev.detail.shouldSwap = false;
      // the request succeeded: clear an earlier refusal as the answer's oob part would
      var msg = document.getElementById("act-msg");
      if (msg && xhr.status < 300) { msg.textContent = ""; msg.classList.remove("error"); }
      return;
    }
    var elt = ev.detail.requestConfig && ev.detail.requestConfig.elt;
    if (elt && !elt.isConnected) ev.detail.swapOverride = "outerHTML";
  });

  function tick() {
    // the board's #countdown and the timer on the seat to act (.seat-timer)
    var all = document.querySelectorAll("#countdown, .seat-timer[data-deadline], .next-countdown[data-deadline]");
    for (var i = 0; i < all.length; i++) {
      var cd = all[i];
      var deadline = parseInt(cd.getAttribute("data-deadline") || "0", 10);
      // a seat's pill holds the figure only: its unit is ring.css's
      // (::after), which a phone's narrow seat leaves out ("578", not "578s")
      var unit = cd.classList.contains("seat-timer") ? "" : "s";
      // written only when it changes (once a second, not at each tick): a
      // text node replaced is a layout of the page (the page audit)
      var text = deadline ? Math.max(0, Math.ceil((deadline - (Date.now() + clockOffset)) / 1000)) + unit : "";
      if (cd.textContent !== text) cd.textContent = text;
      if (!deadline) continue;
      var left = parseInt(text, 10);
      // a bot (or 托管 seat) moves at the room's pace: never shown as urgent
      cd.classList.toggle("urgent", left <= 5 && !cd.classList.contains("auto"));
    }
  }

  // ---- confirmation dialog (<dialog>, works on phones) for 离座 / 关闭房间
  function ask(question, okLabel, then) {
    var dlg = document.getElementById("confirm-dialog");
    if (!dlg || typeof dlg.showModal !== "function") { if (window.confirm(question)) then(); return; }
    dlg.querySelector("#confirm-text").textContent = question;
    var ok = dlg.querySelector("[data-action=confirm-ok]");
    ok.dataset.label = ok.dataset.label || ok.textContent;
    ok.textContent = okLabel || ok.dataset.label;
    dlg.returnValue = "";
    dlg.addEventListener("close", function onClose() {
      dlg.removeEventListener("close", onClose);
      if (dlg.returnValue === "ok") then();
    });
    dlg.showModal();
  }
  document.addEventListener("htmx:confirm", function (ev) {
    if (!ev.detail.question) return;
    ev.preventDefault();
    var elt = ev.detail.elt;
    ask(ev.detail.question, elt && elt.getAttribute("data-confirm-ok"), function () { ev.detail.issueRequest(true); });
  });
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("form[data-confirm]")) return;
    ev.preventDefault();
    ask(form.getAttribute("data-confirm"), form.getAttribute("data-confirm-ok"), function () { form.submit(); });
  });

  // ---- connection state: "reconnecting…" while the websocket is down
  var everOpen = false;
  function setOnline(online) {
    var el = document.getElementById("conn-state");
    document.body.classList.toggle("offline", !online);
    if (!el) return;
    el.hidden = online;
    el.textContent = online ? "" : el.getAttribute("data-offline");
  }
  document.addEventListener("htmx:wsOpen", function () { everOpen = true; setOnline(true); });
  document.addEventListener("htmx:wsClose", function () { if (everOpen) setOnline(false); });
  document.addEventListener("htmx:wsError", function () { if (everOpen) setOnline(false); });
  window.addEventListener("offline", function () { setOnline(false); });

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", afterTableSwap);
})();

/* Table chat: lines arrive over the table's websocket; the input
 * clears after sending; the newest line stays in view; 屏蔽 mutes a user. */
(function () {
  "use strict";
  document.addEventListener("htmx:wsAfterSend", function (ev) {
    var form = ev.detail && ev.detail.elt && ev.detail.elt.closest ? ev.detail.elt.closest("#chat-form") : null;
    var input = document.getElementById("chat-input");
    if (form && input) input.value = "";
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var log = document.getElementById("chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  });
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest("[data-action=chat-mute]");
    if (!btn) return;
    var user = btn.getAttribute("data-mute-user");
    var form = document.getElementById("chat-mute-form");
    if (!form) return;
    form.querySelector("input[name=mute]").value = user;
    htmx.trigger(form, "submit");
    var lines = document.querySelectorAll('#chat-log [data-chat-user="' + user + '"]');
    for (var i = 0; i < lines.length; i++) lines[i].remove();
  });
})();

/* Going on when the room closes: a room page may name where its seated
 * player goes next (#follow-notice, e.g. an arena's next table).  When a
 * push shows the table closed while the page is open, the notice counts
 * data-seconds down and then goes there; "stay" stops it.  A closed table's
 * page no longer offers its owner "close the room". */
(function () {
  "use strict";
  var last = null, timer = null;
  function status() {
    var t = document.getElementById("table");
    return t ? t.getAttribute("data-status") : null;
  }
  function start(note) {
    var left = parseInt(note.getAttribute("data-seconds"), 10) || 10;
    var count = document.getElementById("follow-count");
    note.hidden = false;
    timer = setInterval(function () {
      left -= 1;
      if (count) count.textContent = String(Math.max(0, left));
      if (left <= 0) {
        clearInterval(timer);
        window.location.assign(note.getAttribute("data-url"));
      }
    }, 1000);
  }
  document.addEventListener("DOMContentLoaded", function () { last = status(); });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var now = status(), note = document.getElementById("follow-notice");
    if (note && now === "closed" && last !== null && last !== "closed" && timer === null) start(note);
    if (now === "closed") {
      // the page's head is not pushed: its owner's "close the room" goes with the table
      var forms = document.querySelectorAll(".close-room");
      for (var i = 0; i < forms.length; i++) forms[i].hidden = true;
    }
    if (now) last = now;
  });
  document.addEventListener("click", function (ev) {
    var stay = ev.target.closest && ev.target.closest("[data-action=follow-stay]");
    if (!stay) return;
    if (timer !== null) clearInterval(timer);
    var note = document.getElementById("follow-notice");
    if (note) note.hidden = true;
  });
})();
