// LeadFlow's page glue: the live connection indicator, new rows from the socket, and a
// fresh snapshot whenever the socket (re)opens so nothing missed while away stays stale.
(function () {
  "use strict";

  function setConnection(state, text) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.className = "connection connection-" + state;
    el.textContent = text;
  }

  document.body.addEventListener("htmx:wsConnecting", function () { setConnection("connecting", "Connecting…"); });
  document.body.addEventListener("htmx:wsClose", function () { setConnection("offline", "Offline: reconnecting…"); });
  document.body.addEventListener("htmx:wsError", function () { setConnection("offline", "Offline: reconnecting…"); });
  document.body.addEventListener("htmx:wsOpen", function () {
    setConnection("live", "Live");
    document.querySelectorAll("[data-live-list][hx-get]").forEach(function (list) {
      htmx.trigger(list, "leadflow:refresh");
    });
  });

  // A pushed row whose id is not on the page yet may belong in a list here: the server decides
  // (its filters, its order, a later page that new documents never join), so each live list
  // fetches itself again, once for a burst of pushes.
  document.body.addEventListener("htmx:oobErrorNoTarget", function (event) {
    var row = event.detail && event.detail.content;
    if (!row || row.tagName !== "TR") return;
    document.querySelectorAll("[data-live-list][hx-get]").forEach(refreshSoon);
  });

  var REFRESH_AFTER_MS = 150;
  function refreshSoon(list) {
    if (list.refreshTimer) return;
    list.refreshTimer = setTimeout(function () {
      list.refreshTimer = null;
      htmx.trigger(list, "leadflow:refresh");
    }, REFRESH_AFTER_MS);
  }
  window.leadflow = {refreshSoon: refreshSoon};

  // Behaviour that would otherwise be inline script (hx-on, trigger filters), which the
  // Content-Security-Policy forbids: declared by data attributes, done here.
  document.body.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[data-mark-dirty]");
    if (form) form.classList.add("dirty");
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (form && form.matches && form.matches("form[data-reset-on-success]") && event.detail.successful) form.reset();
  });
  // A live list waits while someone is typing in one of its rows (a reviewer reading a field off
  // the file): a refresh would replace the row and throw the typing away. It runs once they are done.
  function typingIn(list) {
    var active = document.activeElement;
    if (active && list.contains(active) && /^(INPUT|TEXTAREA)$/.test(active.tagName)) return true;
    return Array.prototype.some.call(list.querySelectorAll("input:not([type=hidden]), textarea"),
                                     function (field) { return field.value !== ""; });
  }
  document.body.addEventListener("htmx:confirm", function (event) {
    var list = event.detail && event.detail.elt;
    if (!list || !list.hasAttribute || !list.hasAttribute("data-live-list") || !typingIn(list)) return;
    event.preventDefault();
    if (list.waitsForTyping) return;
    list.waitsForTyping = true;
    list.addEventListener("focusout", function done() {
      setTimeout(function () {
        if (typingIn(list)) return;
        list.removeEventListener("focusout", done);
        list.waitsForTyping = false;
        refreshSoon(list);
      }, 0);
    });
  });
  // A panel refreshed by a live event waits while its form holds unsaved edits.
  document.body.addEventListener("htmx:confirm", function (event) {
    var panel = event.detail && event.detail.elt;
    var guarded = panel && panel.getAttribute && panel.getAttribute("data-hold-while-dirty");
    if (guarded && document.querySelector(guarded + ".dirty")) event.preventDefault();
  });
})();
