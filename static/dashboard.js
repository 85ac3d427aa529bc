// LeadFlow's staff screens: filtered lists that ask the server again when a pushed row changed
// in them, live counts and panels, notices of system failures (the page's template filled in),
// and the review queue's keyboard and preview. Loaded after app.js.
(function () {
  "use strict";

  var CHANGED_EVERY_MS = 400;   // counts and checklists re-fetch at most this often under a burst
  var MAX_TOASTS = 5;
  var ROWS = "tr[id^='document-']";

  function liveLists() { return Array.prototype.slice.call(document.querySelectorAll("[data-live-list]")); }
  function rowsOf(list) { return Array.prototype.slice.call(list.querySelectorAll(ROWS)); }

  // Which rows a list holds is the server's answer: a list whose query filters (data-filter-*)
  // fetches itself again when a pushed row changed in it, since the row may have left it.
  function filtered(list) {
    return Object.keys(list.dataset).some(function (key) { return key.indexOf("filter") === 0; });
  }

  // Before a list is swapped for the server's answer: what it held, to say what left it.
  var before = null;
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var list = event.detail && event.detail.target;
    if (!list || !list.matches || !list.matches("[data-live-list]")) return;
    var current = currentId && document.getElementById(currentId);
    var after = current && (nextRow(current) || previousRow(current));
    before = {rows: rowsOf(list).map(function (row) {
      var error = row.querySelector(".note.error");
      return {id: row.id, title: row.dataset.title || "A document", status: row.dataset.statusWords || "",
              error: error && error.textContent};
    }), next: after && after.id, hadFocus: !!current && (current.contains(document.activeElement) || document.activeElement === document.body)};
  });

  // After anything changed a list: say which rows left it (a decided document leaves the
  // review queue), keep the empty list's own words, let the pager follow the last row.
  function reconcile(list) {
    var rows = rowsOf(list);
    var empty = list.querySelector("tr.empty td");
    if (empty && list.getAttribute("data-empty")) empty.textContent = list.getAttribute("data-empty");
    if (before) {
      var left = before.rows.filter(function (old) { return !document.getElementById(old.id); });
      left.forEach(function (old) {
        announce(old.error ? old.title + ": " + old.error
                           : "“" + old.title + "” left this list (now " + old.status + "). " + rows.length + " left.");
      });
      if (currentId && !document.getElementById(currentId)) {
        currentId = null;
        var next = before.next && document.getElementById(before.next);
        if (next) setCurrent(next, before.hadFocus); else showPreview(null);
      }
      before = null;
    }
    updatePager(list, false);
    keepQueueFocus();
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
    liveLists().forEach(function (list) {
      if (filtered(list) && rows.some(function (r) { return list.contains(document.getElementById(r.id)); })) {
        window.leadflow.refreshSoon(list);
      }
      reconcile(list);
    });
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
    liveLists().forEach(reconcile);
  });
  document.body.addEventListener("htmx:oobAfterSwap", function () { changed(); });

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

    // The notice's markup is the page's (documents/_toasts.html); the row fills it in.
    var template = document.getElementById("failure-toast");
    var toast = template.content.firstElementChild.cloneNode(true);
    var title = row.dataset.title || "";
    toast.setAttribute("data-document", row.id.replace("document-", ""));
    fill(toast, "title", title);
    fill(toast, "code", row.dataset.reason || "");
    toast.querySelector("[data-slot=open]").href = row.dataset.href;
    var retry = toast.querySelector("[data-slot=retry]");
    retry.setAttribute("hx-post", row.dataset.href + "/retry");
    toast.querySelector("[data-slot=dismiss]").addEventListener("click", function () { toast.remove(); });
    retry.addEventListener("htmx:afterRequest", function (event) {
      var ok = event.detail && event.detail.successful;
      var said = template.getAttribute(ok ? "data-sent" : "data-refused").replace("{title}", title);
      toast.querySelector("[data-slot=message]").textContent = said;
      retry.remove();
      if (ok) setTimeout(function () { toast.remove(); }, 6000);
    });
    region.prepend(toast);
    htmx.process(toast);
    while (region.children.length > MAX_TOASTS) region.lastElementChild.remove();
  }

  function fill(root, slot, text) {
    root.querySelectorAll("[data-slot=" + slot + "]").forEach(function (el) { el.textContent = text; });
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

  // The preview's markup is the page's (review/index.html: a template per kind of file).
  function showPreview(row) {
    var pane = document.getElementById("queue-preview");
    if (!pane) return;
    var type = row ? (row.dataset.contentType || "").split(";")[0] : "";
    var kind = !row ? "nothing" : type === "application/pdf" ? "pdf" : type.indexOf("image/") === 0 ? "image" : "other";
    var template = document.getElementById("preview-" + kind);
    if (!template) return;
    var view = template.content.cloneNode(true);
    if (row) {
      var title = row.dataset.title || "";
      fill(view, "title", title || "Document");
      fill(view, "type", type || "this file");
      view.querySelectorAll("[data-slot=href]").forEach(function (a) { a.href = row.dataset.href; });
      view.querySelectorAll("[data-slot=file]").forEach(function (a) { a.href = row.dataset.file; });
      var object = view.querySelector("object");
      if (object) object.data = row.dataset.file + "#navpanes=0";
      var img = view.querySelector("img");
      if (img) img.src = row.dataset.file;
      view.querySelectorAll("[aria-label], [alt]").forEach(function (el) {
        ["aria-label", "alt"].forEach(function (name) {
          if (el.hasAttribute(name)) el.setAttribute(name, el.getAttribute(name).replace("{title}", title || "the document"));
        });
      });
    }
    pane.textContent = "";
    pane.appendChild(view);
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
      if (!target.value.trim()) {
        var region = document.getElementById("announcer");   // its words, in the page's language
        announce((region && region.getAttribute("data-reason-first")) || "Type a reason to reject first.");
        return;
      }
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
    liveLists().forEach(reconcile);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
