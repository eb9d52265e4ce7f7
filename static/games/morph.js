/* Pushed fragments are morphed in, not replaced.
 *
 * A page whose websocket is a games.live.group_push.GroupPushConsumer (a
 * game's lobby list, the quick-play status, an arena's or an event's live
 * fragment) gets, on connect and on every change, a fragment whose root says
 * hx-ext="morph" and hx-swap-oob="morph" (group_push.PUSH_SWAP).  Idiomorph
 * (static/vendor/idiomorph-ext.min.js, loaded before this script) turns the
 * page's copy into the new one keeping its elements, which take the new text
 * and attributes: a click that spans a push (pressed on a button, released
 * after the push) still lands on its button.  What the viewer chose is kept:
 *  - whether a <details> is open (the server never opens one);
 *  - whether a disclosure button (static/games/disclosure.js) is open: its
 *    aria-expanded and the hidden of the element it controls (aria-controls);
 *  - every form control the viewer has changed inside a morphed root (marked
 *    data-edited on its first input or change): its value, checked and
 *    selected are not taken from the push.
 *
 * The rules are Idiomorph's defaults, so they hold for htmx's morph swaps
 * and for a page that calls Idiomorph.morph itself (quickplay/queue.js).
 * The room page loads this script too, for its pushed #table: there
 * static/games/table.js adds the table's own callbacks (nodes the page keeps,
 * the fan's strip width) and, for the previous round and result, re-opens a
 * <details> the viewer opened after any swap of the table, a morph or not
 * (its keptOpen).  A rule set before this script runs is kept (asked first),
 * as table.js asks this one: the two compose in either order.
 */
(function () {
  "use strict";
  if (!window.Idiomorph) return;
  var ROOT = '[hx-ext~="morph"]';
  var KEPT = {value: 1, checked: 1, selected: 1};
  var callbacks = window.Idiomorph.defaults.callbacks;
  var before = callbacks.beforeAttributeUpdated;

  function edited(element) {
    var control = element.tagName === "OPTION" ? element.closest("select") : element;
    return !!(control && control.hasAttribute && control.hasAttribute("data-edited"));
  }

  function disclosed(element) {
    return !!(element.id && document.querySelector(
      '[data-disclosure][aria-controls="' + CSS.escape(element.id) + '"]'));
  }

  callbacks.beforeAttributeUpdated = function (name, element, mutation) {
    if (before && before(name, element, mutation) === false) return false;
    if (name === "data-edited") return false;
    if (name === "open" && element.tagName === "DETAILS") return false;
    if (name === "aria-expanded" && element.hasAttribute("data-disclosure")) return false;
    if (name === "hidden" && disclosed(element)) return false;
    return !(KEPT[name] && edited(element));
  };

  function mark(event) {
    var control = event.target;
    if (control && control.closest && /^(INPUT|SELECT|TEXTAREA)$/.test(control.tagName) && control.closest(ROOT)) {
      control.setAttribute("data-edited", "");
    }
  }
  document.addEventListener("input", mark);
  document.addEventListener("change", mark);
})();
