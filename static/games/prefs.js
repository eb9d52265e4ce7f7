/* Display preferences, kept in localStorage and applied to <html>
 * before the page paints (this file loads in <head>, not deferred):
 *
 * - cardroom.theme: "" (the system's), "light" or "dark" -> html[data-theme];
 * - cardroom.fourColour: "1" -> html.four-colour (blue diamonds, green clubs);
 * - cardroom.reduceMotion: "1" -> html.reduce-motion (as the system setting);
 * - cardroom.sounds: "1" -> table_ui.js plays a click per play and two notes
 *   when a trick is taken (off by default).
 *
 * The controls are in the site menu (base.html: [data-pref] inputs).
 */
(function () {
  "use strict";
  var store;
  try { store = window.localStorage; } catch (e) { store = null; }
  function get(k) { try { return (store && store.getItem(k)) || ""; } catch (e) { return ""; } }
  function set(k, v) { try { if (store) store.setItem(k, v); } catch (e) { /* private mode */ } }
  var root = document.documentElement;
  function apply() {
    var theme = get("cardroom.theme");
    if (theme) root.setAttribute("data-theme", theme); else root.removeAttribute("data-theme");
    root.classList.toggle("four-colour", get("cardroom.fourColour") === "1");
    root.classList.toggle("reduce-motion", get("cardroom.reduceMotion") === "1");
  }
  apply();
  document.addEventListener("DOMContentLoaded", function () {
    var els = document.querySelectorAll("[data-pref]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i], key = "cardroom." + el.getAttribute("data-pref");
      if (el.type === "checkbox") el.checked = get(key) === "1"; else el.value = get(key);
    }
  });
  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (!el.matches || !el.matches("[data-pref]")) return;
    set("cardroom." + el.getAttribute("data-pref"), el.type === "checkbox" ? (el.checked ? "1" : "0") : el.value);
    apply();
    if (window.dispatchEvent) window.dispatchEvent(new Event("resize"));  // the fan re-measures
  });
})();
