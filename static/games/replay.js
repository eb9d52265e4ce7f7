/* Replay: steps are fetched with htmx (no page load); 自动播放
 * clicks "next" every STEP_MS until the end or until paused. */
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
})();
