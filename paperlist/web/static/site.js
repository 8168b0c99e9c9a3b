// paperlist — conveniences only; every page works without this file.
// "/" focuses search, j/k move through results, l switches language, copy buttons, s stars the
// current paper into the reading list, x marks it seen (triage), u undoes,
// and search as you type (the server renders the results; we swap them in).
(function () {
  "use strict";
  var doc = document;
  doc.documentElement.classList.add("js");

  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  }

  // --- copy buttons: <button class="copy" data-copy="#selector" data-copied="Copied"> ---
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var ta = doc.createElement("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.className = "visually-hidden";
      doc.body.appendChild(ta);
      ta.select();
      var ok = doc.execCommand("copy");
      doc.body.removeChild(ta);
      if (ok) { resolve(); } else { reject(new Error("copy failed")); }
    });
  }

  function initCopy(root) {
    root.querySelectorAll("button.copy[data-copy]").forEach(function (btn) {
      btn.hidden = false;
      btn.addEventListener("click", function () {
        var target = doc.querySelector(btn.getAttribute("data-copy"));
        if (!target) { return; }
        var label = btn.textContent;
        copyText(target.textContent).then(function () {
          btn.textContent = btn.getAttribute("data-copied") || label;
          btn.classList.add("done");
          setTimeout(function () { btn.textContent = label; btn.classList.remove("done"); }, 1600);
        }, function () {
          var range = doc.createRange();
          range.selectNodeContents(target);
          var sel = window.getSelection();
          sel.removeAllRanges();
          sel.addRange(range);
        });
      });
    });
  }

  // --- search as you type ---
  function liveSearch(input, container, extra, keepUrl) {
    var form = input.form;
    var timer = null;
    var last = input.value;
    var pending = null;
    function run() {
      var q = input.value.trim();
      if (q === last.trim()) { return; }
      last = input.value;
      if (!q && keepUrl) { return; }
      var params = new URLSearchParams(new FormData(form));
      var pageUrl = form.action + "?" + params.toString();
      if (!q) { container.innerHTML = ""; return; }
      Object.keys(extra).forEach(function (k) { params.set(k, extra[k]); });
      params.set("fragment", "1");
      if (pending) { pending.abort(); }
      pending = new AbortController();
      fetch(form.action + "?" + params.toString(), { signal: pending.signal, headers: { "Accept": "text/html" } })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var parsed = new DOMParser().parseFromString(html, "text/html");
          container.replaceChildren.apply(container, Array.prototype.slice.call(parsed.body.childNodes));
          initCopy(container);
          foldFilters(container);
          initLists(container);
          if (keepUrl) { history.replaceState(null, "", pageUrl); }
        })
        .catch(function () { /* aborted or offline: the form still submits */ });
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(run, 220);
    });
  }

  // --- keyboard: "/" search, j/k results, Enter opens, l language ---
  var current = -1;
  function cards() { return doc.querySelectorAll("[data-nav]:not([hidden]), [data-rows] > ol > li:not([hidden])"); }
  function move(step) {
    var list = cards();
    if (!list.length) { return; }
    if (current >= 0 && list[current]) { list[current].classList.remove("nav-current"); }
    current = Math.max(0, Math.min(list.length - 1, current + step));
    var el = list[current];
    addButtons(el);
    el.classList.add("nav-current");
    var link = titleLink(el);
    if (link) { link.focus({ preventScroll: true }); }
    el.scrollIntoView({ block: "nearest" });
  }

  doc.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var active = doc.activeElement;
    if (e.key === "Escape" && typing(active)) { active.blur(); return; }
    if (e.key === "ArrowDown" && typing(active) && active.matches("[data-search-input]") &&
        doc.querySelector("[data-nav]")) {
      e.preventDefault(); move(1); return;                 // from the box into the live results
    }
    if (typing(active)) { return; }
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && active && active.closest("[data-nav], [data-rows] > ol > li, #hits")) {
      e.preventDefault(); move(e.key === "ArrowDown" ? 1 : -1); return;
    }
    if (e.key === "/") {
      var box = doc.querySelector("[data-search-input]");
      if (box) { e.preventDefault(); box.focus(); box.select(); }
    } else if (e.key === "j") {
      move(1);
    } else if (e.key === "k") {
      move(-1);
    } else if (e.key === "s") {
      var el = focused();
      if (el) { e.preventDefault(); toggleStar(el); }
    } else if (e.key === "x") {
      var card = focused();
      if (card && card.matches("[data-triage] [data-paper]")) { e.preventDefault(); markSeen(card, true); }
    } else if (e.key === "u") {
      e.preventDefault(); undoLast();
    } else if (e.key === "l") {
      var sw = doc.querySelector("a.lang-switch");
      if (sw) { window.location.href = sw.href; }
    }
  });

  // --- reading lists: star (s), triage (x seen, u undo), links remembered by this browser ---
  // A list lives on the server behind a private link; localStorage keeps the links this browser
  // knows (most recently used first) so that stars go to the last list opened.
  var LINKS = "paperlist.lists";
  var API = "/api/v1";
  var live = doc.getElementById("live");
  var lang = doc.body ? doc.body.getAttribute("data-lang") : "en";
  var starredIds = {};            // paper id -> true (in the current list)
  var seenIds = {};               // paper id -> true
  var seenCount = 0;
  var hideSeen = true;
  var undo = [];

  function t(key, vars) {
    var s = (live && live.getAttribute("data-t-" + key)) || key;
    Object.keys(vars || {}).forEach(function (k) { s = s.split("{" + k + "}").join(vars[k]); });
    return s;
  }
  function say(text) { if (live) { live.textContent = ""; setTimeout(function () { live.textContent = text; }, 30); } }
  function fmt(n) { try { return new Intl.NumberFormat(lang === "zh" ? "zh-CN" : "en").format(n); } catch (e) { return String(n); } }
  function links() {
    try { var xs = JSON.parse(window.localStorage.getItem(LINKS) || "[]"); return Array.isArray(xs) ? xs : []; }
    catch (e) { return []; }
  }
  function saveLinks(xs) { try { window.localStorage.setItem(LINKS, JSON.stringify(xs.slice(0, 50))); } catch (e) { /* private mode */ } }
  function remember(token, list, name) {
    var xs = links().filter(function (x) { return !(x.token === token && x.list === list); });
    xs.unshift({ token: token, list: list, name: name, at: Date.now() });
    saveLinks(xs);
  }
  function forget(token, list) { saveLinks(links().filter(function (x) { return !(x.token === token && x.list === list); })); }
  function active() { return links()[0] || null; }
  function api(method, path, body) {
    var opts = { method: method, cache: "no-store", credentials: "same-origin", referrerPolicy: "no-referrer", headers: {} };
    if (body !== undefined) { opts.headers["content-type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch(API + path, opts).then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); });
  }
  function ensureList() {
    var a = active();
    if (a) { return Promise.resolve(a); }
    return api("POST", "/lists", { name: t("default-list") }).then(function (s) {
      remember(s.token, s.lists[0].id, s.lists[0].name);
      say(t("started"));
      return active();
    });
  }
  // a card's title link; a compact row's (a whole conference-year list) is its own link
  function titleLink(el) { return el.querySelector(".card-title a, [data-rows] > ol > li > a"); }
  function titleOf(el) {
    var a = titleLink(el) || doc.querySelector("h1");
    return a ? a.textContent.trim() : "";
  }
  function setStar(btn, on) {
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.textContent = on ? "★" : "☆";
    btn.setAttribute("aria-label", (on ? t("unstar") : t("star")) + ": " + btn.getAttribute("data-title"));
    btn.title = on ? t("unstar") : t("star");
  }
  function toggleStar(el, record) {
    var pid = el.getAttribute("data-paper");
    if (pid) { addButtons(el); }
    var btn = el.querySelector(".star-btn");
    if (!pid || !btn) { return; }
    var on = !starredIds[pid];
    ensureList().then(function (a) {
      var path = "/lists/" + a.token + "/lists/" + a.list + "/papers/" + encodeURIComponent(pid);
      return api(on ? "PUT" : "DELETE", path).then(function () {
        if (on) { starredIds[pid] = true; } else { delete starredIds[pid]; }
        setStar(btn, on);
        if (record !== false) { undo.push({ kind: "star", el: el, on: on }); }
        say(on ? t("starred", { list: a.name || "", title: titleOf(el) }) : t("unstarred", { title: titleOf(el) }));
      });
    }).catch(function () { say(t("failed")); });
  }
  function triageBox(el) { return el.closest("[data-triage]"); }
  // a conference-year list's filters, so that the seen marks are counted among the papers it shows
  function viewQuery(box, sep) { var v = box && box.getAttribute("data-view"); return v ? sep + v : ""; }
  function progress() {
    doc.querySelectorAll("[data-triage]").forEach(function (box) {
      var bar = box.previousElementSibling;
      if (!bar || !bar.classList.contains("triage-bar")) { return; }
      var n = box.hasAttribute("data-venue") ? seenCount : box.querySelectorAll("[data-paper].is-seen").length;
      var total = box.hasAttribute("data-venue") ? Number(box.getAttribute("data-total") || 0) : box.querySelectorAll("[data-paper]").length;
      bar.querySelector(".triage-progress").textContent = t("progress", { seen: fmt(n), total: fmt(total) });
    });
  }
  function showSeen(el, seen) {
    el.classList.toggle("is-seen", seen);
    el.hidden = seen && hideSeen;
    var b = el.querySelector(".seen-btn");
    if (b) { b.setAttribute("aria-pressed", seen ? "true" : "false"); }
  }
  function markSeen(el, seen, record) {
    var pid = el.getAttribute("data-paper");
    if (!pid || !triageBox(el)) { return; }
    ensureList().then(function (a) {
      return api(seen ? "PUT" : "DELETE", "/lists/" + a.token + "/seen/" + encodeURIComponent(pid) + viewQuery(triageBox(el), "?")).then(function (marks) {
        var was = !!seenIds[pid];
        if (seen) { seenIds[pid] = true; } else { delete seenIds[pid]; }
        if (triageBox(el).hasAttribute("data-venue")) { seenCount = marks.listed != null ? marks.listed : marks.count; } else if (was !== seen) { seenCount += seen ? 1 : -1; }
        var at = Array.prototype.slice.call(cards()).indexOf(el);
        if (seen) {                      // x marks it seen and hides it, whatever "hide seen" says
          el.classList.remove("nav-current");
          showSeen(el, true);
          el.hidden = true;
        } else {
          showSeen(el, false);
        }
        if (record !== false) { undo.push({ kind: "seen", el: el, on: seen }); }
        progress();
        var bar = doc.querySelector(".triage-progress");
        say((seen ? t("marked", { title: titleOf(el) }) : t("unmarked", { title: titleOf(el) })) +
            (bar ? ". " + bar.textContent : ""));
        if (seen) { current = at - 1; } else { current = Array.prototype.slice.call(cards()).indexOf(el) - 1; }
        move(1);
      });
    }).catch(function () { say(t("failed")); });
  }
  function undoLast() {
    var last = undo.pop();
    if (!last) { say(t("nothing")); return; }
    if (last.kind === "star") { toggleStar(last.el, false); }
    else { markSeen(last.el, !last.on, false); }
  }
  function focused() {
    var list = cards();
    if (current >= 0 && list[current]) { return list[current]; }
    var here = doc.querySelector("[data-star-here]");
    return here || null;
  }
  // The star and seen buttons of a paper, cloned from one prototype; one delegated listener
  // (below) serves them all, so a 5,000-paper list costs no listener per paper.
  var proto = null;
  function addButtons(el) {
    if (!el.hasAttribute("data-paper") || el.querySelector(".star-btn")) { return; }
    if (!proto) {
      proto = doc.createElement("span");
      proto.className = "card-actions";
      var b = doc.createElement("button");
      b.type = "button";
      b.className = "star-btn";
      proto.appendChild(b);
      b = doc.createElement("button");
      b.type = "button";
      b.className = "seen-btn";
      b.textContent = t("seen");
      b.setAttribute("aria-pressed", "false");
      proto.appendChild(b);
    }
    var wrap = proto.cloneNode(true);
    var star = wrap.firstChild;
    var title = titleOf(el);
    star.setAttribute("data-title", title);
    setStar(star, !!starredIds[el.getAttribute("data-paper")]);
    if (triageBox(el)) {
      wrap.lastChild.setAttribute("aria-label", t("seen") + ": " + title);
      if (seenIds[el.getAttribute("data-paper")]) { wrap.lastChild.setAttribute("aria-pressed", "true"); }
    } else {
      wrap.removeChild(wrap.lastChild);
    }
    var meta = el.querySelector(".card-meta");
    if (meta) { meta.appendChild(wrap); } else { el.insertBefore(wrap, el.firstChild); }
  }
  doc.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest(".star-btn, .seen-btn") : null;
    var el = b && b.closest("[data-paper]");
    if (!el) { return; }
    if (b.classList.contains("star-btn")) { toggleStar(el); }
    else { markSeen(el, !seenIds[el.getAttribute("data-paper")]); }
  });
  // A compact row carries only its link: its paper id (for the seen and star marks) comes from
  // there; j/k move through its rows as through cards (cards() above).
  function initRows(root) {
    root.querySelectorAll("[data-rows] > ol > li:not([data-paper])").forEach(function (li) {
      var href = li.firstElementChild ? li.firstElementChild.getAttribute("href") || "" : "";
      var at = href.lastIndexOf("/papers/");
      if (at >= 0) { li.setAttribute("data-paper", decodeURIComponent(href.slice(at + 8))); }
    });
  }
  function initTriage(root) {
    root.querySelectorAll("[data-triage]").forEach(function (box) {
      if (box.previousElementSibling && box.previousElementSibling.classList.contains("triage-bar")) { return; }
      var bar = doc.createElement("div");
      bar.className = "triage-bar";
      var p = doc.createElement("span");
      p.className = "triage-progress";
      var label = doc.createElement("label");
      var cb = doc.createElement("input");
      cb.type = "checkbox";
      cb.className = "hide-seen";
      cb.checked = hideSeen;
      cb.addEventListener("change", function () {
        hideSeen = cb.checked;
        applySeen(doc);
        var a = active();
        if (a) { api("PUT", "/lists/" + a.token, { hide_seen: hideSeen }).catch(function () { say(t("failed")); }); }
      });
      label.appendChild(cb);
      label.appendChild(doc.createTextNode(" " + t("hide")));
      bar.appendChild(p);
      bar.appendChild(label);
      box.parentNode.insertBefore(bar, box);
    });
  }
  function applySeen(root) {
    root.querySelectorAll("[data-triage] [data-paper]").forEach(function (el) { showSeen(el, !!seenIds[el.getAttribute("data-paper")]); });
    doc.querySelectorAll("input.hide-seen").forEach(function (cb) { cb.checked = hideSeen; });
    progress();
  }
  function initLists(root) {
    initRows(root);
    // the first screenfuls' buttons now, the rest of a long list in small idle batches (a row that
    // j/k reaches, or that is starred or marked first, gets its buttons at once)
    var els = root.querySelectorAll("li[data-paper], [data-star-here]");
    var done = Math.min(els.length, 150);
    for (var i = 0; i < done; i++) { addButtons(els[i]); }
    var later = window.requestIdleCallback || function (f) { return setTimeout(f, 16); };
    (function batch() {
      if (done >= els.length) { return; }
      later(function () {
        for (var end = Math.min(els.length, done + 300); done < end; done++) { addButtons(els[done]); }
        batch();
      });
    })();
    initTriage(root);
    var a = active();
    if (!a) { progress(); return; }
    api("GET", "/lists/" + a.token + "/starred").then(function (s) {
      starredIds = {};
      Object.keys(s.papers).forEach(function (pid) { if (s.papers[pid].indexOf(a.list) >= 0) { starredIds[pid] = true; } });
      root.querySelectorAll(".star-btn").forEach(function (b) {
        var el = b.closest("[data-paper]");
        setStar(b, !!starredIds[el.getAttribute("data-paper")]);
      });
    }).catch(function (status) { if (status === 404) { forget(a.token, a.list); } });
    var box = root.querySelector("[data-triage]");
    if (!box) { return; }
    var q = box.hasAttribute("data-venue") ? "?venue=" + encodeURIComponent(box.getAttribute("data-venue")) + "&year=" + box.getAttribute("data-year") + viewQuery(box, "&") : "";
    Promise.all([api("GET", "/lists/" + a.token), api("GET", "/lists/" + a.token + "/seen" + q)]).then(function (r) {
      hideSeen = r[0].hide_seen;
      seenIds = {};
      r[1].ids.forEach(function (pid) { seenIds[pid] = true; });
      seenCount = r[1].listed != null ? r[1].listed : r[1].count;
      applySeen(root);
    }).catch(function () { /* the page works without its seen marks */ });
  }
  function initOwner() {
    var owner = doc.querySelector("[data-shelf]");
    if (owner) { remember(owner.getAttribute("data-shelf"), owner.getAttribute("data-list"), owner.getAttribute("data-list-name")); }
    var ul = doc.querySelector("[data-my-links]");
    if (!ul) { return; }
    doc.getElementById("my-links").hidden = false;
    var xs = links();
    if (!xs.length) { var li0 = doc.createElement("li"); li0.textContent = ul.getAttribute("data-empty"); ul.appendChild(li0); }
    xs.forEach(function (x) {
      var li = doc.createElement("li");
      var a = doc.createElement("a");
      a.href = (lang === "en" ? "/en" : "") + "/lists/" + x.token + "/" + x.list;
      a.rel = "noreferrer";
      a.textContent = x.name || x.list;
      var b = doc.createElement("button");
      b.type = "button";
      b.textContent = ul.getAttribute("data-forget");
      b.addEventListener("click", function () { forget(x.token, x.list); li.remove(); });
      li.appendChild(a);
      li.appendChild(doc.createTextNode(" "));
      li.appendChild(b);
      ul.appendChild(li);
    });
    var form = doc.querySelector("[data-open-link]");
    if (form) {
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var m = /\/lists\/([A-Za-z0-9_-]{32})(?:\/([0-9a-f]{16}))?/.exec(form.link.value);
        if (m) { window.location.href = (lang === "en" ? "/en" : "") + "/lists/" + m[1] + (m[2] ? "/" + m[2] : ""); }
      });
    }
  }

  // The filters are folded in the page (without script, a phone shows the results first); on
  // wide screens, where they sit beside the results, they open.
  function foldFilters(root) {
    if (!window.matchMedia("(max-width: 860px)").matches) {
      root.querySelectorAll("details.facets-box").forEach(function (d) { d.open = true; });
    }
  }

  doc.addEventListener("DOMContentLoaded", function () {
    initCopy(doc);
    foldFilters(doc);
    initOwner();
    initLists(doc);
    var results = doc.getElementById("results");
    var pageInput = doc.querySelector(".page-search [data-search-input]");
    if (results && pageInput) { liveSearch(pageInput, results, {}, true); }
    var live = doc.getElementById("live-results");
    var heroInput = doc.querySelector(".hero-search [data-search-input]");
    if (live && heroInput) { liveSearch(heroInput, live, { per_page: "8", preview: "1" }, false); }
  });
})();
