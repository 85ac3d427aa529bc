// LeadFlow's page glue: the live connection indicator, new rows from the socket, and a
// fresh snapshot whenever the socket (re)opens so nothing missed while away stays stale.
(function () {
  "use strict";

  // The words come from the page (data-connecting, data-offline, data-live), in its language.
  function setConnection(state, text) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.className = "connection connection-" + state;
    el.textContent = el.dataset[state] || text;
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
    if (active && list.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    return Array.prototype.some.call(list.querySelectorAll(FIELDS), touched);
  }
  // A field holds the person's own input: text typed, or a choice other than the page's.
  var FIELDS = "input[name]:not([type=hidden]), textarea[name], select[name]";
  function touched(field) {
    if (field.tagName !== "SELECT") return field.value !== "";
    return Array.prototype.some.call(field.options, function (option) { return option.selected !== option.defaultSelected; });
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
  // What someone typed or chose in a row outlives the row being replaced: a pushed row for the
  // same document, or a list answer already on its way when they began. The new row gets their
  // value wherever it still asks for that field, and the focus back.
  function typedInRows(root) {
    var typed = [];
    var rows = root.matches && root.matches(ROW) ? [root] : Array.prototype.slice.call(root.querySelectorAll(ROW));
    rows.forEach(function (row) {
      row.querySelectorAll(FIELDS).forEach(function (field) {
        var focused = document.activeElement === field;
        if (!touched(field) && !focused) return;
        typed.push({row: row.id, name: field.name, value: field.value, focused: focused});
      });
    });
    return typed;
  }
  function fieldOf(scope, entry) {
    var row = scope.querySelector("#" + CSS.escape(entry.row));
    return row && row.querySelector("[name='" + CSS.escape(entry.name) + "']:not([type=hidden])");
  }
  function putBack(typed, scope) {
    typed.forEach(function (entry) {
      var field = fieldOf(scope, entry);
      if (field && !touched(field)) field.value = entry.value;
    });
  }
  function focusBack(typed) {
    typed.forEach(function (entry) {
      var field = entry.focused && fieldOf(document, entry);
      if (field) field.focus();
    });
  }
  var ROW = "tr[id^='document-']";
  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (!detail || !detail.target || !detail.fragment) return;
    var typed = typedInRows(detail.target);
    if (!typed.length) return;
    putBack(typed, detail.fragment);
    setTimeout(function () { focusBack(typed); }, 0);
  });
  // Only a live list's answer: a row's own form answers with what the server kept of it.
  var typedBeforeSwap = null;
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    var live = target && target.matches && target.matches("[data-live-list]");
    typedBeforeSwap = live ? typedInRows(target) : null;
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    if (!typedBeforeSwap || !typedBeforeSwap.length) return;
    putBack(typedBeforeSwap, document);
    focusBack(typedBeforeSwap);
    typedBeforeSwap = null;
  });
  // A panel refreshed by a live event waits while its form holds unsaved edits.
  document.body.addEventListener("htmx:confirm", function (event) {
    var panel = event.detail && event.detail.elt;
    var guarded = panel && panel.getAttribute && panel.getAttribute("data-hold-while-dirty");
    if (guarded && document.querySelector(guarded + ".dirty")) event.preventDefault();
  });
})();
