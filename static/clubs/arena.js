// The arena page (clubs/arena/pages.py): counts the clock down between pushes
// and, when a pushed fragment names a table of the player's that the page did
// not know yet, takes the player there (re-seated as soon as a table ends);
// arriving from a table that closed, it goes on to the player's new one.
(function () {
  "use strict";
  var known = null;
  var started = Date.now();
  function live() { return document.getElementById("arena-live"); }
  function remember() {
    var el = live();
    known = el ? el.getAttribute("data-my-room") : null;
  }
  function follow() {
    var el = live();
    if (!el) { return; }
    var room = el.getAttribute("data-my-room");
    if (room && room !== known) {
      var link = document.getElementById("arena-my-table");
      if (link) { window.location.assign(link.getAttribute("href")); }
    }
    known = room;
    started = Date.now();
  }
  function tick() {
    var t = document.getElementById("arena-timer");
    if (!t) { return; }
    var left = Math.max(0, parseInt(t.getAttribute("data-seconds"), 10) - Math.floor((Date.now() - started) / 1000));
    t.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  }
  // Come from a table that closed (?from=<room>): already seated at another,
  // go there at once; still waiting, the push that seats the player will.
  function arrive() {
    var from = new URLSearchParams(window.location.search).get("from");
    var el = live(), link = document.getElementById("arena-my-table");
    if (from && el && link && el.getAttribute("data-my-room") && el.getAttribute("data-my-room") !== from) {
      window.location.assign(link.getAttribute("href"));
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    arrive();
    remember();
    tick();
    setInterval(tick, 1000);
    document.body.addEventListener("htmx:wsAfterMessage", follow);
  });
})();
