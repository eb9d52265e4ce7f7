// The header's unread count: a plain WebSocket to /ws/notices/ (not the
// htmx ws extension, whose page-wide events the table's scripts listen to);
// each message is the new #notice-count element.  Reconnects with a growing delay.
(function () {
  "use strict";
  var link = document.querySelector("[data-socket][data-action=goto-notices]");
  if (!link || !window.WebSocket) return;
  var delay = 1000;
  function connect() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(proto + location.host + link.getAttribute("data-socket"));
    ws.onopen = function () { delay = 1000; };
    ws.onmessage = function (ev) {
      var tpl = document.createElement("template");
      tpl.innerHTML = String(ev.data).trim();
      var fresh = tpl.content.querySelector("#notice-count");
      var old = document.getElementById("notice-count");
      if (fresh && old) { fresh.removeAttribute("hx-swap-oob"); old.replaceWith(fresh); }
    };
    ws.onclose = function (ev) {
      if (ev.code === 4403) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 60000);
    };
  }
  connect();
})();
