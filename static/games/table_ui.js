/* The table's comforts:
 *
 * - turn alerts: when #table says data-my-turn, the tab title gets a "▶"
 *   and the favicon a red dot; an optional sound (static/games/sounds/
 *   turn.wav, off unless the player ticks it; remembered) and a short
 *   vibration where the browser allows it;
 * - the buttons' row scrolled onto a short screen when a decision comes;
 * - hand tools (inserted above #my-hand after every swap): sort by suit
 *   (cards the server marks data-suit-of="T" and jokers first) or by rank
 *   (equal ranks together, ranks in the server's own order), remembered per
 *   game; "clear selection";
 * - drag-select: press on a card and slide across others to select (or
 *   unselect) them all; a tap still toggles one card;
 * - a seat's name cut with "…" (ring.css) shows whole on a tap.
 *
 * Selection itself lives in table.js (and a game's own script): this file
 * only clicks cards, so both keep their own bookkeeping.
 */
(function () {
  "use strict";
  var baseTitle = document.title;
  var wasMyTurn = false;
  var store = window.localStorage || {getItem: function () { return null; }, setItem: function () {}};

  function table() { return document.getElementById("table"); }
  function game() { var t = table(); var m = t && /game-(\w+)/.exec(t.className); return m ? m[1] : ""; }

  // ---- favicon / title / sound / vibration
  function favicon(on) {
    var link = document.querySelector("link[rel=icon]");
    if (!link) return;
    link.href = on
      ? "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#b3261e"/></svg>')
      : "data:,";
  }
  function turnAlert() {
    var t = table();
    var mine = !!(t && t.getAttribute("data-my-turn"));
    if (mine && !wasMyTurn) {
      document.title = "▶ " + baseTitle;
      favicon(true);
      if (store.getItem("cardroom.turnSound") === "1") {
        var a = document.getElementById("turn-sound");
        if (a && a.play) { try { var p = a.play(); if (p && p.catch) p.catch(function () {}); } catch (e) { /* autoplay refused */ } }
      }
      // (only after the player has touched the page: before that Chromium refuses it with a console error)
      var touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (navigator.vibrate && touched) { try { navigator.vibrate(150); } catch (e) { /* not allowed */ } }
    } else if (!mine && wasMyTurn) {
      document.title = baseTitle;
      favicon(false);
    }
    wasMyTurn = mine;
  }

  // The buttons' row on screen when a decision comes to the viewer (session
  // 20): on a phone whose browser bars leave a short screen (640-667 px
  // upright, 340 sideways) the play button lay below the fold.  When the
  // row gets its buttons (the page opened, or a push that brought the
  // viewer's turn), and again when the player takes over from 托管, the page
  // scrolls down just enough to show the whole row, never so far that the
  // hand's top or a notice's (托管 and its 接管) leaves the screen, and only
  // when the row is below the fold: a player who scrolled past it (to the
  // chat, the score sheet) is left where he is.
  var buttonsState = "";
  function buttonsInView() {
    var row = document.querySelector("#table [data-region='actions']");
    var has = !!(row && row.querySelector("button[hx-post]") && row.getClientRects().length);
    var notice = document.querySelector("#table > .notice");
    var state = has ? (notice ? "notice" : "free") : "";
    var came = state && state !== buttonsState;
    buttonsState = state;
    if (!came) return;
    var r = row.getBoundingClientRect(), vh = window.innerHeight;
    if (r.bottom <= vh || r.top < 0) return;
    var by = r.bottom - vh + 6;
    [document.getElementById("my-hand"), notice].forEach(function (e) {
      if (e && e.getClientRects().length) by = Math.min(by, e.getBoundingClientRect().top - 4);
    });
    if (by > 0) window.scrollBy(0, by);
  }

  // ---- sorting
  function rankOf(code) { var base = code.replace("*", ""); return base === "SJ" || base === "BJ" ? code : base.slice(0, -1); }
  var SUITS = "SHCD";
  function suitValue(btn) {
    var code = btn.getAttribute("data-card");
    var of = btn.getAttribute("data-suit-of");
    if (of === "T" || code === "SJ" || code === "BJ" || code.indexOf("J*") >= 0) return -1;  // marked by the server, jokers: first
    return SUITS.indexOf(code.replace("*", "").slice(-1));
  }
  function sortHand() {
    var hand = document.getElementById("my-hand");
    if (!hand) return;
    var mode = store.getItem("cardroom.sort." + game()) || "";
    var cards = Array.prototype.slice.call(hand.querySelectorAll("[data-card]"));
    cards.forEach(function (c, i) { if (!c.hasAttribute("data-order")) c.setAttribute("data-order", i); });
    // a rank's place: where its first card stands in the server's order
    var firstOf = {};
    cards.forEach(function (c) {
      var r = rankOf(c.getAttribute("data-card")), o = parseInt(c.getAttribute("data-order"), 10);
      if (!(r in firstOf) || o < firstOf[r]) firstOf[r] = o;
    });
    var key = function (c) {
      var order = parseInt(c.getAttribute("data-order"), 10);
      if (mode === "suit") return [suitValue(c), order];
      if (mode === "rank") return [firstOf[rankOf(c.getAttribute("data-card"))], order];
      return [order, 0];
    };
    cards.sort(function (a, b) {
      var ka = key(a), kb = key(b);
      return ka[0] - kb[0] || ka[1] - kb[1];
    });
    // moved only when out of order: 52 cards appended again are a style,
    // layout and paint of the whole hand at each push
    var inOrder = Array.prototype.every.call(hand.querySelectorAll("[data-card]"), function (c, i) { return c === cards[i]; });
    if (!inOrder) cards.forEach(function (c) { hand.appendChild(c); });
  }

  // ---- hand tools bar
  function tools() {
    var hand = document.getElementById("my-hand");
    var tpl = document.getElementById("hand-tools-tpl");
    var bar = document.getElementById("hand-tools");
    // (the bar is kept through a morph, table.js: it goes with the hand, stands before it)
    if (bar && !hand) bar.remove();
    if (bar && hand && bar.nextElementSibling !== hand) hand.parentNode.insertBefore(bar, hand);
    if (!hand || !tpl || bar) return;
    var node = tpl.content.firstElementChild.cloneNode(true);
    hand.parentNode.insertBefore(node, hand);
    var sel = node.querySelector("[data-hand-sort]");
    sel.value = store.getItem("cardroom.sort." + game()) || "";
    var snd = node.querySelector("[data-turn-sound]");
    snd.checked = store.getItem("cardroom.turnSound") === "1";
  }
  document.addEventListener("change", function (ev) {
    if (ev.target.matches && ev.target.matches("[data-hand-sort]")) {
      store.setItem("cardroom.sort." + game(), ev.target.value);
      sortHand();
    } else if (ev.target.matches && ev.target.matches("[data-turn-sound]")) {
      store.setItem("cardroom.turnSound", ev.target.checked ? "1" : "0");
      var a = document.getElementById("turn-sound");
      if (ev.target.checked && a && a.load) a.load();
    }
  });
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-action=clear-selection]");
    if (!b) return;
    var on = document.querySelectorAll("#my-hand [data-card].selected");
    for (var i = 0; i < on.length; i++) unselect(on[i]);
  });

  // ---- drag-select
  var drag = null;  // {on: bool, seen: Set-like object, moved: bool}
  function cardAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest("#my-hand [data-card]") : null;
  }
  // a stack of identical cards (data-count) takes one more copy per tap and
  // is put back whole by the tap after its last copy
  function unselect(card) {
    for (var taps = 5; taps-- && card.classList.contains("selected");) card.click();
  }
  function dragTo(card) {
    if (!drag || !card || drag.seen.indexOf(card) >= 0) return;
    drag.seen.push(card);
    if (drag.on && !card.classList.contains("selected")) card.click();
    else if (!drag.on) unselect(card);
  }
  document.addEventListener("pointerdown", function (ev) {
    var card = ev.target.closest && ev.target.closest("#my-hand [data-card]");
    if (!card || ev.button > 0) return;
    drag = {on: !card.classList.contains("selected"), seen: [], first: card, moved: false, x: ev.clientX, y: ev.clientY};
  });
  // A finger's tap wobbles by a few pixels: a drag starts only past
  // DRAG_MIN px, else a tap near the edge of a narrow card turned into a
  // drag that changed two cards (a hinted selection changed by a tap, then
  // refused when played).
  var DRAG_MIN = 10;
  document.addEventListener("pointermove", function (ev) {
    if (!drag) return;
    if (!drag.moved && Math.abs(ev.clientX - drag.x) < DRAG_MIN && Math.abs(ev.clientY - drag.y) < DRAG_MIN) return;
    var card = cardAt(ev.clientX, ev.clientY);
    if (!card || (card === drag.first && !drag.moved)) return;
    if (!drag.moved) { drag.moved = true; dragTo(drag.first); }
    dragTo(card);
  });
  document.addEventListener("pointerup", function () {
    if (drag && drag.moved) {
      // the click that follows a drag must not toggle the last card back
      var swallow = function (e) { if (e.target.closest && e.target.closest("#my-hand")) { e.stopImmediatePropagation(); e.preventDefault(); } };
      document.addEventListener("click", swallow, true);
      setTimeout(function () { document.removeEventListener("click", swallow, true); }, 0);
    }
    drag = null;
  });
  document.addEventListener("pointercancel", function () { drag = null; });

  // ---- a seat's long name ends in "…"; a tap (or click) shows it whole
  // until tapped again, across table swaps
  var wholeNames = {};
  document.addEventListener("click", function (ev) {
    var name = ev.target.closest && ev.target.closest(".seat [data-seat-name]");
    if (!name) return;
    var seat = name.getAttribute("data-seat-name");
    wholeNames[seat] = !wholeNames[seat];
    names();  // (the table on screen, even if a push replaced it mid-tap)
  });
  function names() {
    var els = document.querySelectorAll(".seat [data-seat-name]");
    for (var i = 0; i < els.length; i++) {
      els[i].classList.toggle("whole", !!wholeNames[els[i].getAttribute("data-seat-name")]);
    }
  }

  // ---- the fan (cards.css): each element of the hand (a card, or a stack
  // of identical cards) shows a strip at least FAN_MIN px wide, a target a
  // finger can hit (WCAG 2.5.8 asks 24 px): as many rows as that takes, the
  // rows overlapping so that each shows its cards' indexes (cards.css).
  var FAN_MIN = 26, FAN_MAX_SHARE = 0.7;
  function fan() {
    var hand = document.getElementById("my-hand");
    if (!hand) return;
    var n = hand.querySelectorAll("[data-card]").length;
    var w = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) * parseFloat(getComputedStyle(document.documentElement).fontSize) || 40;
    var width = hand.clientWidth - parseFloat(getComputedStyle(hand).paddingLeft || "0");
    // data-rows also says "laid out": ring.css paints the hand and what lies
    // below it only then, so it must be set whatever the hand holds
    if (!n || !width) { hand.setAttribute("data-rows", n ? "1" : "0"); return; }
    var rows = 1, strip;
    for (;;) {
      var perRow = Math.ceil(n / rows);
      strip = perRow > 1 ? (width - w) / (perRow - 1) : w;
      if (strip >= FAN_MIN || rows >= 8) break;
      rows++;
    }
    strip = Math.max(FAN_MIN - 2, Math.min(strip, w * FAN_MAX_SHARE));
    strip = Math.floor(strip * 100) / 100 - 0.01;
    // a strip capped at its largest share fits more per row than n / rows:
    // the rows as the browser will wrap them (the faces drawn at row ends)
    var fits = Math.max(1, Math.floor((width - w) / strip) + 1);
    rows = Math.ceil(n / fits);
    hand.style.setProperty("--strip", strip + "px");
    hand.setAttribute("data-rows", rows);
    coveredFaces(rows > 1 ? fits : 0);
  }

  // ---- a face's art only where it shows (the page audit;
  // cards.css has the one-row case and the first paint's guess): in a fan of
  // several rows the card that ends a row (every perRow-th) shows its whole
  // face; the other covered cards, court or pip, stay plain.  A constructed
  // sheet (CSSOM, allowed by the CSP) as perRow depends on the hand's width.
  var faceSheet = null, facePerRow = 0;
  function coveredFaces(perRow) {
    if (perRow === facePerRow || !("adoptedStyleSheets" in document) || typeof CSSStyleSheet !== "function") return;
    try {
      if (!faceSheet) {
        faceSheet = new CSSStyleSheet();
        document.adoptedStyleSheets = document.adoptedStyleSheets.concat([faceSheet]);
      }
      faceSheet.replaceSync(perRow ? "#my-hand[data-rows] .card:not(:nth-child(" + perRow + "n)):not(:last-child):not(.selected)::before" +
                                     "{background-image:none}" : "");
      facePerRow = perRow;
    } catch (e) { /* an older browser: every face drawn, as before */ }
  }
  var fanTimer = null;
  window.addEventListener("resize", function () { clearTimeout(fanTimer); fanTimer = setTimeout(fan, 60); });

  // ---- motion: a play that was not on the table before this
  // push gets .arrive (design.css slides it in from its seat; none under
  // prefers-reduced-motion); the others stay still.
  var seenPlays = null;
  function plays() {
    var out = {}, els = document.querySelectorAll("#table [data-played-seat]:not(.won)");
    for (var i = 0; i < els.length; i++) {
      var e = els[i];
      out[e.getAttribute("data-played-seat") + ":" + e.textContent] = e;
    }
    return out;
  }
  // Optional sounds (the menu's "sounds", off by default): a short click for
  // a new play, two notes when the plays leave the table (a trick or round
  // taken: its plays are gone or marked .won); static/games/sounds/, next to turn.wav.
  function sound(name) {
    if (store.getItem("cardroom.sounds") !== "1") return;
    var turn = document.getElementById("turn-sound");
    if (!turn || !window.Audio) return;
    try {
      var a = new Audio(turn.getAttribute("src").replace(/turn\.wav$/, name + ".wav"));
      var p = a.play(); if (p && p.catch) p.catch(function () {});
    } catch (e) { /* autoplay refused */ }
  }
  // A morph (table.js) keeps a play's element from one push to the next (a
  // seat's place; a new trick's first play in the last trick's first): it
  // loses .arrive to the server's class and, for a new play, gets it back in
  // the same task, which would not start its cards' animation again; so an
  // element that had .arrive before the swap has its animations replayed.
  var hadMotion = [];
  function beforeSwap() { hadMotion = Array.prototype.slice.call(document.querySelectorAll("#table .arrive, #my-hand.deal")); }
  function replay(el) {
    if (hadMotion.indexOf(el) < 0 || !el.getAnimations) return;
    el.getAnimations({subtree: true}).forEach(function (a) { a.play(); });  // (a finished one starts over)
  }
  document.addEventListener("htmx:wsBeforeMessage", beforeSwap);
  document.addEventListener("htmx:beforeSwap", beforeSwap);

  // A play already shown loses .arrive: a push that keeps its region
  // (games/render/regions.py) no longer morphs the server's class back.
  function arrive() {
    var now = plays(), added = 0;
    if (seenPlays) {
      for (var k in now) {
        if (!(k in seenPlays)) { now[k].classList.add("arrive"); replay(now[k]); added++; }
        else if (seenPlays[k] === now[k]) now[k].classList.remove("arrive");
      }
    }
    if (seenPlays && added) sound("play");
    else if (seenPlays && Object.keys(seenPlays).length && !Object.keys(now).length) sound("trick");
    seenPlays = now;
  }

  // ---- a won trick slides to its winner: the plays of a trick
  // just won (.won, data-won-by: the winner's seat) get --dx/--dy, the way
  // from each play to the winner's seat, which design.css's trick-won
  // animation follows (none under reduced motion: design.css hides them).
  function wonSlide() {
    var els = document.querySelectorAll("#table .played.won[data-won-by]");
    for (var i = 0; i < els.length; i++) {
      var seat = document.querySelector('#table .seat[data-seat="' + els[i].getAttribute("data-won-by") + '"]');
      if (!seat) continue;
      var a = els[i].getBoundingClientRect(), b = seat.getBoundingClientRect();
      els[i].style.setProperty("--dx", Math.round(b.left + b.width / 2 - (a.left + a.width / 2)) + "px");
      els[i].style.setProperty("--dy", Math.round(b.top + b.height / 2 - (a.top + a.height / 2)) + "px");
    }
  }

  // ---- the countdown ring of the seat to act (design.css draws it from
  // --left, 0..1): the share of its time still left, counted from when this
  // page first saw that deadline (the server sends the deadline only).
  var firstSeen = {};
  function rings() {
    var els = document.querySelectorAll(".seat-timer[data-deadline]");
    var now = Date.now();
    for (var i = 0; i < els.length; i++) {
      var d = parseInt(els[i].getAttribute("data-deadline"), 10);
      if (!d) continue;
      if (!(d in firstSeen)) firstSeen[d] = now;
      var total = Math.max(1, d - firstSeen[d]);
      var left = Math.max(0, Math.min(1, (d - now) / total));
      // set only when it moved by a visible step (1/200 of the ring): each
      // write is a style recalc and a repaint of the ring
      var v = left.toFixed(3), was = parseFloat(els[i].style.getPropertyValue("--left"));
      if (isNaN(was) || Math.abs(was - left) >= 0.005 || (left === 0 && was !== 0)) els[i].style.setProperty("--left", v);
    }
  }
  setInterval(rings, 250);

  // ---- a new deal (the table's data-hand changed while this page watched):
  // the hand's cards come in one after the other (design.css .deal; none
  // under reduced motion)
  var seenHand = null;
  function deal() {
    var t = table(), hand = document.getElementById("my-hand");
    var id = t && t.getAttribute("data-hand");
    if (hand && id && seenHand !== null && id !== seenHand) {
      var cards = hand.querySelectorAll("[data-card]");
      for (var i = 0; i < cards.length; i++) cards[i].style.setProperty("--i", i);
      hand.classList.add("deal");
      replay(hand);
    }
    if (id) seenHand = id;
  }

  // ---- a private room's invite link: copy it to the clipboard (or
  // select it where the clipboard is not available, e.g. plain http)
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-action=copy-invite]");
    var input = btn && document.getElementById("invite-link");
    if (!input) return;
    input.select();
    var done = function () { btn.textContent = btn.getAttribute("data-copied") || btn.textContent; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(input.value).then(done, function () {});
    } else {
      try { if (document.execCommand("copy")) done(); } catch (err) { /* selected: the user copies */ }
    }
  });

  // ---- the end of a hand stays until the player continues: the result
  // panel (data-region="result") is kept after the next deal, as a sheet
  // over the page outside #table (a morph never touches it), until its
  // "next hand" (or "rematch") button is pressed; the countdown beside the
  // button said when the table would deal on by itself.  Only a panel that
  // offers that button is kept: on a table gone back to waiting (everyone
  // was on 托管) the panel has none, the player continues with 准备, which
  // counts as having seen it (a sheet kept from there covered the new hand
  // with nothing to close it, and a spectator could not press 准备 at all).
  var keptResult = null, dismissed = {}, seen = {};  // seen: 准备 pressed under it (shown on, never kept)
  function resultKeep() {
    var t = table(), panel = document.querySelector("#table #result-panel");
    var hand = t && t.getAttribute("data-hand");
    var copy = document.getElementById("kept-result");
    if (panel && hand) {
      if (!dismissed[hand] && !seen[hand] && panel.querySelector("[data-action=next-hand]")) keptResult = {hand: hand, html: panel.outerHTML};
      panel.classList.toggle("dismissed", !!dismissed[hand]);
      if (copy) copy.remove();
      return;
    }
    if (!keptResult || dismissed[keptResult.hand] || seen[keptResult.hand] || copy || !t) return;
    copy = document.createElement("div");
    copy.id = "kept-result";
    copy.className = "kept-result";
    copy.setAttribute("data-hand", keptResult.hand);
    copy.innerHTML = keptResult.html;
    var inner = copy.firstElementChild;
    inner.id = "kept-result-panel";
    inner.removeAttribute("data-h");
    var clock = copy.querySelector(".next-countdown");
    if (clock) clock.parentNode.remove();
    document.body.appendChild(copy);
  }
  document.addEventListener("click", function (ev) {
    var ready = ev.target.closest && ev.target.closest("[data-action=ready]");
    if (ready && document.querySelector("#table #result-panel") && table()) {
      seen[table().getAttribute("data-hand")] = true;
      return;
    }
    var b = ev.target.closest && ev.target.closest("[data-action=next-hand]");
    if (!b) return;
    var copy = document.getElementById("kept-result");
    var hand = copy ? copy.getAttribute("data-hand") : (table() && table().getAttribute("data-hand"));
    if (hand) dismissed[hand] = true;
    if (copy) copy.remove();
    var panel = document.querySelector("#table #result-panel");
    if (panel) panel.classList.add("dismissed");
  });

  function afterSwap() { tools(); sortHand(); fan(); deal(); arrive(); wonSlide(); rings(); turnAlert(); buttonsInView(); names(); resultKeep(); }
  document.addEventListener("htmx:wsAfterMessage", afterSwap);
  document.addEventListener("htmx:afterSwap", afterSwap);
  document.addEventListener("DOMContentLoaded", afterSwap);
})();
