/* 升级 (shengji) table helpers, on top of table.js (which handles selecting
 * cards in .my-hand, 提示, #cards-input, the countdown and stale messages).
 *
 * - 还牌 (S14): in #my-hand.give-mode a click assigns a card to the active
 *   loser (buttons [data-give-to]); the server marks cards that can never be
 *   given (data-block, from the engine's completion helper) and sends the
 *   per-suit caps (data-caps on #give-inputs); hidden inputs give_<seat>
 *   carry the codes POSTed with data-action="give".
 * - bury: a live "n/8" counter of the selected cards.
 * - last trick: data-action="last-trick" toggles #last-trick (kept open
 *   across swaps).
 * - a refused play flashes the follow requirement (#follow-hint).
 */
(function () {
  "use strict";
  var assign = [];   // [{code, nth, seat}]
  var active = null; // loser seat receiving the next card
  var lastOpen = false;
  var giveHand = null; // signature of the hand the assignment belongs to

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function handCards() { return $$("#my-hand.give-mode [data-card]"); }

  function signature() {
    return handCards().map(function (b) { return b.getAttribute("data-card"); }).join(" ");
  }

  function keyOf(btn) {
    var code = btn.getAttribute("data-card"), nth = 0, all = handCards();
    for (var i = 0; i < all.length; i++) {
      if (all[i] === btn) break;
      if (all[i].getAttribute("data-card") === code) nth++;
    }
    return {code: code, nth: nth};
  }

  function losers() {
    return $$("#give-inputs [data-give-to]").map(function (b) {
      return {seat: b.getAttribute("data-give-to"), need: parseInt(b.getAttribute("data-give-need"), 10), btn: b};
    });
  }

  function countFor(seat) {
    return assign.filter(function (a) { return a.seat === seat; }).length;
  }

  function say(text) {
    var m = $("#sj-give-msg");
    if (m) { m.textContent = text || ""; m.classList.toggle("error", !!text); }
  }

  function renderGive() {
    var ls = losers();
    if (!ls.length) return;
    if (active === null || !ls.some(function (l) { return l.seat === active; })) active = ls[0].seat;
    var seen = {};
    handCards().forEach(function (b) {
      var code = b.getAttribute("data-card");
      var nth = seen[code] || 0; seen[code] = nth + 1;
      var a = assign.filter(function (x) { return x.code === code && x.nth === nth; })[0];
      b.classList.toggle("selected", !!a);
      b.setAttribute("aria-pressed", a ? "true" : "false");
      if (a) { b.setAttribute("data-given-to", a.seat); b.setAttribute("data-given-no", parseInt(a.seat, 10) + 1); } else { b.removeAttribute("data-given-to"); b.removeAttribute("data-given-no"); }
    });
    var complete = true;
    ls.forEach(function (l) {
      var n = countFor(l.seat);
      if (n !== l.need) complete = false;
      l.btn.querySelector(".n").textContent = String(n);
      l.btn.classList.toggle("active", l.seat === active);
      l.btn.classList.toggle("full", n === l.need);
      var input = $('#give-inputs input[name="give_' + l.seat + '"]');
      if (input) {
        input.value = assign.filter(function (a) { return a.seat === l.seat; })
          .map(function (a) { return a.code; }).join(" ");
      }
    });
    var give = $('#actions [data-action="give"]');
    if (give) give.disabled = !complete;
  }

  function caps() {
    var el = $("#give-inputs");
    try { return JSON.parse(el && el.getAttribute("data-caps") || "{}"); } catch (e) { return {}; }
  }

  function clickGiveCard(btn) {
    var k = keyOf(btn);
    var idx = assign.findIndex(function (a) { return a.code === k.code && a.nth === k.nth; });
    if (idx >= 0) { active = assign[idx].seat; assign.splice(idx, 1); say(""); renderGive(); return; }
    var block = btn.getAttribute("data-block");
    if (block) { say(block); return; }
    var suit = btn.getAttribute("data-suit-of"), cap = caps()[suit];
    if (cap !== undefined) {
      var used = assign.filter(function (a) {
        var el = handCards().filter(function (b) { return b.getAttribute("data-card") === a.code; })[0];
        return el && el.getAttribute("data-suit-of") === suit;
      }).length;
      if (used >= cap) { say(btn.getAttribute("data-cap-msg") || (document.getElementById("give-inputs").getAttribute("data-cap-msg") || "S14") ); return; }
    }
    var ls = losers(), target = null;
    var order = ls.map(function (l) { return l.seat; });
    var start = Math.max(0, order.indexOf(active));
    for (var i = 0; i < ls.length; i++) {
      var l = ls[(start + i) % ls.length];
      if (countFor(l.seat) < l.need) { target = l.seat; break; }
    }
    if (target === null) { say($("#give-inputs").getAttribute("data-full-msg") || ""); return; }
    assign.push({code: k.code, nth: k.nth, seat: target});
    active = target;
    say("");
    renderGive();
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target : null;
    if (!t) return;
    var card = t.closest("#my-hand.give-mode [data-card]");
    if (card) { clickGiveCard(card); return; }
    var to = t.closest("[data-give-to]");
    if (to) { active = to.getAttribute("data-give-to"); renderGive(); return; }
    var gh = t.closest("[data-action=give-hint]");
    if (gh) {
      var hint = {};
      try { hint = JSON.parse(gh.getAttribute("data-give-hint") || "{}"); } catch (e) { hint = {}; }
      assign = [];
      var taken = {};
      Object.keys(hint).forEach(function (seat) {
        hint[seat].forEach(function (code) {
          var nth = taken[code] || 0; taken[code] = nth + 1;
          assign.push({code: code, nth: nth, seat: seat});
        });
      });
      say("");
      renderGive();
      return;
    }
    var last = t.closest("[data-action=last-trick]");
    if (last) {
      lastOpen = !lastOpen;
      applyLast();
      return;
    }
    // table.js (loaded first) has toggled the card already
    if (t.closest(".my-hand [data-card]")) updateCount();
  });

  function applyLast() {
    var box = $("#last-trick"), btn = $("[data-action=last-trick]");
    if (box) box.hidden = !lastOpen;
    if (btn) btn.setAttribute("aria-expanded", lastOpen ? "true" : "false");
  }

  function updateCount() {
    var c = $("#sj-selected-count");
    // a stack of identical cards counts its selected copies (data-sel, table.js)
    if (c) c.textContent = String($$(".my-hand [data-card].selected").reduce(function (n, b) {
      return n + (parseInt(b.getAttribute("data-sel") || "1", 10) || 1);
    }, 0));
  }

  function afterSwap() {
    if ($("#my-hand.give-mode")) {
      var sig = signature();
      if (sig !== giveHand) { assign = []; active = null; giveHand = sig; }
      renderGive();
    } else {
      assign = []; active = null; giveHand = null;
    }
    applyLast();
    updateCount();
  }

  // A refusal (shown in #act-msg, next to the buttons): for a play, flash
  // the follow requirement.
  document.addEventListener("htmx:afterRequest", function (ev) {
    var el = ev.detail.elt, xhr = ev.detail.xhr;
    if (!el || !xhr || xhr.status < 400) return;
    var fh = $("#follow-hint");
    if (fh && el.getAttribute("data-action") === "play") {
      fh.classList.remove("flash");
      void fh.offsetWidth;
      fh.classList.add("flash");
    }
  });
  document.addEventListener("htmx:wsAfterMessage", afterSwap);
  document.addEventListener("htmx:afterSwap", afterSwap);
  document.addEventListener("htmx:oobAfterSwap", afterSwap);
  document.addEventListener("DOMContentLoaded", afterSwap);
  // table.js's hint selects cards; keep the bury counter right.
  document.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-action=hint]")) updateCount();
  });
})();
