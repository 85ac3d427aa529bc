// LeadFlow's staff screens: which pushed rows belong in a filtered list, live counts and
// panels, notices of system failures, and the review queue's keyboard. Loaded after app.js.
(function () {
  "use strict";

  var CHANGED_EVERY_MS = 400;   // counts and checklists re-fetch at most this often under a burst
  var MAX_TOASTS = 5;
  var ROWS = "tr[id^='document-']";

  function liveLists() { return Array.prototype.slice.call(document.querySelectorAll("[data-live-list]")); }
  function rowsOf(list) { return Array.prototype.slice.call(list.querySelectorAll(ROWS)); }

  // Does this row belong in this list? The list carries its filters as data-filter-*.
  function belongs(list, row) {
    var f = list.dataset, r = row.dataset;
    if (f.filterStatus && r.status !== f.filterStatus) return false;
    if (f.filterType && r.type !== f.filterType) return false;
    if (f.filterWorkspace && r.workspace !== f.filterWorkspace) return false;
    if (f.filterOwner && r.owner !== f.filterOwner) return false;
    if (f.filterSystem && ((r.status !== "REJECTED" && r.status !== "ACTION_REQUIRED")
                           || (r.rejectionCode || "").indexOf("SYSTEM_") !== 0)) return false;
    if (f.filterQ && (r.title || "").toLowerCase().indexOf(f.filterQ.toLowerCase()) < 0) return false;
    return true;
  }

  // A pushed row not on the page: app.js puts it at the top of the list. Stop that (before
  // app.js's listener on <body> runs) when the row does not match the list's filters, or
  // when the list is a later page, which new documents never join.
  document.addEventListener("htmx:oobErrorNoTarget", function (event) {
    var row = event.detail && event.detail.content;
    var list = document.querySelector("[data-live-list]");
    if (!row || !list || row.tagName !== "TR") return;
    if (list.dataset.filterLaterPage || !belongs(list, row)) event.stopImmediatePropagation();
  }, true);

  // After anything changed a list: rows that no longer match leave it (a decided document
  // leaves the review queue), an emptied list says so, the pager follows the last row.
  function reconcile() {
    liveLists().forEach(function (list) {
      rowsOf(list).forEach(function (row) { if (!belongs(list, row)) leave(list, row); });
      if (!rowsOf(list).length && !list.querySelector("tr.empty")) {
        var empty = document.createElement("tr"), cell = document.createElement("td");
        empty.className = "empty";
        cell.colSpan = 5;
        cell.textContent = list.getAttribute("data-empty") || "No documents.";
        empty.appendChild(cell);
        list.appendChild(empty);
      } else if (rowsOf(list).length) {
        var stale = list.querySelector("tr.empty");
        if (stale) stale.remove();
      }
      updatePager(list, false);
    });
    keepQueueFocus();
  }

  function leave(list, row) {
    var error = row.querySelector(".note.error");
    var title = row.dataset.title || "A document";
    var status = (row.dataset.status || "").replace("_", " ");
    var wasCurrent = row.id === currentId;
    var hadFocus = row.contains(document.activeElement) || document.activeElement === document.body;
    var next = nextRow(row) || previousRow(row);
    row.remove();
    var left = rowsOf(list).length;
    announce(error ? title + ": " + error.textContent
                   : "“" + title + "” left this list (now " + status + "). " + left + " left.");
    if (wasCurrent) {
      currentId = null;
      if (next) setCurrent(next, hadFocus); else showPreview(null);
    }
  }

  function updatePager(list, authoritative) {
    var next = document.getElementById("next-page");
    if (!next || !next.dataset.base) return;
    var rows = rowsOf(list);
    var size = parseInt(next.parentNode.getAttribute("data-page-size"), 10) || 100;
    if (authoritative) next.hidden = rows.length < size;
    if (!rows.length) { next.hidden = true; return; }
    var url = new URL(next.dataset.base, window.location.href);
    url.searchParams.set("cursor", rows[rows.length - 1].dataset.cursor);
    next.setAttribute("href", url.pathname + url.search);
  }

  // Counts, checklists and the stuck list listen for "leadflow:changed" on <body>: fired at
  // most every CHANGED_EVERY_MS, and always once after the last change of a burst.
  var changedTimer = null, lastChanged = 0;
  function changed() {
    if (changedTimer) return;
    var wait = Math.max(0, CHANGED_EVERY_MS - (Date.now() - lastChanged));
    changedTimer = setTimeout(function () {
      changedTimer = null;
      lastChanged = Date.now();
      htmx.trigger(document.body, "leadflow:changed");
    }, wait);
  }

  function pushedRows(html) {
    var template = document.createElement("template");
    template.innerHTML = String(html || "");
    return Array.prototype.slice.call(template.content.querySelectorAll(ROWS));
  }

  document.body.addEventListener("htmx:wsAfterMessage", function (event) {
    var rows = pushedRows(event.detail && event.detail.message);
    reconcile();
    changed();
    rows.forEach(notifyFailure);
    var page = document.querySelector("[data-document]");
    if (page && rows.some(function (r) { return r.id === "document-" + page.dataset.document; })) {
      htmx.trigger(document.body, "leadflow:document-changed");
    }
  });

  // The socket (re)opened: app.js re-fetches the lists; catch the rest of the page up too.
  document.body.addEventListener("htmx:wsOpen", function () {
    changed();
    if (document.querySelector("[data-document]")) htmx.trigger(document.body, "leadflow:document-changed");
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.matches && target.matches("[data-live-list]")) updatePager(target, true);
    reconcile();
  });
  document.body.addEventListener("htmx:oobAfterSwap", function () { reconcile(); changed(); });

  // --- notices of system failures, for the people who can retry them -------------------------
  var noticed = {};

  function notifyFailure(row) {
    var region = document.getElementById("toasts");
    var code = row.dataset.rejectionCode || "";
    if (!region || !region.hasAttribute("data-notify-failures")) return;
    if ((row.dataset.status !== "REJECTED" && row.dataset.status !== "ACTION_REQUIRED") || code.indexOf("SYSTEM_") !== 0) return;
    var key = row.id + "|" + row.dataset.updated;
    if (noticed[key]) return;
    noticed[key] = true;

    var toast = element("div", "toast", "");
    toast.setAttribute("data-testid", "failure-toast");
    toast.setAttribute("data-document", row.id.replace("document-", ""));
    toast.appendChild(element("strong", "", "A document failed for a system reason"));
    toast.appendChild(element("p", "", "“" + (row.dataset.title || "") + "” (" + code + "). The client did nothing wrong."));
    var actions = element("div", "toast-actions", "");
    var open = element("a", "", "Open");
    open.href = row.dataset.href;
    var retry = element("button", "", "Retry");
    retry.type = "button";
    retry.setAttribute("hx-post", row.dataset.href + "/retry");
    retry.setAttribute("hx-swap", "none");
    var dismiss = element("button", "link", "Dismiss");
    dismiss.type = "button";
    dismiss.addEventListener("click", function () { toast.remove(); });
    actions.appendChild(retry);
    actions.appendChild(open);
    actions.appendChild(dismiss);
    toast.appendChild(actions);
    retry.addEventListener("htmx:afterRequest", function (event) {
      var ok = event.detail && event.detail.successful;
      toast.querySelector("p").textContent = ok
        ? "Sent “" + (row.dataset.title || "") + "” through the pipeline again."
        : "The retry was refused; open the document to see why.";
      retry.remove();
      if (ok) setTimeout(function () { toast.remove(); }, 6000);
    });
    region.prepend(toast);
    htmx.process(toast);
    while (region.children.length > MAX_TOASTS) region.lastElementChild.remove();
  }

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text) el.textContent = text;
    return el;
  }

  function announce(text) {
    var region = document.getElementById("announcer");
    if (!region) return;
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 30);
  }

  // --- the review queue: a current row, its preview, and keys ---------------------------------
  function queue() { return document.querySelector("[data-live-list][data-filter-keyboard]"); }
  var currentId = null;

  function nextRow(row) {
    var el = row.nextElementSibling;
    while (el && !el.matches(ROWS)) el = el.nextElementSibling;
    return el;
  }
  function previousRow(row) {
    var el = row.previousElementSibling;
    while (el && !el.matches(ROWS)) el = el.previousElementSibling;
    return el;
  }

  function setCurrent(row, focus) {
    var list = queue();
    if (!list || !row) return;
    rowsOf(list).forEach(function (r) {
      r.classList.remove("current");
      r.tabIndex = -1;
      r.removeAttribute("aria-current");
    });
    row.classList.add("current");
    row.tabIndex = 0;
    row.setAttribute("aria-current", "true");
    if (currentId !== row.id) showPreview(row);
    currentId = row.id;
    if (focus) row.focus();
  }

  // A pushed row replaces the old element: keep the current one marked (and focused).
  function keepQueueFocus() {
    var list = queue();
    if (!list) return;
    var rows = rowsOf(list);
    if (!rows.length) {
      if (currentId) { currentId = null; showPreview(null); }
      return;
    }
    var row = currentId && document.getElementById(currentId);
    if (!row) { setCurrent(rows[0], false); return; }
    // A replaced element lost its marks, and its focus (which fell back to <body>).
    if (!row.classList.contains("current")) setCurrent(row, document.activeElement === document.body);
  }

  function showPreview(row) {
    var pane = document.getElementById("queue-preview");
    if (!pane) return;
    pane.textContent = "";
    if (!row) {
      pane.appendChild(element("p", "muted", "Nothing selected."));
      return;
    }
    var head = element("p", "preview-title", "");
    var link = element("a", "", row.dataset.title || "Document");
    link.href = row.dataset.href;
    head.appendChild(link);
    pane.appendChild(head);
    var type = (row.dataset.contentType || "").split(";")[0];
    if (type === "application/pdf") {
      var object = document.createElement("object");
      object.className = "preview";
      object.type = "application/pdf";
      object.data = row.dataset.file + "#navpanes=0";
      object.setAttribute("aria-label", "Preview of " + (row.dataset.title || "the document"));
      var fallback = element("p", "", "No PDF viewer here. ");
      var open = element("a", "", "Open the PDF");
      open.href = row.dataset.file;
      fallback.appendChild(open);
      object.appendChild(fallback);
      pane.appendChild(object);
    } else if (type.indexOf("image/") === 0) {
      var img = document.createElement("img");
      img.className = "preview preview-image";
      img.src = row.dataset.file;
      img.alt = "Scan of " + (row.dataset.title || "the document");
      pane.appendChild(img);
    } else {
      var none = element("p", "muted", "No preview for " + (type || "this file") + ". ");
      var download = element("a", "", "Download");
      download.href = row.dataset.file;
      none.appendChild(download);
      pane.appendChild(none);
    }
  }

  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA" || el.isContentEditable);
  }

  document.addEventListener("keydown", function (event) {
    var list = queue();
    if (!list || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var row = currentId && document.getElementById(currentId);

    // In the reason box, Enter rejects (the form's first button would decide).
    if (target.matches && target.matches("[data-key=reason]") && event.key === "Enter") {
      event.preventDefault();
      var reject = target.form && target.form.querySelector("[data-key=reject]");
      if (!target.value.trim()) { announce("Type a reason to reject first."); return; }
      if (reject) reject.click();
      return;
    }
    if (event.key === "Escape" && typing(target)) {
      if (row) row.focus();
      return;
    }
    if (typing(target)) return;

    var rows = rowsOf(list);
    if (!rows.length) return;
    if (!row) row = rows[0];
    var inList = list.contains(target);
    if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !inList) return;  // the page scrolls
    var handled = true;
    switch (event.key) {
      case "j": case "ArrowDown": setCurrent(inList ? (nextRow(row) || row) : row, true); break;
      case "k": case "ArrowUp": setCurrent(inList ? (previousRow(row) || row) : row, true); break;
      case "t": setCurrent(row, false); focusIn(row, "[data-key=type]"); break;
      case "d": setCurrent(row, false); clickIn(row, "[data-key=decide]"); break;
      case "x": setCurrent(row, false); focusIn(row, "[data-key=reason]"); break;
      case "o": window.location.href = row.dataset.href; break;
      case "Enter":
        if (target === row) window.location.href = row.dataset.href; else handled = false;
        break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });

  function focusIn(row, selector) { var el = row.querySelector(selector); if (el) el.focus(); }
  function clickIn(row, selector) { var el = row.querySelector(selector); if (el) el.click(); }

  document.addEventListener("click", function (event) {
    var list = queue();
    var row = event.target.closest && event.target.closest(ROWS);
    if (list && row && list.contains(row)) setCurrent(row, !typing(event.target) && event.target.tagName !== "BUTTON" && event.target.tagName !== "A");
  });

  function start() {
    reconcile();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
