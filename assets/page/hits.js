/*
 * hits.js: the words a search of the archive's index found, highlighted
 * in the entry its result opened (?targetId=&hl=words; see the archive's
 * indexsearch.js), with the page's own search highlight (search-hit), so
 * that the page's next search replaces them.
 *
 * Relies on: prologue.js (doc, byId); navigation.js (entryElement).
 */
  // ---- The archive search's words, highlighted in its entry ----------

  (function () {
    var q = new URLSearchParams(location.search), hl = q.get("hl"), target = q.get("targetId");
    if (!hl || target === null || !window.CSS || !CSS.highlights || typeof Highlight === "undefined") return;
    var words = hl.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 20), tries = 0;
    // The entry arrives with the conversation (pump): looked for until it
    // is there, for five seconds at most.
    function mark() {
      var el = byId.has(target) ? entryElement(byId.get(target)) : null;
      if (!el || !el.textContent) {
        if (++tries < 50) setTimeout(mark, 100);
        return;
      }
      var ranges = [], walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (var node = walker.nextNode(); node && ranges.length < 2000; node = walker.nextNode()) {
        var text = node.data.toLowerCase();
        words.forEach(function (w) {
          for (var at = text.indexOf(w); at >= 0 && ranges.length < 2000; at = text.indexOf(w, at + w.length)) {
            var rg = new Range();
            rg.setStart(node, at);
            rg.setEnd(node, at + w.length);
            ranges.push(rg);
          }
        });
      }
      CSS.highlights.set("search-hit", new Highlight(...ranges));
    }
    setTimeout(mark, 0);
  })();
