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

  // A pushed row whose id is not on the page yet is a document this list has not shown:
  // put it at the top of the list, if the list shows documents in that status.
  document.body.addEventListener("htmx:oobErrorNoTarget", function (event) {
    var row = event.detail && event.detail.content;
    var list = document.querySelector("[data-live-list]");
    if (!row || !list || row.tagName !== "TR") return;
    var filter = list.getAttribute("data-live-filter");
    if (filter && row.getAttribute("data-status") !== filter) return;
    row.removeAttribute("hx-swap-oob");
    var empty = list.querySelector("tr.empty");
    if (empty) empty.remove();
    list.prepend(row);
    htmx.process(row);
  });
})();
