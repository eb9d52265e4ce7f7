// Web Push: asks for permission only after the user's click on #enable-push.
(function () {
  const button = document.getElementById("enable-push");
  if (!button) return;
  const state = document.getElementById("push-state");
  function key(b64) {
    const pad = "=".repeat((4 - (b64.length % 4)) % 4);
    const raw = atob((b64 + pad).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }
  function csrf() {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  button.addEventListener("click", async () => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) { state.textContent = "✗"; return; }
    const permission = await Notification.requestPermission();
    if (permission !== "granted") { state.textContent = "✗"; return; }
    const reg = await navigator.serviceWorker.register(button.dataset.sw);
    const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(button.dataset.key) });
    const resp = await fetch(button.dataset.post, {
      method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(sub.toJSON()),
    });
    state.textContent = resp.ok ? "✓" : "✗";
  });
})();
