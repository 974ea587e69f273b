/*
 * keys-indexing.js: the page's keys (t, o and /; the tree's own are in
 * tree.js), then the search text made ready in the background:
 * buildIndex, the page's exact text of every entry (where there are no
 * workers), while the browser is idle; prepare and prepareSoon, the
 * quick search's text of the store's chunks, 8 ms at a time.
 *
 * Relies on: prologue.js (doc, n, searchEl); store.js (main, storeDone,
 * storeFailed); conversation.js (state); search.js (hay, lowChunk,
 * lowChunks, cardAt); workers.js (finder, seal); controls.js (applySearch); toolbar.js
 * (toggleThinking, toggleOutputs).
 */
  doc.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA"))) return;
    if (ev.key === "t") toggleThinking();
    else if (ev.key === "o") toggleOutputs();
    else if (ev.key === "/") { ev.preventDefault(); searchEl.focus(); }
  });

  // The search text of every entry is gathered while the browser is idle
  // once everything has arrived (see pump), so that the first keystroke
  // finds it ready; a slice at most 8 ms long at a time (longer slices
  // delayed the frames of clicks and filters).
  var indexed = 0;
  function buildIndex(deadline) {
    var t0 = performance.now();
    while (indexed < n && (deadline.didTimeout ? performance.now() - t0 < 8 : deadline.timeRemaining() > 2)) hay(indexed++);
    if (indexed < n) requestIdleCallback(buildIndex, { timeout: 1000 });
    else {
      lowChunks = cardAt = null; // the quick search is done with
      searchEl.setAttribute("data-index", "page"); // for tests and benchmarks
      if (state.query.length) applySearch();
    }
  }
  // The quick search's text: the conversation's chunks are made ready as
  // they arrive (see pump), the store's (complete before the conversation
  // begins) once the first entries are shown and the store is unpacked
  // (storeDone; see loadStore), in slices of at most 8 ms
  // (idle callbacks came too late: the first keystroke did the work).
  var preparing = false, prepStore = null;
  function prepare() {
    preparing = false;
    if (!lowChunks) return;
    var t0 = performance.now();
    while (prepStore.length && performance.now() - t0 < 8) lowChunk(prepStore.shift());
    if (finder) seal();
    prepareSoon();
  }
  function prepareSoon() {
    if (preparing || !lowChunks || !main || !storeDone) return;
    if (!prepStore) prepStore = storeFailed ? [] : Array.prototype.slice.call(doc.querySelectorAll("#store > script[data-i]"));
    if (!prepStore.length) { if (finder) seal(); return; }
    preparing = true;
    setTimeout(prepare, 0);
  }

