/* Replay: steps are fetched with htmx (no page load); 自动播放
 * clicks "next" every STEP_MS until the end or until paused; the arrow keys
 * step (← previous, → next), Home and End go to the first and last step. */
(function () {
  "use strict";
  var STEP_MS = 700;
  var timer = null;
  function button() { return document.querySelector("[data-action=replay-auto]"); }
  function show() {
    var b = button();
    if (!b) return;
    b.setAttribute("aria-pressed", timer ? "true" : "false");
    b.textContent = timer ? b.getAttribute("data-pause") : b.getAttribute("data-play");
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } show(); }
  function next() {
    var r = document.getElementById("replay");
    var n = document.querySelector("[data-action=replay-next]");
    if (!r || !n || parseInt(r.dataset.step, 10) >= parseInt(r.dataset.total, 10)) { stop(); return; }
    if (!document.querySelector(".htmx-request")) n.click();
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-action=replay-auto]");
    if (b) { if (timer) stop(); else { timer = setInterval(next, STEP_MS); show(); next(); } return; }
    var d = ev.target.closest && ev.target.closest("#replay-nav .disabled");
    if (d) { ev.preventDefault(); ev.stopPropagation(); }
  }, true);
  document.addEventListener("htmx:afterSwap", show);
  var KEYS = {ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last"};
  document.addEventListener("keydown", function (ev) {
    var action = KEYS[ev.key];
    if (!action || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
    var link = document.querySelector("#replay-nav [data-action=" + action + "]");
    if (!link) return;
    ev.preventDefault();
    if (action !== "replay-next") stop();
    if (!document.querySelector(".htmx-request")) link.click();
  });
})();
