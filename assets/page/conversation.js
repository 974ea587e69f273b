/*
 * conversation.js: the conversation. First the state that every part
 * reads and writes (state: leaf, target, selected, focus, mode, query,
 * hideSilent; sessionLeaf; onPath; expandOutputs), the copy-link buttons
 * and the names each entry is given (decorate, readable, foldSummary),
 * pathTo and newestLeaf. Then the window
 * of entries that have elements (shown[lo..hi), grown at its edges by an
 * IntersectionObserver: setView, spanEnd, spanStart, availEnd); the path
 * to the leaf (setPath, pathList, pathAt, samePrefix); showPath and
 * tryShow, which wait (pending) for entries that have not arrived; and
 * pump, which takes in the chunks as the parser adds them (watcher), and
 * settled, once everything has arrived.
 *
 * Relies on: prologue.js (doc, T, n, P, FL, CONV, NEST, F_EMBEDDED, kids); store.js
 * (main, edgeTop, edgeEnd, the chunks, loaded, storeDone, storeFailed,
 * NO_STORE, loadStore, loadStoreSoon, complete, pathIdx, storeLoc,
 * available, htmlOf, elements, elementsFor); navigation.js (notice);
 * search.js (lowChunks, lowChunk, searchPartial); workers.js (finder,
 * startFinderSoon, seal); controls.js (applySearch, highlightSearch);
 * toolbar.js (onConvClick); keys-indexing.js (buildIndex, prepareSoon).
 */
  var state = { leaf: T.leaf, target: -1, selected: -1, focus: -1, mode: "default", query: [], hideSilent: false };
  var sessionLeaf = T.leaf;
  var onPath = new Uint8Array(n);
  var expandOutputs = false;

  // decorate adds the copy-link buttons (they need the script, so the
  // script makes them: the page stays smaller).
  function decorate(el) {
    addLinkButton(el.firstElementChild, "Copy a link to this entry");
    el.querySelectorAll(".tool[id]").forEach(function (card) {
      addLinkButton(card.firstElementChild, "Copy a link to this result");
    });
    // A subagent's entries, drawn in the card of the call that ran it.
    if (NEST) el.querySelectorAll("details.subagent article.entry, details.records article.entry").forEach(function (a) {
      addLinkButton(a.firstElementChild, "Copy a link to this entry");
      nameEntry(a, 3);
      if (/\bk-(compaction|branch-summary)\b/.test(a.className)) foldSummary(a);
    });
    readable(el);
  }
  // readable names what a screen reader or a keyboard meets in an entry:
  // the entry (an article named by its heading), its heading, the blocks
  // that scroll sideways (reachable by Tab), task-list boxes and pictures;
  // and makes a summary's text a fold below the card's title.
  function readable(el) {
    var title = nameEntry(el, 2);
    // One walk over the entry's elements of interest (a click builds a
    // window of entries at once).
    var found = el.querySelectorAll("pre, .diff-wrap, .md table, a[href], input[type=checkbox], img.image");
    var pics = 0, pic = 0, i;
    for (i = 0; i < found.length; i++) if (found[i].tagName === "IMG") pics++;
    for (i = 0; i < found.length; i++) {
      var b = found[i], tag = b.tagName;
      if (tag === "A") { // a link with no text is named by its address
        if (!b.textContent.trim() && !b.querySelector("img[alt]")) b.setAttribute("aria-label", b.getAttribute("href"));
      } else if (tag === "INPUT") {
        b.setAttribute("aria-label", b.checked ? "done" : "not done");
      } else if (tag === "IMG") {
        b.alt = "Picture " + (pics > 1 ? ++pic + " of " + pics + " " : "") + "in " + (title ? title.textContent : "this entry");
      } else { // blocks that scroll sideways: reachable by Tab
        b.tabIndex = 0;
        if (tag !== "TABLE") {
          b.setAttribute("role", "group");
          b.setAttribute("aria-label", b.className.indexOf("command") >= 0 ? "Command" : b.className.indexOf("diff") >= 0 ? "Changes" : "Code");
        }
      }
    }
    if (/\bk-(compaction|branch-summary)\b/.test(el.className)) foldSummary(el);
  }
  // nameEntry names an entry's article by its heading, a heading of the
  // level given, and returns the heading.
  function nameEntry(el, level) {
    var head = el.firstElementChild, title = head && head.firstElementChild;
    if (title && title.tagName === "B") {
      title.setAttribute("role", "heading");
      title.setAttribute("aria-level", String(level));
      var time = head.querySelector("time");
      el.setAttribute("aria-label", title.textContent + (time && time.textContent ? ", " + time.textContent : ""));
    }
    return title;
  }
  // foldSummary puts a compaction's or a branch summary's text in a fold
  // (open) and ranks its headings below the card's title.
  function foldSummary(el) {
    var md = el.querySelector(":scope > .md");
    if (!md) return;
    md.querySelectorAll("h1, h2, h3, h4, h5, h6").forEach(function (h) {
      h.setAttribute("aria-level", String(Math.min(6, +h.tagName.charAt(1) + 2)));
    });
    var fold = doc.createElement("details"), sum = doc.createElement("summary");
    fold.className = "summary-fold";
    fold.open = true;
    sum.textContent = "Summary";
    md.replaceWith(fold);
    fold.appendChild(sum);
    fold.appendChild(md);
  }
  function addLinkButton(head, label) {
    if (!head) return;
    var b = doc.createElement("button");
    b.type = "button";
    b.className = "copy-link";
    b.title = label;
    b.setAttribute("aria-label", label);
    b.textContent = "link";
    head.appendChild(b);
  }

  function pathTo(pos) {
    var path = [];
    for (var p = pos, guard = 0; p >= 0 && guard <= n; p = P[p], guard++) path.push(p);
    return path.reverse();
  }

  // newestLeaf follows the newest child down; from a call that ran a
  // subagent, the newest that goes on in the call's own conversation.
  function newestLeaf(pos) {
    while (kids[pos]) {
      var k = kids[pos], c = k.length - 1;
      if (CONV) while (c > 0 && CONV[k[c]] !== CONV[pos]) c--;
      pos = k[c];
    }
    return pos;
  }

  // The conversation shows the entries of the path to a leaf (shown, in
  // order). A long one has elements only for a window of them, shown[lo..hi):
  // the window grows by STEP entries as the reader scrolls near one of its
  // edges (the sentinels #conv-top and #conv-end, watched by an
  // IntersectionObserver), so that opening and navigating cost the same at
  // any length. A path of at most EAGER entries is shown whole.
  var EAGER = 2000, EAGER_BYTES = 2e6, STEP = 24, BEFORE = 3, JUMP = 10, SPAN_BYTES = 15e5;
  var shown = [], lo = 0, hi = 0;
  var edges = window.IntersectionObserver ? new IntersectionObserver(function (list) {
    list.forEach(function (e) {
      if (!e.isIntersecting || pending) return;
      var end = availEnd(shown);
      if (e.target === edgeEnd && hi < end) setView(shown, lo, spanEnd(shown, hi, end));
      else if (e.target === edgeTop && lo > 0) setView(shown, spanStart(shown, lo, STEP), hi);
      else return;
      if (state.query.length) highlightSearch();
      askEdge(e.target); // while the edge stays near the view, the window grows
    });
  }, { rootMargin: "1500px 0px" }) : null;
  function askEdge(el) {
    if (!edges || !el) return;
    edges.unobserve(el);
    edges.observe(el);
  }
  // A printed page holds the whole conversation.
  window.addEventListener("beforeprint", function () {
    if (!pending && (lo > 0 || hi < shown.length)) setView(shown, 0, availEnd(shown));
  });

  // spanEnd is where a window growing from list[from] ends: STEP entries,
  // fewer if their HTML passes SPAN_BYTES (pictures), at least one, at most
  // limit. spanStart is where one growing back from list[to] starts.
  function spanEnd(list, from, limit, count) {
    var k = from, bytes = 0;
    count = count || STEP;
    while (k < limit && k - from < count && bytes <= SPAN_BYTES) bytes += (htmlOf(list[k++]) || "").length;
    return k;
  }
  function spanStart(list, to, count) {
    var k = to, bytes = 0;
    while (k > 0 && to - k < count && bytes <= SPAN_BYTES) bytes += (htmlOf(list[--k]) || "").length;
    return k;
  }
  function bytesOf(list, from, to) {
    var bytes = 0;
    for (var k = from; k < to; k++) bytes += (htmlOf(list[k]) || "").length;
    return bytes;
  }

  // availEnd is how many entries at the start of list have arrived: they
  // arrive in path order (the store, then the server's path in order), so
  // a binary search finds it.
  function availEnd(list) {
    var a = 0, b = list.length;
    while (a < b) {
      var m = (a + b) >> 1;
      if (available(list[m])) a = m + 1; else b = m;
    }
    return a;
  }

  // setView makes the conversation want[wlo..whi). Elements of the window
  // that keep their place (the shared beginning of the old and new path)
  // stay in the document, untouched.
  function setView(want, wlo, whi) {
    var same = samePrefix(shown, want);
    var klo = Math.max(lo, wlo), khi = Math.min(hi, whi, same), i;
    if (klo >= khi) {
      for (i = lo; i < hi; i++) removeShown(shown[i]);
      insert(elementsFor(want.slice(wlo, whi)), null);
    } else {
      for (i = lo; i < klo; i++) removeShown(shown[i]);
      for (i = khi; i < hi; i++) removeShown(shown[i]);
      insert(elementsFor(want.slice(wlo, klo)), elements.get(want[klo]));
      insert(elementsFor(want.slice(khi, whi)), null);
    }
    shown = want;
    lo = wlo;
    hi = whi;
  }
  function insert(els, before) {
    if (!els.length) return;
    var frag = doc.createDocumentFragment();
    els.forEach(function (el) { frag.appendChild(el); });
    main.insertBefore(frag, before);
  }
  function removeShown(pos) {
    var el = elements.get(pos);
    if (el && el.parentNode === main) el.remove();
  }

  // The path to pathLeaf: onPath marks its entries, pathList holds those
  // the conversation shows (not the ones embedded in a call's card) in
  // order, and pathAt[pos] is a listed entry's index in it. setPath makes
  // the path to a new leaf from the old one: only the entries below the
  // point where the two part are walked, so that a click costs the same on
  // a path of 50,000 entries as on one of 50. A new list remembers the
  // one it was made from (base) and how many entries it kept of it.
  var pathLeaf = -1, pathList = [], pathAt = new Int32Array(n);
  function setPath(leaf) {
    var fresh = [], p = leaf;
    for (var guard = 0; p >= 0 && !onPath[p] && guard <= n; p = P[p], guard++) fresh.push(p);
    // p is where the new path joins the old one (-1: nowhere).
    for (var q = pathLeaf; q >= 0 && q !== p && onPath[q]; q = P[q]) onPath[q] = 0;
    var a = p;
    while (a >= 0 && (FL[a] & F_EMBEDDED)) a = P[a];
    var kept = a >= 0 ? pathAt[a] + 1 : 0, list = pathList.slice(0, kept);
    for (var i = fresh.length - 1; i >= 0; i--) {
      var pos = fresh[i];
      onPath[pos] = 1;
      if (!(FL[pos] & F_EMBEDDED)) pathAt[pos] = list.push(pos) - 1;
    }
    pathList.base = null; // one step back is all samePrefix uses
    list.base = pathList;
    list.kept = kept;
    pathList = list;
    pathLeaf = leaf;
  }
  // samePrefix is how many entries the lists a and b share at their start.
  function samePrefix(a, b) {
    if (a === b) return a.length;
    if (b.base === a) return b.kept; // b's next entry, if any, is not on a's path
    var same = 0;
    while (same < a.length && same < b.length && a[same] === b[same]) same++;
    return same;
  }

  // showPath puts the conversation for the path to leaf on screen, its
  // window around the entry of focus (a position; -1: the beginning), then
  // calls then(). Until the entries it needs have arrived, it waits
  // (pending), the conversation unchanged.
  var pending = null;
  function showPath(leaf, focus, then) {
    state.leaf = leaf;
    setPath(leaf);
    // A result drawn in its call's card is found in the caller's entry.
    var f = focus;
    while (f >= 0 && (FL[f] & F_EMBEDDED)) f = P[f];
    pending = { leaf: leaf, focus: focus, then: then };
    tryShow(pathList, f >= 0 && onPath[f] ? pathAt[f] : -1);
  }
  function tryShow(want, at) {
    if (!main || !pending) return;
    // A path into a branch (its leaf is not on the server's path) needs
    // the store: unpacked now, if it is not yet.
    if (want.length && pathIdx[want[want.length - 1]] < 0) loadStore();
    var end = availEnd(want), wlo = 0, whi = want.length;
    // A short conversation is shown whole, once it has arrived.
    if (!edges || (want.length <= EAGER && bytesOf(want, 0, end) <= EAGER_BYTES)) {
      if (end < want.length && !complete()) return;
    } else if (at < 0) {
      if (end < 1 && !complete()) return;
      whi = spanEnd(want, 0, end);
    } else {
      if (end <= at && !complete()) return;
      if (at >= lo && at < hi && samePrefix(shown, want) >= hi) {
        wlo = lo; // the entry is in the window, which stays as it is
        whi = hi;
      } else {
        // A jump: a small window (the edges grow it in the next frames).
        wlo = spanStart(want, at, BEFORE);
        whi = spanEnd(want, at, end, JUMP);
      }
    }
    var then = pending.then;
    pending = null;
    // An entry off the server's path (the store's, which this browser
    // could not unpack) ends the list: the reader is told why the
    // conversation stops short.
    if (storeFailed && want.length && pathIdx[want[want.length - 1]] < 0) notice(NO_STORE);
    setView(want, wlo, Math.min(whi, end));
    highlightSearch();
    startFinderSoon();
    loadStoreSoon();
    if (then) then();
  }
  function retryPending() {
    if (!pending) return;
    var p = pending;
    showPath(p.leaf, p.focus, p.then);
  }

  // pump takes in what the parser has added: #conversation, the chunks
  // that are complete (the next one has begun, or the conversation has
  // ended), then everything once the document is parsed.
  function pump() {
    if (loaded) return;
    var done = doc.readyState !== "loading";
    if (!main) {
      main = doc.getElementById("conversation");
      if (!main) return;
      liveChunks = main.getElementsByTagName("noscript");
      edgeTop = doc.getElementById("conv-top");
      askEdge(edgeTop);
      main.addEventListener("click", onConvClick);
    }
    if (!edgeEnd && (edgeEnd = doc.getElementById("conv-end"))) askEdge(edgeEnd);
    var closed = done || !!edgeEnd;
    var have = closed ? liveChunks.length : liveChunks.length - 1;
    var grew = have > pathChunks.length;
    for (var i = pathChunks.length; i < have; i++) {
      pathChunks.push(liveChunks[i]);
      chunkAt.push(+liveChunks[i].getAttribute("data-at"));
      // The quick search's text, made ready as each chunk arrives (a few
      // ms a megabyte): a search while the page loads finds it ready.
      if (lowChunks) lowChunk(liveChunks[i]);
    }
    pathEnd = closed ? n : have >= 0 ? +liveChunks[have].getAttribute("data-at") : 0;
    if (closed) {
      loaded = true;
      if (watcher) watcher.disconnect();
      pathChunks.forEach(function (c) { c.remove(); });
      // The store's index, made while the page is idle: a click needs it.
      if (window.requestIdleCallback) requestIdleCallback(function () { storeLoc(-1); }, { timeout: 1000 });
      else setTimeout(function () { storeLoc(-1); }, 0);
      if (storeDone) settled();
      else loadStore(); // if nothing has asked for it yet (storeArrived settles)
    }
    if (grew || closed) {
      retryPending();
      askEdge(edgeEnd);
      prepareSoon();
    }
  }
  var watcher = window.MutationObserver ? new MutationObserver(pump) : null;
  // settled: every entry has arrived that ever will, the conversation's
  // (loaded) and the store's (storeDone), whichever came last. A search
  // made while they arrived runs again; the exact search text is made.
  function settled() {
    if (state.query.length && searchPartial) applySearch();
    if (finder) { startFinderSoon(); seal(); }
    else if (window.requestIdleCallback) requestIdleCallback(buildIndex, { timeout: 1000 });
  }

