/* Runecodex: open <details> for printing; on the search page, use the web app's /api/search when the
   site is served by the web app (same origin), else leave Sphinx's offline search alone. */
(function () {
  "use strict";

  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) {
      if (!d.open) { d.open = true; d.dataset.rcPrinted = "1"; }
    });
  });
  window.addEventListener("afterprint", function () {
    document.querySelectorAll("details[data-rc-printed]").forEach(function (d) {
      d.open = false; delete d.dataset.rcPrinted;
    });
  });

  function siteRoot() {
    var root = document.documentElement.dataset.content_root;
    if (root === undefined && window.DOCUMENTATION_OPTIONS) { root = DOCUMENTATION_OPTIONS.URL_ROOT; }
    return root || "";
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function where(source) {
    if (!source) { return ""; }
    var parts = [source.doc];
    if (source.page) { parts.push("p. " + source.page); }
    if (source.section) { parts.push(source.section); }
    if (source.paragraph) { parts.push(source.paragraph); }
    return parts.join(", ");
  }

  function render(box, data, ids, query) {
    box.textContent = "";
    var head = el("p", "rc-hit-where", "");
    head.textContent = data.total + " result" + (data.total === 1 ? "" : "s") +
      " for \u201c" + query + "\u201d (Runecodex search)";
    box.appendChild(head);
    (data.hits || []).forEach(function (hit) {
      var item = el("div", "rc-hit");
      var title = el("a", "rc-hit-title", hit.title || hit.id);
      title.href = ids[hit.id] ? siteRoot() + ids[hit.id] : "#";
      item.appendChild(title);
      item.appendChild(el("span", "rc-hit-where", "  " + hit.id + " \u00b7 " + where(hit.source)));
      if (hit.snippet) {
        /* snippets are shown as text, never as markup */
        item.appendChild(el("p", "rc-hit-snippet", hit.snippet.replace(/<[^>]*>/g, "")));
      }
      box.appendChild(item);
    });
  }

  /* A paragraph id typed into search ("rwm.10.4", "ra.a-player-s-turn.4", with or without a leading "§")
     goes straight to that paragraph: Sphinx's own search splits such ids at the dots and finds nothing. */
  function idJump(query) {
    var id = query.replace(/^§\s*/, "").trim().toLowerCase();
    if (!/^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/.test(id) || !window.fetch) { return Promise.resolve(false); }
    return fetch(siteRoot() + "ids.json").then(function (r) { return r.ok ? r.json() : {}; }).then(function (ids) {
      if (ids && ids[id]) { window.location.replace(siteRoot() + ids[id]); return true; }
      return false;
    }).catch(function () { return false; });
  }

  function apiSearch() {
    var params = new URLSearchParams(window.location.search);
    var query = (params.get("q") || "").trim();
    var target = document.getElementById("search-results");
    if (!query || !target || !window.fetch) { return; }
    idJump(query).then(function (jumped) { if (!jumped) { searchApi(query, target); } });
  }

  function searchApi(query, target) {
    var url = "/api/search?limit=30&q=" + encodeURIComponent(query);
    fetch(url, { headers: { Accept: "application/json" } })
      .then(function (resp) {
        var type = resp.headers.get("Content-Type") || "";
        if (!resp.ok || type.indexOf("json") < 0) { throw new Error("no api"); }
        return resp.json();
      })
      .then(function (data) {
        if (!data || !Array.isArray(data.hits)) { throw new Error("not the search api"); }
        return fetch(siteRoot() + "ids.json").then(function (r) { return r.json(); }).then(function (ids) {
          var box = document.getElementById("rc-api-results") || el("div");
          box.id = "rc-api-results";
          target.parentNode.insertBefore(box, target);
          target.hidden = true;
          render(box, data, ids, query);
          document.documentElement.dataset.rcSearch = "api";
        });
      })
      .catch(function () {
        document.documentElement.dataset.rcSearch = "sphinx";
      });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", apiSearch);
  } else {
    apiSearch();
  }
})();
