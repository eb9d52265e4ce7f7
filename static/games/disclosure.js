/* Disclosure buttons: a <button type="button" data-disclosure aria-expanded="false"
 * aria-controls="ID"> shows and hides the element ID (which the server renders
 * with the hidden attribute).  A click (or Enter / Space: it is a real button)
 * toggles the target's hidden and the button's aria-expanded.  One listener on
 * the document, so buttons that a push brings in work without setting up.
 * static/games/morph.js keeps both attributes as the viewer left them when a
 * push morphs the page (the server never opens one).
 */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("button[data-disclosure][aria-controls]");
    if (!button) return;
    var target = document.getElementById(button.getAttribute("aria-controls"));
    if (!target) return;
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    target.hidden = !open;
  });
})();
