/*
 * controls.js: the sidebar's controls ("Filters and search"). The filter
 * buttons; the search box (applySearch: the workers answer once they are
 * ready, the page until then; Enter and Shift+Enter step through the
 * matches: stepMatch, matchButtons); the active leaf and folding every
 * branch; the sidebar's width (sideWidth: a separator, kept per session);
 * and the matches highlighted in the conversation (highlightSoon,
 * highlightSearch).
 *
 * Relies on: prologue.js (doc, root, n, kids, searchEl, treeEl, sidebar);
 * store.js (main); conversation.js (state, newestLeaf); navigation.js
 * (navigate); filter.js (filterFlags, hits, hitsTerms, hitsExact,
 * newQuery, matches, the row arrays, folded); search.js (searchPartial,
 * setQuickTerms); workers.js (finder, ask); tree.js (renderTree);
 * toolbar.js (on).
 */
  // ---- Filters and search -------------------------------------------

  doc.querySelectorAll("button[data-filter]").forEach(function (b) {
    b.addEventListener("click", function () {
      state.mode = b.getAttribute("data-filter");
      filterFlags();
      doc.querySelectorAll("button[data-filter]").forEach(function (o) {
        o.setAttribute("aria-pressed", o === b ? "true" : "false");
      });
      renderTree(state.selected >= 0 ? state.selected : state.leaf);
    });
  });

  // Each keystroke searches at once (a timer would wait behind the tasks
  // of a page still loading). Enter goes to the next match, Shift+Enter
  // to the previous one.
  searchEl.addEventListener("input", function () { applySearch(); });
  searchEl.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { searchEl.value = ""; applySearch(); }
    else if (ev.key === "Enter") { ev.preventDefault(); stepMatch(ev.shiftKey ? -1 : 1); }
  });

  // ---- Matches, the active leaf, folding, the sidebar's width ---------

  var prevButton = doc.getElementById("match-prev"), nextButton = doc.getElementById("match-next");
  function matchButtons(on) {
    if (prevButton && prevButton.disabled === on) { prevButton.disabled = !on; nextButton.disabled = !on; }
  }
  // stepMatch goes to the next (dir 1) or previous (-1) row the search
  // found, after the selected one, around the end.
  function stepMatch(dir) {
    if (!state.query.length || !rowCount) return;
    var from = state.selected >= 0 && rowIndex[state.selected] >= 0 ? rowIndex[state.selected] : dir > 0 ? -1 : rowCount;
    for (var k = 1; k <= rowCount; k++) {
      var pos = rowPos[((from + dir * k) % rowCount + rowCount) % rowCount];
      if (matches(pos)) { navigate(newestLeaf(pos), pos); return; }
    }
  }
  on("match-prev", function () { stepMatch(-1); });
  on("match-next", function () { stepMatch(1); });
  on("jump-leaf", function () {
    readView(); // the tree may have scrolled since its last scroll event
    navigate(state.leaf, state.leaf);
    treeEl.focus({ preventScroll: true });
  });
  on("collapse-all", function () {
    for (var i = 0; i < n; i++) if (kids[i] && kids[i].length > 1) folded[i] = 1;
    renderTree();
  });
  on("expand-all", function () {
    folded.fill(0);
    renderTree(state.selected >= 0 ? state.selected : state.leaf);
  });

  // The sidebar's width: a separator dragged, or moved with the arrow
  // keys; kept for this session's page (when storage is allowed).
  var widthKey = "canopy-sidebar-width:" + (sidebar.getAttribute("data-session") || location.pathname);
  var resizer = doc.createElement("div");
  resizer.id = "side-resize";
  resizer.tabIndex = 0;
  resizer.setAttribute("role", "separator");
  resizer.setAttribute("aria-orientation", "vertical");
  resizer.setAttribute("aria-label", "Width of the tree");
  resizer.setAttribute("aria-controls", "sidebar");
  resizer.setAttribute("aria-valuemin", "200");
  sidebar.appendChild(resizer);
  // The width is a rule added to the page's stylesheet (no style
  // attribute: the page's elements have none outside the tree).
  var widthRule = null;
  function sideWidth(w, keep) {
    var max = Math.max(200, Math.round(innerWidth * 0.75));
    w = Math.round(Math.max(200, Math.min(max, w)));
    if (!widthRule) {
      var sheet = doc.styleSheets[0];
      widthRule = sheet.cssRules[sheet.insertRule("#sidebar {}", sheet.cssRules.length)];
    }
    widthRule.style.setProperty("--side-w", w + "px");
    resizer.setAttribute("aria-valuemax", String(max));
    resizer.setAttribute("aria-valuenow", String(w));
    if (keep) { try { localStorage.setItem(widthKey, String(w)); } catch (e) { /* not kept: fine */ } }
    return w;
  }
  (function () {
    var kept = null;
    try { kept = localStorage.getItem(widthKey); } catch (e) { /* storage refused */ }
    sideWidth(kept && +kept > 0 ? +kept : 400, false);
  })();
  resizer.addEventListener("pointerdown", function (ev) {
    ev.preventDefault();
    resizer.setPointerCapture(ev.pointerId);
    var left = sidebar.getBoundingClientRect().left, queued = false, x = ev.clientX;
    function move(e) {
      x = e.clientX;
      if (queued) return;
      queued = true;
      requestAnimationFrame(function () { queued = false; sideWidth(x - left, false); });
    }
    function up() {
      resizer.removeEventListener("pointermove", move);
      resizer.removeEventListener("pointerup", up);
      resizer.removeEventListener("pointercancel", up);
      sideWidth(x - left, true);
    }
    resizer.addEventListener("pointermove", move);
    resizer.addEventListener("pointerup", up);
    resizer.addEventListener("pointercancel", up);
  });
  resizer.addEventListener("keydown", function (ev) {
    var w = +resizer.getAttribute("aria-valuenow");
    if (ev.key === "ArrowLeft") w -= 20;
    else if (ev.key === "ArrowRight") w += 20;
    else if (ev.key === "Home") w = 200;
    else if (ev.key === "End") w = Infinity;
    else return;
    ev.preventDefault();
    sideWidth(w, true);
  });
  function applySearch() {
    searchPartial = false;
    state.query = searchEl.value.toLowerCase().split(/\s+/).filter(Boolean);
    setQuickTerms();
    if (finder && finder.ready && state.query.length) {
      // The workers answer; until then the tree shows the last answer, and
      // the search box says it is busy.
      searchEl.setAttribute("aria-busy", "true");
      ask(state.query, function (answer) {
        searchEl.removeAttribute("aria-busy");
        hits = answer;
        hitsTerms = state.query.slice();
        hitsExact = true;
        renderTree();
        highlightSoon();
      });
      return;
    }
    if (finder) { finder.seq++; searchEl.removeAttribute("aria-busy"); } // no answer is awaited
    newQuery();
    renderTree();
    highlightSoon();
  }

  // Matches are highlighted with the CSS Custom Highlight API: no change to
  // the conversation's DOM. After a search, once the tree has been drawn
  // and the browser has a moment (the tree first: it answers the search;
  // then its words in the conversation, once for a burst of keystrokes).
  var highlightQueued = false;
  function highlightSoon() {
    if (highlightQueued) return;
    highlightQueued = true;
    var run = function () { highlightQueued = false; highlightSearch(); };
    if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 150 });
    else setTimeout(run, 50);
  }
  function highlightSearch() {
    if (!window.CSS || !CSS.highlights || typeof Highlight === "undefined") return;
    CSS.highlights.delete("search-hit");
    if (!state.query.length || !main) return;
    var ranges = [], walker = doc.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node && ranges.length < 5000; node = walker.nextNode()) {
      var text = node.data.toLowerCase();
      state.query.forEach(function (q) {
        for (var at = text.indexOf(q); at >= 0 && ranges.length < 5000; at = text.indexOf(q, at + q.length)) {
          var rg = new Range();
          rg.setStart(node, at);
          rg.setEnd(node, at + q.length);
          ranges.push(rg);
        }
      });
    }
    CSS.highlights.set("search-hit", new Highlight(...ranges));
  }

