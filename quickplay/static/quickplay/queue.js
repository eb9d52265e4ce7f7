// The quick-play page: a websocket that carries this user's #queue-status
// fragment; a ping every 10 s says the page is still open (answered with the
// fragment); when the status names a table, go there.  Falls back to polling
// the status URL while the socket is down.  A fragment whose root says
// hx-swap-oob="morph" (games/live/group_push.py's PUSH_SWAP) is morphed into
// the page (Idiomorph, with static/games/morph.js's rules), keeping its
// elements: a press on 退出队列 that spans a push still sends the form.
(function () {
  "use strict";
  var box = document.getElementById("quickplay");
  if (!box) return;
  var socket = null, delay = 500, timer = null;

  function apply(html) {
    var old = document.getElementById("queue-status");
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    var fresh = tpl.content.firstElementChild;
    if (!fresh || fresh.id !== "queue-status") return;
    var was = old && old.getAttribute("data-state");
    var morph = fresh.getAttribute("hx-swap-oob") === "morph" && window.Idiomorph;
    fresh.removeAttribute("hx-swap-oob");
    if (!old) box.appendChild(fresh);
    else if (morph) window.Idiomorph.morph(old, fresh);
    else old.replaceWith(fresh);
    var url = fresh.getAttribute("data-room-url");
    if (url) { window.location.assign(url); return; }
    var state = fresh.getAttribute("data-state");
    if (state === "none" && was && was !== "none") { window.location.reload(); return; }
    tick();
  }

  function tick() {
    var st = document.getElementById("queue-status");
    var el = st && st.querySelector("[data-elapsed]");
    var joined = st && Number(st.getAttribute("data-joined-ms"));
    if (el && joined) el.textContent = Math.max(0, Math.round((Date.now() - joined) / 1000));
  }

  function poll() {
    fetch(box.getAttribute("data-status-url"), {credentials: "same-origin"})
      .then(function (r) { return r.text(); }).then(apply).catch(function () {});
  }

  function connect() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(proto + location.host + box.getAttribute("data-ws"));
    socket.onopen = function () { delay = 500; };
    socket.onmessage = function (ev) { apply(ev.data); };
    socket.onclose = function () {
      socket = null;
      poll();
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }

  connect();
  setInterval(tick, 1000);
  timer = setInterval(function () {
    if (socket && socket.readyState === 1) socket.send("ping"); else poll();
  }, 10000);
})();
