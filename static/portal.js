// The client's portal: several files at once, dropped or chosen, straight to storage (offer, PUT or
// POST with progress, complete), a progress bar and a clear outcome per file, and a checklist that
// follows the live pushes. Without this script the form still posts its files to /portal/upload.
(function () {
  "use strict";

  var root = document.querySelector("[data-portal]");
  if (!root) return;

  var TEXT = JSON.parse(document.getElementById("portal-text").textContent);
  var LANG = root.getAttribute("lang") === "de" ? "de" : "en";
  var CSRF = root.getAttribute("data-csrf");
  // Content types by file name ending, as the page renders them from leadflow.domain.filetypes:
  // browsers leave MT940 untyped and call XML text/xml. The server checks the bytes on completion.
  var TYPES = JSON.parse(root.getAttribute("data-file-types"));
  var PARALLEL = 3;  // a phone on a weak connection does better with a few uploads at a time
  var SETTLED = {VERIFIED: true, REJECTED: true, ACTION_REQUIRED: true};
  var PACKET = "packet";  // the kind chosen for "several documents in one file"

  var form = document.getElementById("upload-form");
  var input = document.getElementById("file");
  var kindSelect = document.getElementById("kind");
  var picker = document.getElementById("item-file");
  var mainList = document.getElementById("uploads");
  var result = document.getElementById("upload-result");
  var checklist = document.getElementById("documents-body");
  var announcer = document.getElementById("announcer");
  var workspaceId = form.elements.workspace_id.value || null;

  var staged = [];    // chosen or dropped on the main zone, not sent yet: {file, entry}
  var placed = [];    // entries shown inside a checklist item: put back after each refresh
  var waiting = [];   // uploads waiting for a free slot
  var running = 0;
  var pickFor = null; // the checklist item the picker was opened for: {kind, slot}
  var counter = 0;

  // -- the main zone: stage what is chosen or dropped, send it with the Upload button ----------

  input.addEventListener("change", function () {
    stage(Array.prototype.slice.call(input.files));
    input.value = "";  // choosing the same file again is a change too
  });

  droppable(form.querySelector("[data-dropzone]"), function (files) { stage(files); });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!staged.length) {
      report(say("choose_first"), false);
      input.focus();
      return;
    }
    var batch = staged;
    staged = [];
    batch.forEach(function (s) {
      var remove = s.entry.querySelector(".upload-remove");
      if (remove) remove.remove();
    });
    send(batch.map(function (s) { return {file: s.file, kind: kindSelect.value, entry: s.entry}; }));
  });

  function stage(files) {
    if (!files.length) return;
    report("", true);
    files.forEach(function (file) {
      var entry = makeEntry(file, "", true);
      mainList.appendChild(entry);
      staged.push({file: file, entry: entry});
    });
  }

  // -- the checklist: "Add files", "Upload a better one" and drops go straight to that item ----

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-upload-for]");
    if (!button || !root.contains(button)) return;
    event.preventDefault();  // the button's form is the way without script
    var item = button.closest("[data-item]");
    pickFor = {kind: button.getAttribute("data-upload-for"), slot: item ? item.getAttribute("data-item") : ""};
    picker.value = "";
    picker.click();
  });

  picker.addEventListener("change", function () {
    var files = Array.prototype.slice.call(picker.files);
    picker.value = "";
    if (files.length && pickFor) sendTo(files, pickFor.kind, pickFor.slot);
  });

  checklist.addEventListener("dragover", function (event) {
    var item = itemAt(event);
    if (!item || !hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    item.classList.add("is-over");
  });
  checklist.addEventListener("dragleave", function (event) {
    var item = itemAt(event);
    if (item && !item.contains(event.relatedTarget)) item.classList.remove("is-over");
  });
  checklist.addEventListener("drop", function (event) {
    var item = itemAt(event);
    if (!item || !hasFiles(event)) return;
    event.preventDefault();
    item.classList.remove("is-over");
    sendTo(Array.prototype.slice.call(event.dataTransfer.files), item.getAttribute("data-kind") || "",
           item.getAttribute("data-item"));
  });

  function sendTo(files, kind, slot) {
    send(files.map(function (file) {
      var entry = makeEntry(file, slot, false);
      listFor(slot).appendChild(entry);
      if (slot) placed.push(entry);
      return {file: file, kind: kind, entry: entry};
    }));
  }

  // -- sending: offer, transfer with progress, complete; a few at a time -----------------------

  function send(jobs) {
    jobs.forEach(function (job) { setState(job.entry, "queued", say("queued")); });
    Promise.all(jobs.map(function (job) {
      return new Promise(function (resolve) { job.done = resolve; waiting.push(job); });
    })).then(summarise);
    pump();
  }

  function pump() {
    while (running < PARALLEL && waiting.length) {
      var job = waiting.shift();
      running += 1;
      upload(job).then(function (job, ok) {
        running -= 1;
        job.done(ok);
        pump();
      }.bind(null, job));
    }
  }

  function upload(job) {
    var entry = job.entry;
    setState(entry, "uploading", say("uploading", {pct: 0}));
    // Several documents in one file goes the same way, offered with split=auto and no kind.
    var packet = job.kind === PACKET;
    var stored = api("/api/documents/uploads", {filename: job.file.name, content_type: contentType(job.file),
                                                size: job.file.size, kind: packet ? null : job.kind || null,
                                                split: packet ? "auto" : "none", workspace_id: workspaceId})
      .then(function (offer) {
        return transfer(offer.upload, job.file, entry).then(function () { return offer.document_id; });
      })
      .then(function (documentId) {
        setState(entry, "checking", say("checking"));
        return api("/api/documents/" + encodeURIComponent(documentId) + "/complete", {});
      });
    return stored
      .then(function (created) {
        entry.setAttribute("data-document", created.id);
        setState(entry, "done", say("done"));
        refresh();  // the row appears even if this page's socket is down
        return true;
      }, function (error) {
        setState(entry, "failed", say("failed", {message: explain(error, job.file)}));
        return false;
      });
  }

  function api(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": CSRF}
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.ok) return data;
        throw failure(response.status, data);
      });
    }, function () { throw {code: "network"}; });
  }

  // Straight to storage: a signed PUT (local storage, S3 PUT) or a POST policy form (S3 POST).
  function transfer(target, file, entry) {
    return new Promise(function (resolve, reject) {
      var method = (target.method || "PUT").toUpperCase();
      var bar = entry.querySelector("progress");
      var xhr = new XMLHttpRequest();
      var body = file;
      xhr.open(method, target.url);
      if (method === "POST") {
        body = new FormData();
        Object.keys(target.fields || {}).forEach(function (name) { body.append(name, target.fields[name]); });
        body.append("file", file);  // S3 wants the file last
      } else {
        Object.keys(target.headers || {}).forEach(function (name) { xhr.setRequestHeader(name, target.headers[name]); });
      }
      xhr.upload.onprogress = function (event) {
        if (!event.lengthComputable) return;
        var pct = Math.min(100, Math.round(event.loaded / event.total * 100));
        bar.value = pct;
        message(entry, say("uploading", {pct: pct}));
      };
      xhr.onload = function () {
        if (xhr.status >= 200 && xhr.status < 300) {
          bar.value = 100;
          resolve();
          return;
        }
        var data = {};
        try { data = JSON.parse(xhr.responseText); } catch (ignored) { /* S3 answers in XML */ }
        reject(failure(xhr.status, data));
      };
      xhr.onerror = xhr.onabort = xhr.ontimeout = function () { reject({code: "network"}); };
      xhr.send(body);
    });
  }

  function failure(status, data) {
    var error = (data && data.error) || {};
    return {status: status, code: error.code || (status === 401 ? "unauthenticated" : "http_" + status),
            message: error.message || ""};
  }

  function explain(error, file) {
    if (error.code === "network") return say("network");
    if (error.code === "unauthenticated") return say("signed_out");
    var translated = TEXT.errors[error.code];
    if (translated) {
      return translated.replace("{size}", megabytes(file.size)).replace("{max}", root.getAttribute("data-max-mb"));
    }
    return error.message || say("network");
  }

  function summarise(outcomes) {
    var ok = outcomes.filter(Boolean).length;
    var n = outcomes.length;
    if (ok === n) report(n === 1 ? say("summary_one") : say("summary_many", {n: n}), true);
    else if (ok === 0) report(say("summary_none"), false);
    else report(say("summary_some", {ok: ok, n: n, failed: n - ok}), false);
  }

  // -- the checklist follows the pushes ------------------------------------------------------

  function refresh() { htmx.trigger(checklist, "portal:refresh"); }

  // Every (re)opened socket and every pushed row: re-read the checklist, so item states follow rows.
  document.body.addEventListener("htmx:wsOpen", refresh);
  document.body.addEventListener("htmx:wsAfterMessage", refresh);

  // A refresh replaces the checklist's elements; a keyboard user must not lose their place.
  var focusedId = null;

  checklist.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement;
    focusedId = event.target === checklist && active && active.id && checklist.contains(active) ? active.id : null;
    var xhr = event.detail.xhr;
    if (event.target === checklist && xhr && xhr.responseURL && new URL(xhr.responseURL).pathname === "/login") {
      event.detail.shouldSwap = false;  // signed out meanwhile: go to the sign-in page, not into the list
      window.location.assign(xhr.responseURL);
    }
  });

  checklist.addEventListener("htmx:afterSwap", function (event) {
    if (event.target !== checklist) return;
    placed.forEach(function (entry) {
      var list = listFor(entry.getAttribute("data-slot"));
      if (entry.parentNode !== list) list.appendChild(entry);
    });
    sweep();
    var again = focusedId && document.getElementById(focusedId);
    if (again) again.focus({preventScroll: true});
    focusedId = null;
  });

  // An upload's line has done its job once its document's row shows a decision: the row says the rest.
  function sweep() {
    root.querySelectorAll("li.upload-done[data-document]").forEach(function (entry) {
      var row = document.getElementById("document-" + entry.getAttribute("data-document"));
      if (row && SETTLED[row.getAttribute("data-status")]) forget(entry);
      // A packet is shown as itself under the checklist's heading: its block says the rest.
      else if (document.getElementById("packet-" + entry.getAttribute("data-document"))) forget(entry);
    });
  }

  function forget(entry) {
    staged = staged.filter(function (s) { return s.entry !== entry; });
    placed = placed.filter(function (e) { return e !== entry; });
    entry.remove();
  }

  // Tell a screen reader when a document has been decided, not at every step on the way.
  document.body.addEventListener("htmx:oobAfterSwap", function (event) {
    var row = event.target;
    if (!row || !row.matches || !row.matches("tr[id^='document-']") || !SETTLED[row.getAttribute("data-status")]) return;
    sweep();
    var title = row.querySelector(".doc-name a");
    var status = row.querySelector("[data-testid=status]");
    announcer.textContent = (title ? title.textContent : "") + ": " + (status ? status.textContent : "");
  });

  // Server times are UTC; show them in the client's own time zone.
  var timeFormat = new Intl.DateTimeFormat(LANG === "de" ? "de-DE" : "en-GB", {dateStyle: "medium", timeStyle: "short"});
  htmx.onLoad(function (scope) {
    if (!scope.querySelectorAll) return;
    scope.querySelectorAll("time[datetime]").forEach(function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (!isNaN(moment)) time.textContent = timeFormat.format(moment);
    });
  });

  // A file dropped beside a drop target must not replace the page (the browser would open it).
  window.addEventListener("dragover", function (event) {
    if (hasFiles(event) && !event.defaultPrevented) {
      event.preventDefault();
      event.dataTransfer.dropEffect = "none";
    }
  });
  window.addEventListener("drop", function (event) { if (hasFiles(event)) event.preventDefault(); });

  window.addEventListener("beforeunload", function (event) {
    if (running || waiting.length) {
      event.preventDefault();
      event.returnValue = say("leave");
    }
  });

  // -- helpers ---------------------------------------------------------------------------------

  function makeEntry(file, slot, removable) {
    var id = "upload-" + (++counter);
    var entry = document.createElement("li");
    entry.className = "upload upload-ready";
    entry.setAttribute("data-slot", slot || "");
    entry.innerHTML = '<div class="upload-line"><label class="upload-name"></label><span class="upload-size"></span></div>' +
                      '<progress max="100" value="0"></progress><p class="upload-message"></p>';
    var label = entry.querySelector("label");
    label.htmlFor = id;
    label.textContent = file.name;
    entry.querySelector("progress").id = id;
    entry.querySelector(".upload-size").textContent = size(file.size);
    entry.setAttribute("data-name", file.name);
    message(entry, say("ready"));
    if (removable) addRemove(entry);
    return entry;
  }

  // Staged files can be taken off the list before sending; refused ones once their reason is read.
  function addRemove(entry) {
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "upload-remove";
    remove.setAttribute("aria-label", say("remove") + ": " + entry.getAttribute("data-name"));
    remove.textContent = "×";
    remove.addEventListener("click", function () {
      var item = entry.closest("[data-item]");
      var next = (item && item.querySelector("[data-upload-for]")) || input;
      forget(entry);
      next.focus();
    });
    entry.querySelector(".upload-line").appendChild(remove);
  }

  function setState(entry, state, text) {
    entry.className = "upload upload-" + state;
    message(entry, text);
    var line = entry.querySelector(".upload-message");
    if (state === "failed") {
      line.setAttribute("role", "alert");
      if (!entry.querySelector(".upload-remove")) addRemove(entry);
    } else {
      line.removeAttribute("role");
    }
  }

  function message(entry, text) { entry.querySelector(".upload-message").textContent = text; }

  function report(text, ok) {
    result.textContent = text;
    result.className = "upload-result" + (text ? (ok ? " is-ok" : " is-error") : "");
  }

  function listFor(slot) {
    var list = slot && checklist.querySelector('[data-uploads-for="' + slot + '"]');
    return list || mainList;
  }

  function itemAt(event) {
    return event.target.closest ? event.target.closest("[data-item]") : null;
  }

  function droppable(zone, onFiles) {
    zone.addEventListener("dragover", function (event) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
      zone.classList.add("is-over");
    });
    zone.addEventListener("dragleave", function (event) {
      if (!zone.contains(event.relatedTarget)) zone.classList.remove("is-over");
    });
    zone.addEventListener("drop", function (event) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      zone.classList.remove("is-over");
      onFiles(Array.prototype.slice.call(event.dataTransfer.files));
    });
  }

  function hasFiles(event) {
    var types = event.dataTransfer && event.dataTransfer.types;
    return !!types && Array.prototype.indexOf.call(types, "Files") >= 0;
  }

  function contentType(file) {
    var dot = file.name.lastIndexOf(".");
    var ending = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : "";
    return TYPES[ending] || file.type || "application/octet-stream";
  }

  function size(bytes) {
    return bytes < 1048576 ? Math.max(1, Math.round(bytes / 1024)) + " KB" : megabytes(bytes) + " MB";
  }

  function megabytes(bytes) {
    return (bytes / 1048576).toLocaleString(LANG === "de" ? "de-DE" : "en-GB",
                                            {minimumFractionDigits: 1, maximumFractionDigits: 1});
  }

  function say(key, values) {
    var text = TEXT[key] || key;
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }
})();
