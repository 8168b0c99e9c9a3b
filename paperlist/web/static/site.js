// paperlist — conveniences only; every page works without this file.
// "/" focuses search, j/k move through results, l switches language, copy buttons,
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
  function cards() { return doc.querySelectorAll("[data-nav]"); }
  function move(step) {
    var list = cards();
    if (!list.length) { return; }
    if (current >= 0 && list[current]) { list[current].classList.remove("nav-current"); }
    current = Math.max(0, Math.min(list.length - 1, current + step));
    var el = list[current];
    el.classList.add("nav-current");
    var link = el.querySelector(".card-title a");
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
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && active && active.closest("[data-nav], #hits")) {
      e.preventDefault(); move(e.key === "ArrowDown" ? 1 : -1); return;
    }
    if (e.key === "/") {
      var box = doc.querySelector("[data-search-input]");
      if (box) { e.preventDefault(); box.focus(); box.select(); }
    } else if (e.key === "j") {
      move(1);
    } else if (e.key === "k") {
      move(-1);
    } else if (e.key === "l") {
      var sw = doc.querySelector("a.lang-switch");
      if (sw) { window.location.href = sw.href; }
    }
  });

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
    var results = doc.getElementById("results");
    var pageInput = doc.querySelector(".page-search [data-search-input]");
    if (results && pageInput) { liveSearch(pageInput, results, {}, true); }
    var live = doc.getElementById("live-results");
    var heroInput = doc.querySelector(".hero-search [data-search-input]");
    if (live && heroInput) { liveSearch(heroInput, live, { per_page: "8", preview: "1" }, false); }
  });
})();
