// Canopy page script: the sidebar tree (virtualized: only rows in view are
// in the DOM), filter modes, search, deep links (?leafId=&targetId=),
// switching the conversation between branches, and the toolbar. The page
// is readable without it; everything here is progressive.
(function () {
  "use strict";
  var doc = document, root = doc.documentElement;
  root.classList.add("js");

  // Row flags, as written by the Go side (render/view.go).
  var F_SETTINGS = 1, F_TOOL = 2, F_USER = 4, F_EMPTY = 8, F_EMBEDDED = 16, F_SILENT = 32;
  var ROW_H = 20;

  var T = JSON.parse(doc.getElementById("tree-data").textContent);
  var n = T.id.length, P = T.p, FL = T.f, TXT = T.t, KIND = T.k, LBL = T.l || {};
  var byId = new Map();
  for (var i = 0; i < n; i++) byId.set(T.id[i], i);
  // An entry's element has the id "entry-" + domId(id): HTML holds no NUL
  // and reads CR LF and CR as LF (render.domID writes ids so). byDomId
  // maps the ids that this changes back to their entries.
  var byDomId = new Map();
  function domId(id) {
    return /[\r\0]/.test(id) ? id.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD") : id;
  }
  for (i = 0; i < n; i++) if (/[\r\0]/.test(T.id[i])) byDomId.set(domId(T.id[i]), i);
  // The search text's readers (searchTexts, below).
  var texts = searchTexts(), plainText = texts.plainText, attrEscape = texts.attrEscape;
  function posOfElement(el) { // el: an element whose id is "entry-<id>"
    var id = el.id.slice(6);
    return byDomId.has(id) ? byDomId.get(id) : byId.get(id);
  }
  var kids = new Array(n);
  for (i = 0; i < n; i++) if (P[i] >= 0) (kids[P[i]] || (kids[P[i]] = [])).push(i);

  var treeEl = doc.getElementById("tree");
  var statusEl = doc.getElementById("tree-status");
  var searchEl = doc.getElementById("tree-search");
  var noticeEl = doc.getElementById("notice");
  var sidebar = doc.getElementById("sidebar");

  // Entries' HTML. This script runs before the entries have arrived: the
  // page gives the tree, this script, then the store (every entry off the
  // session's active path, in inert <script type="text/x-canopy"
  // data-i="positions"> chunks), then #conversation (the active path, in
  // <noscript> chunks, each with the path index of its first entry in
  // data-at (at most 512 entries or about 1 MB): without JavaScript the browser shows
  // them; with it they are raw text, read in a fraction of the time their
  // elements would take to build). pump() takes in chunks as they complete;
  // what needs an entry that has not arrived waits for it. Elements are
  // built only for the entries the conversation shows in its window (see
  // setView), and kept.
  var main = null, edgeTop = null, edgeEnd = null;
  // pathChunks: the complete chunks; chunkAt: their first entries; pathEnd:
  // how many entries of the path they hold.
  var pathChunks = [], chunkAt = [], pathEnd = 0, liveChunks = null, storeDone = false, loaded = false;
  var pathIdx = new Int32Array(n).fill(-1); // position -> index on the server's path
  var pathPos = []; // and back
  (function () {
    if (T.leaf < 0) return;
    pathTo(T.leaf).forEach(function (pos) { if (!(FL[pos] & F_EMBEDDED)) pathIdx[pos] = pathPos.push(pos) - 1; });
  })();
  // Where each stored entry is: storeChunk[pos] indexes storeChunks (-1:
  // not stored), storeAt[pos] is its index in that chunk. Made once the
  // store is complete, when the page is idle after loading (see pump), or
  // by the first that asks: a Map of [chunk, index] pairs took the first
  // click 13 ms at 100,000 entries.
  var storeChunks = null, storeChunk = null, storeAt = null;
  function storeLoc(pos) {
    if (!storeChunks) {
      storeChunks = Array.prototype.slice.call(doc.querySelectorAll("#store > script[data-i]"));
      storeChunk = new Int32Array(n).fill(-1);
      storeAt = new Int32Array(n);
      storeChunks.forEach(function (c, ci) {
        var list = c.getAttribute("data-i").split(" ");
        for (var k = 0; k < list.length; k++) {
          var p = +list[k];
          if (p >= 0 && p < n) { storeChunk[p] = ci; storeAt[p] = k; }
        }
      });
    }
    var ci = pos >= 0 && pos < n ? storeChunk[pos] : -1;
    return ci >= 0 ? [storeChunks[ci], storeAt[pos]] : null;
  }
  // available: the entry's HTML has arrived in full.
  function available(pos) {
    var i = pathIdx[pos];
    if (i >= 0) return i < pathEnd;
    return storeDone;
  }
  var parts = new Map(); // chunk -> its entries' HTML
  function entriesOf(chunk) {
    var a = parts.get(chunk);
    if (!a) {
      var text = chunk.textContent;
      parts.set(chunk, a = cutEntries(text, articleStarts(text)));
    }
    return a;
  }
  // articleStarts: where the entries start in a chunk's text. Every entry
  // is one <article>, and "<" in session text is "&lt;": "<article "
  // starts an entry and nothing else.
  function articleStarts(text) {
    var starts = [];
    for (var at = text.indexOf("<article "); at >= 0; at = text.indexOf("<article ", at + 9)) starts.push(at);
    return starts;
  }
  // cutEntries: the entries' HTML, cut from the chunk's text (no copy).
  function cutEntries(text, starts) {
    return starts.map(function (from, k) { return text.slice(from, k + 1 < starts.length ? starts[k + 1] : text.length); });
  }
  function htmlOf(pos) {
    if (!available(pos)) return undefined;
    var i = pathIdx[pos];
    if (i >= 0) {
      var a = 0, b = chunkAt.length; // the last chunk that starts at or before i
      while (b - a > 1) { var m = (a + b) >> 1; if (chunkAt[m] <= i) a = m; else b = m; }
      return entriesOf(pathChunks[a])[i - chunkAt[a]];
    }
    var at = storeLoc(pos);
    return at ? entriesOf(at[0])[at[1]] : undefined;
  }

  var elements = new Map(); // position -> element, once built
  var tpl = doc.createElement("template");
  // elementsFor builds (once) and returns the elements of the entries at
  // positions list, in order; one parse for all of them.
  function elementsFor(list) {
    var need = [], html = [], urls = [];
    list.forEach(function (p) {
      if (elements.has(p)) return;
      var h = htmlOf(p);
      if (h !== undefined) { need.push(p); html.push(liftPictures(h, urls)); }
    });
    if (need.length) {
      tpl.innerHTML = html.join("");
      var made = Array.prototype.slice.call(tpl.content.children);
      if (made.length !== need.length) { // never expected: one at a time
        made = html.map(function (h) { tpl.innerHTML = h; return tpl.content.firstElementChild; });
      }
      if (urls.length) {
        made.forEach(function (el) {
          if (!el) return;
          el.querySelectorAll("img[data-lifted]").forEach(function (img) {
            img.src = pictureURL(urls[+img.getAttribute("data-lifted")]);
            img.removeAttribute("data-lifted");
          });
        });
      }
      for (var i = 0; i < need.length; i++) {
        var el = made[i];
        if (!el) continue;
        if (expandOutputs) openOutputs(el);
        decorate(el);
        elements.set(need[i], el);
      }
      tpl.innerHTML = "";
    }
    var out = [];
    list.forEach(function (p) { var el = elements.get(p); if (el) out.push(el); });
    return out;
  }

  // liftPictures takes the data: URLs of the pictures (render.imageSrc
  // writes them, base64 and nothing to unescape) out of an entry's HTML
  // before it is parsed, into urls, leaving data-lifted="index" in their
  // place: the HTML tokenizer reads an attribute value a character at a
  // time (a 5 MB picture took it 50-80 ms), an element's src is set in
  // one copy.
  var PIC = '<img class="image" src="data:';
  function liftPictures(h, urls) {
    var out = "", from = 0, at = h.indexOf(PIC);
    while (at >= 0) {
      var s = at + PIC.length - 5, e = h.indexOf('"', s);
      if (e < 0) break;
      if (e - s >= 4096) {
        out += h.slice(from, at) + '<img class="image" data-lifted="' + urls.length + '"';
        urls.push(h.slice(s, e));
        from = e + 1;
      }
      at = h.indexOf(PIC, e);
    }
    return from ? out + h.slice(from) : h;
  }

  // pictureURL makes a picture's data: URL a blob: URL, where the browser
  // can: an <img> reads a data: URL where it is set, on the page's thread
  // (a 5 MB picture took 25-45 ms: the URL parsed, the base64 decoded), a
  // blob: URL elsewhere, after the frame. Uint8Array.fromBase64 decodes it
  // in a few ms.
  function pictureURL(u) {
    var comma = u.indexOf(","), semi = u.indexOf(";");
    if (!Uint8Array.prototype.setFromBase64 || !window.Blob || !window.URL || !URL.createObjectURL || comma < 0 || semi < 0) return u;
    try {
      var b64 = u.slice(comma + 1), bytes = new Uint8Array(Math.ceil(b64.length / 4) * 3);
      var r = bytes.setFromBase64(b64);
      if (r.read !== b64.length) return u;
      return URL.createObjectURL(new Blob([bytes.subarray(0, r.written)], { type: u.slice(5, semi) }));
    } catch (e) { return u; }
  }

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

  function newestLeaf(pos) {
    while (kids[pos]) pos = kids[pos][kids[pos].length - 1];
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
    var end = availEnd(want), wlo = 0, whi = want.length;
    // A short conversation is shown whole, once it has arrived.
    if (!edges || (want.length <= EAGER && bytesOf(want, 0, end) <= EAGER_BYTES)) {
      if (end < want.length && !loaded) return;
    } else if (at < 0) {
      if (end < 1 && !loaded) return;
      whi = spanEnd(want, 0, end);
    } else {
      if (end <= at && !loaded) return;
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
    setView(want, wlo, Math.min(whi, end));
    highlightSearch();
    startFinderSoon();
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
      storeDone = true; // the store comes before the conversation
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
      if (state.query.length && searchPartial) applySearch();
      if (finder) { startFinderSoon(); seal(); }
      else if (window.requestIdleCallback) requestIdleCallback(buildIndex, { timeout: 1000 });
    }
    if (grew || closed) {
      retryPending();
      askEdge(edgeEnd);
      prepareSoon();
    }
  }
  var watcher = window.MutationObserver ? new MutationObserver(pump) : null;

  function entryElement(pos) {
    return doc.getElementById("entry-" + domId(T.id[pos]));
  }

  var lastTarget = null;
  function markTarget(pos, scroll) {
    if (lastTarget) lastTarget.classList.remove("target");
    lastTarget = null;
    var el = pos >= 0 ? entryElement(pos) : null;
    if (el) {
      el.classList.add("target");
      lastTarget = el;
      if (scroll) {
        // The entries just above are laid out now (content-visibility would
        // do it once they come near the view, moving the target); their
        // sizes are then remembered (contain-intrinsic-size: auto).
        var above = [];
        for (var k = lo; k < hi; k++) {
          var e = elements.get(shown[k]);
          if (!e || e === el || e.contains(el)) break;
          above.push(e);
          if (above.length > 12) above.shift().classList.remove("laid");
          e.classList.add("laid");
        }
        el.scrollIntoView({ block: "start" });
        requestAnimationFrame(function () { above.forEach(function (e) { e.classList.remove("laid"); }); });
        settle(el, el.getBoundingClientRect().top, 5);
      }
    }
  }
  // settle scrolls to el again while it moves: the entries around it are
  // laid out (content-visibility) only once they come into view, and
  // their real heights move it.
  function settle(el, top, tries) {
    requestAnimationFrame(function () {
      setTimeout(function () {
        if (lastTarget !== el || !el.isConnected) return;
        if (Math.abs(el.getBoundingClientRect().top - top) > 2) el.scrollIntoView({ block: "start" });
        if (tries > 1) settle(el, top, tries - 1);
      }, 0);
    });
  }

  // updateURL puts the link to what is shown in the address bar, once the
  // frame showing it has been drawn: history.replaceState saves the scroll
  // position, which makes the browser lay out at once what has changed.
  var urlQueued = false;
  function updateURL() {
    if (urlQueued) return;
    urlQueued = true;
    requestAnimationFrame(function () {
      setTimeout(function () {
        urlQueued = false;
        if (state.leaf < 0) return;
        try {
          history.replaceState(null, "", linkTo(state.target >= 0 ? state.target : state.leaf));
        } catch (e) { /* some file:// contexts refuse; the page still works */ }
      }, 0);
    });
  }

  function linkTo(pos) {
    var u = new URL(location.href);
    var q = new URLSearchParams();
    q.set("leafId", T.id[state.leaf]);
    q.set("targetId", T.id[pos]);
    u.search = q.toString();
    return u.toString();
  }

  function notice(text) {
    noticeEl.textContent = text;
    noticeEl.hidden = !text;
  }

  // navigate shows the path to leaf, selects target's row and scrolls to
  // the target's entry.
  function navigate(leaf, target) {
    showPath(leaf, target, function () { markTarget(target, true); });
    state.target = target;
    state.selected = target;
    state.focus = target;
    renderTree(target);
    updateURL();
  }

  // ---- The tree ------------------------------------------------------

  // The visible rows, in order, as parallel arrays (no object per row: a
  // layout of 100,000 rows allocates nothing but these): the position,
  // the indentation drawn, the ARIA level, bits (R_* below) and the
  // gutter chain of each row.
  var rowCount = 0, rowPos = new Int32Array(n), rDi = new Int32Array(n), rLevel = new Int32Array(n);
  var rBits = new Uint8Array(n), rGut = new Array(n);
  var R_CONN = 1, R_LAST = 2, R_VROOT = 4;
  var rowIndex = new Int32Array(n).fill(-1);
  var haystack = null; // lower-cased search text by position, built on first search

  // Which entries the filter shows (the active leaf always), as flags: an
  // entry is shown if it has none of hide and all of need (and a label,
  // for labeled-only), and the search finds it.
  var hasLabel = new Uint8Array(n);
  for (var key in LBL) if (+key >= 0 && +key < n) hasLabel[+key] = 1;
  var hideF = 0, needF = 0, labeledOnly = false;
  function filterFlags() {
    hideF = F_EMPTY | (state.hideSilent ? F_SILENT : 0);
    needF = 0;
    labeledOnly = false;
    switch (state.mode) {
      case "no-tools": hideF |= F_SETTINGS | F_TOOL; break;
      case "user-only": needF = F_USER; break;
      case "labeled-only": labeledOnly = true; break;
      case "all": break;
      default: hideF |= F_SETTINGS;
    }
  }
  filterFlags();

  // hits: the search's answer for each entry, 1 found, 0 not, 2 not asked
  // (or asked before the entry had arrived). Kept when the filter changes,
  // and when the query narrows (each old term is in a new one: an entry
  // without an old term has none of the new ones) with the same search
  // (quick or exact): then only the entries found are asked again.
  var hits = new Uint8Array(n).fill(2), hitsTerms = [], hitsExact = false;
  function newQuery() {
    var exact = indexed >= n || !lowChunks, old = hitsTerms, q = state.query;
    var same = exact === hitsExact && old.length === q.length && old.every(function (t, i) { return t === q[i]; });
    var narrows = exact === hitsExact && old.length > 0 && (exact || quickTerms.every(Boolean)) &&
      old.every(function (t) { return q.some(function (u) { return u.indexOf(t) >= 0; }); });
    if (!same) {
      if (narrows) { for (var i = 0; i < n; i++) if (hits[i] === 1) hits[i] = 2; }
      else hits.fill(2);
    }
    hitsTerms = q.slice();
    hitsExact = exact;
  }
  function matches(pos) {
    var h = hits[pos];
    if (h !== 2) return h === 1;
    var partial = searchPartial, ok = true, q;
    searchPartial = false;
    if (indexed >= n || !lowChunks) {
      var text = hay(pos);
      for (q = 0; q < state.query.length && ok; q++) ok = text.indexOf(state.query[q]) >= 0;
    } else {
      for (q = 0; q < state.query.length && ok; q++) ok = quickMatch(pos, state.query[q], quickTerms[q]);
    }
    if (!searchPartial) hits[pos] = ok ? 1 : 0;
    searchPartial = searchPartial || partial;
    return ok;
  }

  // The quick search, until the exact index (hay) is complete: a term is
  // looked for in the entry's HTML, ignoring case, outside tags ("<" and
  // ">" in text are "&lt;" and "&gt;"). Its hits are hits of the exact
  // search; it misses only a term that spans markup ("fmt.println" in
  // highlighted code), found once the exact index is ready and the search
  // runs again. The quick search's text: each chunk's text as it is (one
  // string, no string per entry, nothing lower-cased: a case-insensitive
  // RegExp reads it) with where its entries start.
  // Once its chunk is ready, an entry's HTML is chunkList[eChunk[pos]]'s
  // text from eFrom[pos] to eTo[pos].
  var lowChunks = new Map(), cardAt = new Array(n), metaLow = new Array(n);
  var chunkList = [], eChunk = new Int32Array(n).fill(-1), eFrom = new Int32Array(n), eTo = new Int32Array(n);
  function lowChunk(c) {
    var lc = lowChunks.get(c);
    if (!lc) {
      var low = c.textContent, starts = articleStarts(low);
      lc = { low: low, starts: starts, id: chunkList.length };
      chunkList.push(lc);
      lowChunks.set(c, lc);
      var ps = c.getAttribute("data-i"), first = +c.getAttribute("data-at");
      ps = ps === null ? null : ps.split(" ");
      if (ps ? ps.length === starts.length : first + starts.length <= pathPos.length) {
        var at = new Array(starts.length);
        for (var k = 0; k < starts.length; k++) {
          var pos = at[k] = ps ? +ps[k] : pathPos[first + k];
          eChunk[pos] = lc.id;
          eFrom[pos] = starts[k];
          eTo[pos] = k + 1 < starts.length ? starts[k + 1] : low.length;
        }
        // Without the pictures' data (no text in them): less to copy and read.
        if (finder) feed(liftPictures(low, []), at);
      }
      cardsIn(low);
    }
    return lc;
  }
  // cardsIn finds, in one pass over a chunk's text, the tool cards that
  // draw results (<div ... id="entry-id"> to the </div> closing it).
  function cardsIn(h) {
    var re = /<(\/?)div\b/g, open = [], m, at, end, id, pos;
    while ((m = re.exec(h))) {
      if (m[1]) {
        var o = open.pop();
        if (o && o[1] >= 0 && cardAt[o[1]] === undefined) cardAt[o[1]] = [o[0], m.index];
        continue;
      }
      pos = -1;
      end = h.indexOf(">", m.index);
      at = h.indexOf(' id="entry-', m.index + 4);
      if (at >= 0 && at < end) {
        id = attrUnescape(h.slice(at + 11, h.indexOf('"', at + 11)));
        pos = byDomId.has(id) ? byDomId.get(id) : byId.has(id) ? byId.get(id) : -1;
      }
      open.push([m.index, pos]);
    }
  }
  function attrUnescape(s) {
    return s.indexOf("&") < 0 ? s : s.replace(/&(amp|lt|gt|#39|#34|#43);/g, function (m, e) {
      return { amp: "&", lt: "<", gt: ">", "#39": "'", "#34": '"', "#43": "+" }[e];
    });
  }
  // locOf: the chunk and index in it of an entry that has arrived.
  function locOf(pos) {
    var i = pathIdx[pos];
    if (i >= 0) {
      var a = 0, b = chunkAt.length;
      while (b - a > 1) { var m = (a + b) >> 1; if (chunkAt[m] <= i) a = m; else b = m; }
      return [pathChunks[a], i - chunkAt[a]];
    }
    return storeLoc(pos);
  }
  // quickTerms: the query's terms as our HTML writes them, each with a
  // case-insensitive RegExp finding it, or null for a term with characters
  // written as references in several ways, or whose case a RegExp folds
  // otherwise than toLowerCase does (final sigma): ask the exact text.
  var quickTerms = [];
  function reQuote(s) { return s.replace(/[\\^$.*+?()[\]{}|\/]/g, "\\$&"); }
  function setQuickTerms() {
    searchGen++;
    quickTerms = state.query.map(function (q) {
      if (/["'+\u03c2\u03c3]/.test(q)) return null;
      var eq = q.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      return {
        eq: eq, len: eq.length,
        re: new RegExp(reQuote(eq), "gi"),
        meta: new RegExp(reQuote(q), "i"), // the row's text and label
        // A RegExp ignoring case matches an ASCII term only where
        // toLowerCase would; other matches are checked.
        ascii: !/[^\x00-\x7f]/.test(eq),
      };
    });
  }
  function quickMatch(pos, q, eq) {
    if (eq && eq.ascii) {
      if (eq.meta.test(TXT[pos]) || (LBL[pos] !== undefined && eq.meta.test(LBL[pos]))) return true;
    } else {
      var m = metaLow[pos];
      if (m === undefined) m = metaLow[pos] = ((LBL[pos] || "") + " " + TXT[pos]).toLowerCase();
      if (m.indexOf(q) >= 0) return true;
    }
    var a = (FL[pos] & F_EMBEDDED) ? cardOwner(pos) : pos;
    if (a < 0) return false;
    var ci = eChunk[a];
    if (ci < 0 || !eq) {
      if (!available(a)) { searchPartial = true; return false; }
      if (!eq) return hay(pos).indexOf(q) >= 0;
      var loc = locOf(a);
      if (loc) lowChunk(loc[0]);
      if ((ci = eChunk[a]) < 0) return false;
    }
    var lc = chunkList[ci], from = eFrom[a], to = eTo[a];
    if (a !== pos) {
      var c = cardOf(pos, lc, from, to);
      if (!c) return hay(pos).indexOf(q) >= 0;
      from = c[0];
      to = c[1];
    }
    return firstHit(lc, eq, from) + eq.len <= to;
  }
  // firstHit is where eq first occurs in lc's text at or after from, outside
  // tags (Infinity: nowhere). Entries are asked about mostly in the order
  // they are in their chunk: the last answer, remembered per chunk and
  // term, answers every later question up to it, so that a chunk is
  // scanned about once per search, not once per entry.
  var searchGen = 0;
  function firstHit(lc, eq, from) {
    if (lc.gen !== searchGen) { lc.gen = searchGen; lc.memo = new Map(); }
    var mm = lc.memo.get(eq);
    if (!mm) lc.memo.set(eq, mm = { from: 0, hit: -1 });
    else if (from >= mm.from && from <= mm.hit) return mm.hit;
    var h = lc.low, re = eq.re, i = -1, at;
    // (A match is as long as the term: the RegExp folds case unit by unit.)
    for (re.lastIndex = from; re.test(h); re.lastIndex = at + 1) {
      at = re.lastIndex - eq.len;
      if (h.lastIndexOf("<", at) > h.lastIndexOf(">", at)) continue; // in a tag
      if (inReference(h, at)) continue; // "lt" in "&lt;"
      if (!eq.ascii && h.substr(at, eq.len).toLowerCase() !== eq.eq) continue;
      i = at;
      break;
    }
    mm.from = from;
    mm.hit = i < 0 ? Infinity : i;
    return mm.hit;
  }
  // inReference: h[i] is inside a character reference, after its "&".
  function inReference(h, i) {
    var a = i - 1, lim = Math.max(0, i - 10);
    while (a >= lim && refChar(h.charCodeAt(a))) a--;
    if (a < lim || h.charCodeAt(a) !== 38) return false; // "&"
    for (var b = i; b < i + 12 && b < h.length; b++) {
      var c = h.charCodeAt(b);
      if (c === 59) return true; // ";"
      if (!refChar(c)) return false;
    }
    return false;
  }
  function refChar(c) { return c === 35 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122); }
  function cardOwner(pos) {
    var a = P[pos];
    while (a >= 0 && (FL[a] & F_EMBEDDED)) a = P[a];
    return a;
  }
  function cardOf(pos, lc, from, to) {
    var c = cardAt[pos];
    if (c === undefined) c = cardAt[pos] = cardRange(lc.low, T.id[pos], from, to);
    return c;
  }
  // cardRange: where the tool card of result id is in h[from..to) (the
  // caller's HTML), or null.
  function cardRange(h, id, from, to) {
    var at = h.indexOf(' id="entry-' + attrEscape(domId(id)) + '"', from);
    var start = at < 0 || at >= to ? -1 : h.lastIndexOf("<div", at);
    if (start < from) return null;
    var re = /<(\/?)div\b/g, depth = 0, m;
    re.lastIndex = start;
    while ((m = re.exec(h)) && m.index < to) {
      depth += m[1] ? -1 : 1;
      if (!depth) return [start, m.index];
    }
    return [start, to];
  }

  var cardsOf = null; // see cardsByCaller
  function hay(pos) {
    if (!haystack) haystack = new Array(n);
    var h = haystack[pos];
    if (h === undefined) {
      var text = "", cards = "";
      if (FL[pos] & F_EMBEDDED) {
        // A result drawn in its call's card: the card in the caller's HTML.
        var a = P[pos];
        while (a >= 0 && (FL[a] & F_EMBEDDED)) a = P[a];
        if (a >= 0 && !available(a)) return partialHay(pos);
        var owner = a >= 0 ? htmlOf(a) : undefined;
        if (owner !== undefined) text = cardText(owner, T.id[pos]);
      } else {
        if (!available(pos)) return partialHay(pos);
        var emb = (cardsOf || (cardsOf = texts.cardsByCaller(n, P, FL, F_EMBEDDED))).get(pos);
        if (emb) {
          // As the search workers: its own text, then each card's.
          var oc = texts.ownAndCards(htmlOf(pos) || "", emb.map(function (e) { return domId(T.id[e]); }));
          text = oc.own;
          oc.cards.forEach(function (t) { if (t !== null) cards += "\n" + t.toLowerCase(); });
        } else {
          text = plainText(htmlOf(pos) || "");
        }
      }
      h = texts.hay(LBL[pos], TXT[pos], text) + cards;
      haystack[pos] = h;
    }
    return h;
  }

  // partialHay: the search text of an entry that has not arrived yet; the
  // search runs again when everything has.
  var searchPartial = false;
  function partialHay(pos) {
    searchPartial = true;
    return ((LBL[pos] || "") + " " + TXT[pos]).toLowerCase();
  }

  // searchTexts makes the functions that read an entry's search text out
  // of its HTML. It uses nothing around it: the search workers run its
  // source (see startFinder).
  function searchTexts() {
    // plainText is the text of some of our HTML, as textContent would read
    // it: tags dropped ("<" in text is "&lt;", and attribute values have no
    // "<" or ">"), character references decoded.
    var ENT = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" };
    function plainText(html) {
      return html.replace(/<[^>]*>/g, "").replace(/&(#[0-9]+|#x[0-9a-f]+|[a-z]+);/gi, function (m, e) {
        if (e.charAt(0) !== "#") return ENT[e] !== undefined ? ENT[e] : m;
        var c = e.charAt(1) === "x" || e.charAt(1) === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return c > 0 && c < 0x110000 ? String.fromCodePoint(c) : m;
      });
    }
    function attrEscape(s) { // as Go's html/template writes an attribute value
      return s.replace(/[&'<>"+]/g, function (c) {
        return { "&": "&amp;", "'": "&#39;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "+": "&#43;" }[c];
      });
    }
    // cardText is the text of the tool card whose element id is "entry-" +
    // domID in the caller's HTML: from its <div ... id="entry-id"> to the
    // </div> closing it; null if it is not there as our HTML writes it.
    function cardText(html, domID) {
      var sp = cardSpan(html, domID);
      return sp ? plainText(html.slice(sp[0], sp[1])) : null;
    }
    // cardSpan is where that card is in html: [start, end), end at the
    // "</div" that closes it; null if it is not there.
    function cardSpan(html, domID) {
      var at = html.indexOf(' id="entry-' + attrEscape(domID) + '"');
      var start = at < 0 ? -1 : html.lastIndexOf("<div", at);
      if (start < 0) return null;
      var re = /<(\/?)div\b/g, depth = 0, m;
      re.lastIndex = start;
      while ((m = re.exec(html))) {
        depth += m[1] ? -1 : 1;
        if (!depth) return [start, m.index];
      }
      return [start, html.length];
    }
    // hay is an entry's search text: its label, its row's text and the
    // text of its HTML, lower-cased.
    function hay(label, row, text) { return ((label || "") + " " + row + " " + text).toLowerCase(); }
    // ownAndCards splits the HTML h of an entry with results drawn in its
    // cards (their element ids domIDs): its own text, with "\n" where each
    // card was, and each card's text (null for a card not there as our
    // HTML writes it, which stays in the own text). A result's text is
    // its card's; its caller has a term when its own text or one of its
    // cards has it. "\n" keeps a term from running from the caller's text
    // into a card or from a card into the next, where the page shows
    // separate boxes (and the quick search, which reads the HTML between
    // its tags, finds none either).
    function ownAndCards(h, domIDs) {
      var spans = [], cards = domIDs.map(function (id) {
        var sp = cardSpan(h, id);
        if (sp) spans.push(sp);
        return sp ? plainText(h.slice(sp[0], sp[1])) : null;
      });
      spans.sort(function (x, y) { return x[0] - y[0]; });
      var own = [], c = 0;
      spans.forEach(function (sp) {
        if (sp[0] < c) return; // within a card already cut
        own.push(h.slice(c, sp[0]));
        c = sp[1];
      });
      own.push(h.slice(c));
      return { own: own.map(plainText).join("\n"), cards: cards };
    }
    // cardsByCaller: for each entry with results drawn in its cards, those
    // results' positions (a result is drawn in the card of its nearest
    // ancestor not drawn in a card).
    function cardsByCaller(n, P, FL, F_EMBEDDED) {
      var m = new Map();
      for (var i = 0; i < n; i++) {
        if (!(FL[i] & F_EMBEDDED)) continue;
        var a = P[i];
        while (a >= 0 && (FL[a] & F_EMBEDDED)) a = P[a];
        if (a >= 0) (m.get(a) || (m.set(a, []), m.get(a))).push(i);
      }
      return m;
    }
    return { plainText: plainText, attrEscape: attrEscape, cardText: cardText, hay: hay, ownAndCards: ownAndCards, cardsByCaller: cardsByCaller };
  }
  function cardText(html, id) {
    var t = texts.cardText(html, domId(id));
    if (t !== null) return t;
    // Not found as written: ask the parser.
    tpl.innerHTML = html;
    var card = tpl.content.getElementById("entry-" + domId(id));
    t = card ? card.textContent : "";
    tpl.innerHTML = "";
    return t;
  }

  // ---- The search workers ----------------------------------------------
  // Once the page has loaded, the exact search runs in workers: each holds
  // the search text of the entries of the chunks it was given, made from
  // each chunk's text as it arrives, and answers a query with one byte per
  // entry: 1 found, 0 not, 2 not its entry. A keystroke then scans nothing
  // on the page's thread, and two workers scan their halves at once. Where
  // workers cannot run, the page builds the same index itself (buildIndex).
  //
  // A worker keeps one string per chunk, its entries' texts end to end
  // ("\n" between them: a term holds no white space, so it never runs from
  // one into the next), and finds a term with one indexOf per hit, not one
  // per entry: on 100,000 entries (33 MB of text a worker) a common word
  // took 40-50 ms one entry at a time, 25-30 ms in one string. The text of
  // a result drawn in its call's card is kept once, as the result's: the
  // caller's text has its cards cut out (28% of all text at 100,000
  // entries), and the caller has a term when its own text or one of its
  // cards has it (ownAndCards).
  //
  // indexWorker is a worker's script: it uses nothing around it.
  function indexWorker(searchTexts, domId, F_EMBEDDED) {
    var tx = searchTexts(), n = 0, ids, P, FL, TXT, LBL, cards, chunks = [], found, warm;
    self.onmessage = function (ev) {
      var d = ev.data;
      if (d.tree !== undefined) {
        var T = JSON.parse(d.tree);
        ids = T.id; P = T.p; FL = T.f; TXT = T.t; LBL = T.l || {}; n = ids.length;
        found = new Uint8Array(n); // a term's hits (see find)
        warm = new Uint8Array(n);
        cards = tx.cardsByCaller(n, P, FL, F_EMBEDDED);
      } else if (d.html !== undefined) {
        // As articleStarts: "<article " starts an entry and nothing else.
        var parts = d.html.split("<article ");
        if (parts.length - 1 === d.at.length) {
          var cs = chunkIndex(parts, d.at);
          chunks.push.apply(chunks, cs);
          // The first searches run the search's code cold: in a fresh
          // page, a keystroke's answer at 100,000 entries took 50-65 ms,
          // against 35-50 ms once warm. A search for a common letter in
          // each chunk as it arrives warms it.
          search(["e"], cs, warm);
        }
        self.postMessage({ fed: 1 });
      } else if (d.q !== undefined) {
        var out = new Uint8Array(n);
        search(d.q, chunks, out);
        self.postMessage({ seq: d.seq, hits: out }, [out.buffer]);
      }
    };
    // search sets out[p] for every entry: 1 if the texts of list hold its
    // text and it has every term, 0 if they hold it and it lacks one, 2
    // if they do not hold it.
    function search(terms, list, out) {
      out.fill(2);
      list.forEach(function (c) { for (var k = 0; k < c.pos.length; k++) out[c.pos[k]] = 1; });
      for (var x = 0; x < terms.length; x++) {
        list.forEach(function (c) { for (var k = 0; k < c.pos.length; k++) found[c.pos[k]] = 0; });
        list.forEach(function (c) { find(c, terms[x], found); });
        list.forEach(function (c) {
          for (var k = 0; k < c.pos.length; k++) if (c.owner[k] >= 0 && (found[c.pos[k]] & 2)) found[c.owner[k]] |= 1;
        });
        list.forEach(function (c) {
          for (var k = 0; k < c.pos.length; k++) if (!(found[c.pos[k]] & 1)) out[c.pos[k]] = 0;
        });
      }
    }
    // chunkIndex makes a chunk's search texts. Each entry's text is its
    // label, row text and HTML's text (as the page's hay), lower-cased;
    // a result in a card has its card's text, which its caller's lacks.
    // Texts with a character past U+00FF go into a text of their own: one
    // such character makes a whole string two bytes a character, which
    // V8 searches at half the speed. In each text, from[k] is where entry
    // pos[k]'s text starts, body[k] where its HTML's text starts, owner[k]
    // the caller whose card it is (or -1); each text ends with a "\n".
    function chunkIndex(parts, at) {
      var narrow = newText(), wide = newText();
      function add(p, label, row, text, caller) {
        var head = ((label || "") + " " + row + " ").toLowerCase();
        var t = head + text.toLowerCase(), into = /[^\x00-\xff]/.test(t) ? wide : narrow;
        into.pos.push(p); into.from.push(into.o); into.body.push(into.o + head.length); into.owner.push(caller);
        into.texts.push(t);
        into.o += t.length + 1;
      }
      for (var k = 0; k < at.length; k++) {
        var p = at[k], h = "<article " + parts[k + 1], emb = cards.get(p);
        if (!emb) {
          add(p, LBL[p], TXT[p], tx.plainText(h), -1);
          continue;
        }
        var oc = tx.ownAndCards(h, emb.map(function (e) { return domId(ids[e]); }));
        oc.cards.forEach(function (t, j) { if (t !== null) add(emb[j], LBL[emb[j]], TXT[emb[j]], t, p); });
        add(p, LBL[p], TXT[p], oc.own, -1);
      }
      return [narrow, wide].filter(function (t) { return t.pos.length; }).map(function (t) {
        var text = t.texts.join("\n") + "\n";
        // V8 keeps a string two bytes a character when it was cut from
        // one that is (a chunk with one "€"): read back from JSON, the
        // narrow text is one byte a character.
        if (t === narrow) text = JSON.parse(JSON.stringify(text));
        return { text: text, pos: t.pos, from: Int32Array.from(t.from), body: Int32Array.from(t.body), owner: Int32Array.from(t.owner) };
      });
    }
    function newText() { return { texts: [], pos: [], from: [], body: [], owner: [], o: 0 }; }
    // find sets found[p] for each entry p of chunk c whose text has term:
    // bit 1 anywhere in it, bit 2 in its HTML's text (a card's text, for
    // a result drawn in one).
    function find(c, term, found) {
      var text = c.text, from = c.from, body = c.body, pos = c.pos, k = 0, n = pos.length;
      for (var at = text.indexOf(term); at >= 0;) {
        while (k + 1 < n && from[k + 1] <= at) k++;
        var end = k + 1 < n ? from[k + 1] : text.length;
        if (at < body[k]) {
          found[pos[k]] |= 1;
          at = text.indexOf(term, body[k]);
          if (at < 0) break;
          if (at >= end) continue;
        }
        found[pos[k]] |= 3;
        if (k + 1 >= n) break;
        at = text.indexOf(term, end);
      }
    }
  }

  // finder: the workers, or null where they cannot run. They start once
  // the conversation has been drawn (started; starting them with the page
  // made it readable 50-200 ms later); chunks that come before wait in
  // queue. ready: every chunk has been given to them (sealed) and taken in
  // (fed === sent).
  var finder = window.Worker && window.Blob && window.URL && URL.createObjectURL ? {
    workers: [], load: [], queue: [], starting: false, started: false, sent: 0, fed: 0,
    sealed: false, ready: false, seq: 0, answers: [], then: null,
  } : null;
  function startFinderSoon() {
    if (!finder || finder.starting) return;
    finder.starting = true;
    // After the frame is drawn; a hidden tab draws no frames.
    requestAnimationFrame(function () { setTimeout(startFinder, 0); });
    setTimeout(startFinder, 1000);
  }
  function startFinder() {
    if (!finder || finder.started) return;
    try {
      var src = "(" + indexWorker + ")(" + searchTexts + "," + domId + "," + F_EMBEDDED + ")";
      var url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
      var tree = doc.getElementById("tree-data").textContent;
      var count = (navigator.hardwareConcurrency || 1) > 1 ? 2 : 1;
      for (var i = 0; i < count; i++) {
        var w = new Worker(url);
        finder.workers.push(w);
        finder.load.push(0);
        w.onmessage = onFinderMessage;
        w.onerror = finderFailed;
        w.postMessage({ tree: tree });
      }
    } catch (e) {
      finderFailed();
      return;
    }
    finder.started = true;
    var q = finder.queue;
    finder.queue = null;
    q.forEach(function (c) { feed(c[0], c[1]); });
    finderCheck();
  }
  // feed gives a chunk's text, holding the entries at positions at, to the
  // worker with the least text so far.
  function feed(text, at) {
    if (!finder.started) { finder.queue.push([text, at]); return; }
    var w = 0;
    for (var i = 1; i < finder.load.length; i++) if (finder.load[i] < finder.load[w]) w = i;
    finder.load[w] += text.length;
    finder.sent++;
    finder.workers[w].postMessage({ html: text, at: at });
  }
  function seal() {
    if (!finder || finder.sealed || !loaded || !prepStore || prepStore.length) return;
    finder.sealed = true;
    finderCheck();
    // Workers that have not taken everything in within a minute (100,000
    // entries take them a second) are given up.
    setTimeout(function () { if (finder && !finder.ready) finderFailed(); }, 60000);
  }
  function finderCheck() {
    if (finder.ready || !finder.started || !finder.sealed || finder.fed < finder.sent) return;
    finder.ready = true;
    searchEl.setAttribute("data-index", "workers"); // for tests and benchmarks
    // The quick search is done with; what the workers cannot answer, the
    // page's exact index answers (matches). Its text holds every chunk's
    // entries' HTML as entriesOf would read it: cut from it (no copy), they
    // are ready for the first click (a click after load on the pictures
    // session took 95-142 ms without them, 58-90 ms with them).
    lowChunks.forEach(function (lc, c) { if (!parts.has(c)) parts.set(c, cutEntries(lc.low, lc.starts)); });
    lowChunks = cardAt = null;
    if (state.query.length) applySearch();
  }
  function onFinderMessage(ev) {
    var d = ev.data;
    if (!finder) return;
    if (d.fed) { finder.fed++; finderCheck(); return; }
    if (d.seq !== finder.seq) return; // an answer to an older query
    finder.answers.push(d.hits);
    if (finder.answers.length < finder.workers.length) return;
    // Each entry's answer is its worker's.
    var all = finder.answers[0];
    for (var k = 1; k < finder.answers.length; k++) {
      var o = finder.answers[k];
      for (var i = 0; i < n; i++) if (all[i] === 2) all[i] = o[i];
    }
    finder.answers = [];
    var then = finder.then;
    finder.then = null;
    if (then) then(all);
  }
  // ask sends the query to every worker; then(hits) gets their answer,
  // unless another query is asked first.
  function ask(q, then) {
    finder.seq++;
    finder.answers = [];
    finder.then = then;
    finder.workers.forEach(function (w) { w.postMessage({ q: q, seq: finder.seq }); });
  }
  // finderFailed: a worker could not start or stopped. The page searches
  // on its own from then on.
  function finderFailed() {
    if (!finder) return;
    finder.workers.forEach(function (w) { w.terminate(); });
    finder = null;
    searchEl.removeAttribute("aria-busy");
    searchEl.removeAttribute("data-index");
    if (loaded && window.requestIdleCallback) requestIdleCallback(buildIndex, { timeout: 1000 });
    if (state.query.length) applySearch();
  }

  // layout computes the visible rows with the reference's indentation:
  // rows re-parented to their nearest visible ancestor, the branch holding
  // the active leaf first among siblings, connectors under branch points.
  var vfirst = new Int32Array(n), vnext = new Int32Array(n), vlast = new Int32Array(n), va = new Int32Array(n);
  var sPos = new Int32Array(n), sIndent = new Int32Array(n), sBits = new Uint8Array(n), sLevel = new Int32Array(n), sGut = new Array(n);
  var S_JB = 8; // a stack bit besides R_*: the parent branches
  // The first pass (which entries show: vfirst, vnext, vroots, vcount)
  // depends on the filter, the search and the leaf, which shows always. A
  // click changes only the leaf: without a search, the pass is kept (its
  // filter in vKey, its leaf in vLeaf) while both leaves would show anyway.
  var vKey = "", vLeaf = -1, vroots = [], vcount = 0;
  // shows is the pass's test without the leaf and the search (the pass
  // keeps it inline, in its loop over every entry): the two must agree.
  function shows(pos) {
    var f = FL[pos];
    return pos < 0 || (!(f & hideF) && (f & needF) === needF && (!labeledOnly || !!hasLabel[pos]));
  }
  function layout() {
    var pos, par, f, p;
    var leaf = state.leaf, hide = hideF, need = needF, lab = labeledOnly, query = state.query.length > 0;
    var key = query ? "" : hide + " " + need + " " + lab;
    if (!key || key !== vKey || (leaf !== vLeaf && !(shows(leaf) && shows(vLeaf)))) {
      vfirst.fill(-1);
      vnext.fill(-1);
      vlast.fill(-1);
      vroots = [];
      vcount = 0;
      for (pos = 0; pos < n; pos++) { // tree order: parents come first
        p = P[pos];
        par = p >= 0 ? va[p] : -1;
        f = FL[pos];
        if (pos === leaf || (!(f & hide) && (f & need) === need && (!lab || hasLabel[pos]) && (!query || matches(pos)))) {
          va[pos] = pos;
          vcount++;
          if (par >= 0) {
            if (vlast[par] < 0) vfirst[par] = pos; else vnext[vlast[par]] = pos;
            vlast[par] = pos;
          } else vroots.push(pos);
        } else {
          va[pos] = par;
        }
      }
      vKey = key;
      vLeaf = leaf;
    }
    // ordered: the children on the active path first, the others in order.
    var tmp = [];
    function ordered(first) {
      tmp.length = 0;
      for (var c = first; c >= 0; c = vnext[c]) if (onPath[c]) tmp.push(c);
      for (c = first; c >= 0; c = vnext[c]) if (!onPath[c]) tmp.push(c);
      return tmp;
    }
    rowCount = 0;
    rowIndex.fill(-1);
    var multi = vroots.length > 1, sp = 0, r, c;
    var rs = vroots.filter(function (p) { return onPath[p]; }).concat(vroots.filter(function (p) { return !onPath[p]; }));
    for (r = rs.length - 1; r >= 0; r--, sp++) {
      sPos[sp] = rs[r];
      sIndent[sp] = multi ? 1 : 0;
      sBits[sp] = multi ? (S_JB | R_CONN | R_VROOT) : 0;
      if (r === rs.length - 1) sBits[sp] |= R_LAST;
      sLevel[sp] = 1;
      sGut[sp] = null;
    }
    // Gutters are a chain shared by a whole subtree (newest first): a row
    // costs the same at any depth. Prefixes are drawn only for rows in view.
    // A run of only children (most of a session) is laid out in the inner
    // loop, without the stack.
    while (sp > 0) {
      sp--;
      pos = sPos[sp];
      var ind = sIndent[sp], bits = sBits[sp], level = sLevel[sp], gut = sGut[sp];
      sGut[sp] = null;
      for (;;) {
        var di = multi ? Math.max(0, ind - 1) : ind;
        r = rowCount++;
        rowIndex[pos] = r;
        rowPos[r] = pos;
        rDi[r] = di;
        rLevel[r] = level;
        rBits[r] = bits & (R_CONN | R_LAST | R_VROOT);
        rGut[r] = gut;
        var first = vfirst[pos];
        if (first < 0) break;
        var branch = vnext[first] >= 0;
        var indent = (branch || ((bits & S_JB) && ind > 0)) ? ind + 1 : ind;
        var gutters = ((bits & R_CONN) && !(bits & R_VROOT)) ? { position: Math.max(0, di - 1), show: !(bits & R_LAST), up: gut } : gut;
        if (!branch) {
          pos = first; ind = indent; bits = R_LAST; gut = gutters;
          continue;
        }
        var ch = ordered(first), cb = S_JB | R_CONN, lv = level + 1;
        for (c = ch.length - 1; c >= 0; c--, sp++) {
          sPos[sp] = ch[c]; sIndent[sp] = indent; sBits[sp] = cb | (c === ch.length - 1 ? R_LAST : 0); sLevel[sp] = lv; sGut[sp] = gutters;
        }
        break;
      }
    }
    statusEl.textContent = vcount + " / " + n + " entries";
  }

  // The virtual list: a spacer as tall as every row, and the rows in view.
  var spacer = doc.createElement("div");
  spacer.className = "tree-spacer";
  spacer.style.position = "relative";
  treeEl.appendChild(spacer);
  var drawn = new Map(); // pos -> row element

  // The tree's scroll position and height, as last read: reading them
  // after the rows have changed makes the browser lay the rows out at
  // once, and then again in the frame. Read when the tree scrolls or
  // changes size, and after the script scrolls it.
  var viewTop = 0, viewH = 0, drawnFirst = -1, drawnLast = -1;
  // Rows drawn beyond each edge of the view: enough for a wheel step, few
  // enough that redrawing after a filter or a click stays cheap.
  var OVERSCAN = 8;
  function readView() {
    viewTop = treeEl.scrollTop;
    viewH = treeEl.clientHeight;
  }

  // renderTree lays the tree out again and draws it, scrolled to show the
  // row of position show if there is one and it is out of view.
  function renderTree(show) {
    layout();
    spacer.style.height = rowCount * ROW_H + "px";
    // Where the browser will clamp the scroll position of a shorter tree
    // (4 px of padding above and below the rows).
    viewTop = Math.max(0, Math.min(viewTop, rowCount * ROW_H + 8 - (viewH || 600)));
    if (show !== undefined) scrollTo(show);
    drawRows(true);
  }
  function scrollTo(pos) {
    var r = pos >= 0 ? rowIndex[pos] : -1;
    if (r < 0) return;
    var top = r * ROW_H, h = viewH || 600;
    if (top < viewTop || top + ROW_H > viewTop + h) {
      // Clamped as the browser will (see renderTree): reading scrollTop
      // back would make it lay the page out at once.
      viewTop = Math.max(0, Math.min(top - h / 2, rowCount * ROW_H + 8 - h));
      treeEl.scrollTop = viewTop;
    }
  }

  // drawRows draws the rows in view, reusing the elements of rows still
  // in view; after a new layout (relaid), their connectors and level are
  // brought up to date. After a scroll (scrolled) that leaves the same
  // rows to draw, nothing changes.
  function drawRows(relaid, scrolled) {
    var top = viewTop, h = viewH || 600;
    var first = Math.max(0, Math.floor(top / ROW_H) - OVERSCAN);
    var last = Math.min(rowCount, Math.ceil((top + h) / ROW_H) + OVERSCAN);
    if (scrolled && first === drawnFirst && last === drawnLast) return;
    drawnFirst = first;
    drawnLast = last;
    var keep = new Map();
    for (var r = first; r < last; r++) {
      var pos = rowPos[r];
      var el = drawn.get(pos);
      if (el) {
        drawn.delete(pos);
        if (relaid) {
          var pre = prefixOf(r), lv = String(rLevel[r]);
          if (el.firstChild.textContent !== pre) el.firstChild.textContent = pre;
          if (el.getAttribute("aria-level") !== lv) el.setAttribute("aria-level", lv);
        }
      } else el = makeRow(r);
      if (el._r !== r) {
        el._r = r;
        el.style.top = r * ROW_H + "px";
      }
      styleRow(el, pos);
      keep.set(pos, el);
    }
    drawn.forEach(function (el) { el.remove(); });
    drawn = keep;
    var active = state.focus >= 0 && keep.has(state.focus) ? "row-" + state.focus : "";
    if (active) treeEl.setAttribute("aria-activedescendant", active); else treeEl.removeAttribute("aria-activedescendant");
  }

  // prefixOf draws a row's connectors: a gutter "│" for every ancestor
  // branch that goes on below, and "├─"/"└─" where the row branches off.
  // A row shows at most MAX_PREFIX levels of connectors (72 characters, wider
  // than the 400 px sidebar): deeper ones
  // would be drawn beyond the row's right edge anyway, and shaping
  // thousands of characters per row made scrolling a deep tree slow.
  var MAX_PREFIX = 24;
  function prefixOf(r) {
    var di = Math.min(rDi[r], MAX_PREFIX), slot = new Array(di), prefix = "", bits = rBits[r];
    for (var g = rGut[r]; g; g = g.up) if (g.position < di && slot[g.position] === undefined) slot[g.position] = g;
    for (var lv = 0; lv < di; lv++) {
      if (slot[lv]) prefix += slot[lv].show ? "│  " : "   ";
      else if ((bits & R_CONN) && !(bits & R_VROOT) && lv === rDi[r] - 1) prefix += (bits & R_LAST) ? "└─ " : "├─ ";
      else prefix += "   ";
    }
    return prefix;
  }

  function makeRow(r) {
    var pos = rowPos[r];
    var el = doc.createElement("div");
    el.className = "row k-" + KIND[pos];
    el.id = "row-" + pos;
    el.setAttribute("role", "treeitem");
    el.setAttribute("data-entry-id", T.id[pos]);
    el.setAttribute("aria-level", String(rLevel[r]));
    el.style.position = "absolute";
    el.style.left = "0";
    el.style.right = "0";
    el.style.height = ROW_H + "px";
    var pre = doc.createElement("span");
    pre.className = "prefix";
    pre.textContent = prefixOf(r);
    var mark = doc.createElement("span");
    mark.className = "marker";
    el.appendChild(pre);
    el.appendChild(mark);
    if (LBL[pos] !== undefined) {
      var lab = doc.createElement("span");
      lab.className = "row-label";
      lab.textContent = LBL[pos];
      el.appendChild(lab);
    }
    var txt = doc.createElement("span");
    txt.className = "row-text";
    txt.textContent = TXT[pos];
    el.appendChild(txt);
    el.title = TXT[pos];
    spacer.appendChild(el);
    return el;
  }

  // styleRow marks a row on the path, selected or focused; what a row
  // already shows is not written again (every write costs a layout).
  function styleRow(el, pos) {
    var inPath = !!onPath[pos], sel = pos === state.selected, foc = pos === state.focus;
    if (el._inPath !== inPath) {
      el._inPath = inPath;
      el.classList.toggle("in-path", inPath);
      el.firstChild.nextSibling.textContent = inPath ? "•" : " ";
    }
    if (el._sel !== sel) {
      el._sel = sel;
      el.setAttribute("aria-selected", sel ? "true" : "false");
    }
    if (el._foc !== foc) {
      el._foc = foc;
      el.classList.toggle("focus", foc);
    }
  }

  function scrollRowIntoView(pos) {
    scrollTo(pos);
    drawRows();
  }

  treeEl.addEventListener("scroll", function () { readView(); drawRows(false, true); }, { passive: true });
  if (window.ResizeObserver) new ResizeObserver(function () { readView(); drawRows(); }).observe(treeEl);
  else window.addEventListener("resize", function () { readView(); drawRows(); });
  readView();

  function activate(pos) {
    if (pos < 0) return;
    navigate(newestLeaf(pos), pos);
    if (sidebar.classList.contains("open") && matchMedia("(max-width: 900px)").matches) toggleDrawer(false);
  }

  treeEl.addEventListener("click", function (ev) {
    var row = ev.target.closest(".row");
    if (!row) return;
    var sel = window.getSelection && window.getSelection();
    if (sel && !sel.isCollapsed && row.contains(sel.anchorNode)) return;
    activate(byId.get(row.getAttribute("data-entry-id")));
  });

  treeEl.addEventListener("keydown", function (ev) {
    if (!rowCount) return;
    var r = state.focus >= 0 ? rowIndex[state.focus] : -1;
    var next = r;
    switch (ev.key) {
      case "ArrowDown": next = Math.min(rowCount - 1, r + 1); break;
      case "ArrowUp": next = Math.max(0, r - 1); break;
      case "Home": next = 0; break;
      case "End": next = rowCount - 1; break;
      case "PageDown": next = Math.min(rowCount - 1, r + 20); break;
      case "PageUp": next = Math.max(0, r - 20); break;
      case "ArrowLeft": // to the nearest shown ancestor
        if (r >= 0) { for (var a = P[rowPos[r]]; a >= 0; a = P[a]) if (rowIndex[a] >= 0) { next = rowIndex[a]; break; } }
        break;
      case "ArrowRight":
        if (r >= 0 && r + 1 < rowCount && kids[rowPos[r]]) next = r + 1;
        break;
      case "Enter": case " ":
        if (r >= 0) activate(rowPos[r]);
        ev.preventDefault();
        return;
      default: return;
    }
    ev.preventDefault();
    if (next < 0) next = 0;
    state.focus = rowPos[next];
    scrollRowIntoView(state.focus);
  });
  treeEl.addEventListener("focus", function () {
    if (state.focus < 0 || rowIndex[state.focus] < 0) {
      // Focus the selected row when it is shown, else the first row.
      var r = state.selected >= 0 ? rowIndex[state.selected] : -1;
      state.focus = rowCount ? rowPos[Math.max(0, r)] : -1;
    }
    drawRows();
  });

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

  // ---- The conversation's buttons and the toolbar ---------------------

  function onConvClick(ev) {
    var b = ev.target.closest(".copy-link");
    if (!b) return;
    var holder = b.closest("[id^='entry-']");
    var pos = holder ? posOfElement(holder) : undefined;
    if (pos === undefined) return;
    state.target = pos;
    state.selected = pos;
    var url = linkTo(pos);
    updateURL();
    renderTree();
    markTarget(pos, false);
    copyText(url).then(function () {
      b.textContent = "copied";
      setTimeout(function () { b.textContent = "link"; }, 1500);
    });
  }

  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return Promise.resolve(fallbackCopy(text));
  }
  function fallbackCopy(text) {
    var ta = doc.createElement("textarea");
    ta.value = text;
    doc.body.appendChild(ta);
    ta.select();
    try { doc.execCommand("copy"); } catch (e) { /* nothing more to try */ }
    ta.remove();
  }

  function pressed(id, on) {
    var b = doc.getElementById(id);
    if (b) b.setAttribute("aria-pressed", on ? "true" : "false");
  }
  function toggleThinking() {
    var on = doc.body.classList.toggle("hide-thinking");
    pressed("toggle-thinking", on);
  }
  // Silent turns (NO_REPLY: never delivered to the user) leave the
  // conversation and the tree together.
  function toggleSilent() {
    state.hideSilent = doc.body.classList.toggle("hide-silent");
    filterFlags();
    pressed("toggle-silent", state.hideSilent);
    renderTree();
  }
  function openOutputs(el) {
    el.querySelectorAll("details.more, details.json").forEach(function (d) { d.open = expandOutputs; });
  }
  function toggleOutputs() {
    expandOutputs = !expandOutputs;
    elements.forEach(openOutputs);
    pressed("toggle-tools", expandOutputs);
  }
  function toggleDrawer(open) {
    sidebar.classList.toggle("open", open);
    var b = doc.getElementById("menu-button");
    if (b) b.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) treeEl.focus();
  }
  function on(id, f) { var b = doc.getElementById(id); if (b) b.addEventListener("click", f); }
  on("toggle-thinking", toggleThinking);
  on("toggle-tools", toggleOutputs);
  on("toggle-silent", toggleSilent);
  on("menu-button", function () { toggleDrawer(!sidebar.classList.contains("open")); });

  // Theme: the system's, unless the reader chose; the choice is kept.
  function storedTheme() { try { return localStorage.getItem("canopy-theme"); } catch (e) { return null; } }
  var chosen = storedTheme();
  if (chosen === "light" || chosen === "dark") root.setAttribute("data-theme", chosen);
  on("toggle-theme", function () {
    var cur = root.getAttribute("data-theme");
    if (cur === "auto") cur = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    var next = cur === "dark" ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem("canopy-theme", next); } catch (e) { /* not kept: fine */ }
  });

  on("download-source", function () {
    var el = doc.getElementById("source-data");
    if (!el) { notice("The page is still loading: try again in a moment."); return; }
    if (typeof DecompressionStream === "undefined") { notice("This browser cannot unpack the embedded session."); return; }
    var bin = atob(JSON.parse(el.textContent));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    var file = new Response(stream).blob();
    if (el.hasAttribute("data-images")) {
      file = file.then(function (b) { return b.arrayBuffer(); }).then(function (buf) { return withImages(new Uint8Array(buf)); });
    }
    file.then(function (blob) {
      var a = doc.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = doc.getElementById("download-source").getAttribute("data-name") || "session.jsonl";
      doc.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
    }).catch(function (e) { notice("The session could not be unpacked: " + e.message); });
  });

  // The embedded session holds each picture the page shows as a marker,
  // NUL length ":" hash NUL (render.dedupImages): withImages puts the
  // pictures back, from the page's own <img> data.
  function withImages(u) {
    var found = new Map(), re = /<img class="image" src="data:image\/[a-z]+;base64,([^"]*)"/g;
    var chunks = Array.prototype.slice.call(doc.querySelectorAll("#store > script[data-i]")).concat(pathChunks);
    chunks.forEach(function (c) {
      var t = c.textContent, m;
      re.lastIndex = 0;
      while ((m = re.exec(t))) found.set(m[1].length + ":" + imageHash(m[1]), m[1]);
    });
    var parts = [], at = 0;
    for (;;) {
      var s = u.indexOf(0, at);
      if (s < 0) break;
      var e = u.indexOf(0, s + 1);
      if (e < 0) throw new Error("a broken picture marker");
      var key = String.fromCharCode.apply(null, u.subarray(s + 1, e));
      var data = found.get(key);
      if (data === undefined) throw new Error("a picture is missing from the page");
      parts.push(u.subarray(at, s), data);
      at = e + 1;
    }
    parts.push(u.subarray(at));
    return new Blob(parts);
  }
  // imageHash: cyrb53's two 32-bit halves, in hex (render.imageHash).
  function imageHash(str) {
    var h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (var i = 0; i < str.length; i++) {
      var ch = str.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return hex8(h1) + hex8(h2);
  }
  function hex8(x) { return ("0000000" + (x >>> 0).toString(16)).slice(-8); }

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
  // begins) once the first entries are shown, in slices of at most 8 ms
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
    if (preparing || !lowChunks || !main) return;
    if (!prepStore) prepStore = Array.prototype.slice.call(doc.querySelectorAll("#store > script[data-i]"));
    if (!prepStore.length) { if (finder) seal(); return; }
    preparing = true;
    setTimeout(prepare, 0);
  }

  // ---- Start: the deep link, or the session's leaf --------------------

  var params = new URLSearchParams(location.search);
  var wantLeaf = params.get("leafId"), wantTarget = params.get("targetId");
  var leaf = sessionLeaf, target = -1, problems = [];
  if (wantLeaf !== null) {
    if (byId.has(wantLeaf)) leaf = byId.get(wantLeaf);
    else problems.push("No entry “" + wantLeaf + "” in this session: showing its last entry instead.");
  }
  if (wantTarget !== null) {
    if (byId.has(wantTarget)) {
      target = byId.get(wantTarget);
      if (wantLeaf === null) leaf = onPathOf(target, leaf) ? leaf : newestLeaf(target);
    } else problems.push("No entry “" + wantTarget + "” in this session.");
  }
  function onPathOf(pos, lf) { for (var p = lf; p >= 0; p = P[p]) if (p === pos) return true; return false; }
  notice(problems.join(" "));
  if (wantLeaf !== null || wantTarget !== null) {
    navigate(leaf, target >= 0 ? target : leaf);
  } else {
    showPath(leaf, -1);
    state.selected = -1;
    renderTree(leaf);
  }
  // Take in the entries as they arrive.
  if (watcher) watcher.observe(root, { childList: true, subtree: true });
  doc.addEventListener("DOMContentLoaded", pump);
  pump();
})();
