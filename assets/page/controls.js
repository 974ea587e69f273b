/*
 * controls.js: the sidebar's controls ("Filters and search"). The filter
 * buttons; the search box (applySearch: the workers answer once they are
 * ready, the page until then); and the matches highlighted in the
 * conversation (highlightSoon, highlightSearch).
 *
 * Relies on: prologue.js (doc, searchEl); store.js (main);
 * conversation.js (state); filter.js (filterFlags, hits, hitsTerms,
 * hitsExact, newQuery); search.js (searchPartial, setQuickTerms);
 * workers.js (finder, ask); tree.js (renderTree).
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
  // of a page still loading).
  searchEl.addEventListener("input", function () { applySearch(); });
  searchEl.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { searchEl.value = ""; applySearch(); }
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

