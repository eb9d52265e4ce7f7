/* The event page's live fragment (#event-live) is morphed in, not replaced,
 * by each push (clubs/live/consumers.py: when it connects, on every change,
 * and every second while a round's tables move; its root says
 * hx-swap-oob="morph", idiomorph's htmx extension enabled on it).  The page
 * keeps its elements, so a click that spans a push still lands on its
 * button, and what the viewer chose is kept:
 *  - whether a <details> is open (a finished table's 更正 form: the server
 *    never opens one);
 *  - every form control the viewer has changed (marked data-edited on its
 *    first input): its value, checked and selected are not taken from the push.
 */
(function () {
  "use strict";
  if (!window.Idiomorph) return;
  var KEPT = {value: 1, checked: 1, selected: 1};

  function edited(element) {
    var control = element.tagName === "OPTION" ? element.closest("select") : element;
    return !!(control && control.hasAttribute("data-edited"));
  }

  window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, element) {
    if (name === "data-edited") return false;
    if (name === "open" && element.tagName === "DETAILS") return false;
    return !(KEPT[name] && edited(element));
  };

  function mark(event) {
    var control = event.target;
    if (control.closest && control.closest("#event-live") && /^(INPUT|SELECT|TEXTAREA)$/.test(control.tagName)) {
      control.setAttribute("data-edited", "");
    }
  }
  document.addEventListener("input", mark);
  document.addEventListener("change", mark);
})();
