/*
 * store.js: the entries' HTML, as it arrives. The conversation's chunks
 * (main, the sentinels edgeTop and edgeEnd, pathChunks, chunkAt,
 * pathEnd, loaded, storeDone), the server's path (pathIdx, pathPos), the
 * store of the entries off it (storeLoc; unpacked by loadStore, inflate64 and
 * loadStoreSoon, then storeArrived, storeFailed, afterStore), available,
 * complete and htmlOf; each chunk's entries cut from its text (parts,
 * entriesOf, articleStarts, cutEntries); the entries' elements, built
 * once (elements, tpl, elementsFor), with their pictures lifted out of
 * the HTML before it is parsed (liftPictures) and shown from blob: URLs
 * (pictureURL).
 *
 * Relies on: prologue.js (doc, T, n, FL, CONV, NEST, F_EMBEDDED, texts); conversation.js
 * (pathTo, decorate, expandOutputs, retryPending, settled, askEdge; pump
 * fills the chunks); navigation.js (notice); keys-indexing.js (prepareSoon);
 * toolbar.js (openOutputs).
 */
  // Entries' HTML. This script runs before the entries have arrived: the
  // page gives the tree, this script, then the store (every entry off the
  // session's active path, in inert <script type="text/x-canopy"
  // data-i="positions" data-z> chunks, compressed: see loadStore), then
  // #conversation (the active path, in <noscript> chunks, each with the
  // path index of its first entry in data-at (at most 512 entries or
  // about 1 MB): without JavaScript the browser shows them; with it they
  // are raw text, read in a fraction of the time their elements would
  // take to build). pump() takes in chunks as they complete; what needs an
  // entry that has not arrived waits for it. Elements are built only for
  // the entries the conversation shows in its window (see setView), and
  // kept.
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
    return storeDone && !storeFailed;
  }
  // complete: every entry has arrived that ever will (the store's may not,
  // in a browser that cannot unpack them: storeFailed).
  function complete() { return loaded && storeDone; }

  // The store's chunks are gzip-compressed and in base64 (data-z; see
  // render.writeEntries): about a quarter of their HTML, which only this
  // script reads. loadStore unpacks them all at once, each on its own
  // (DecompressionStream), puts each chunk's HTML in place of its text
  // (its data-z removed), and then makes the store's entries available
  // (storeArrived). Until then, what needs one of them waits, as for an
  // entry that has not arrived. The store is complete once #conversation
  // begins; it is unpacked at once when what is shown needs it (a link
  // or a click into a branch: see tryShow), else once the first entries
  // have been drawn (loadStoreSoon), or when the page has loaded: at
  // 100,000 entries, unpacking 18 MB took 130-190 ms of the page's thread
  // (inflating 100 ms), and begun with the conversation it made the first
  // entries show 70-190 ms later.
  var storeStarted = false, storeFailed = false, storeWaiting = [];
  var NO_STORE = "This browser cannot unpack the page's other branches: only the conversation of the session's leaf can be shown.";
  function loadStore() {
    if (storeStarted || !main) return;
    storeStarted = true;
    var zs = Array.prototype.slice.call(doc.querySelectorAll("#store > script[data-z]"));
    if (!zs.length) { Promise.resolve().then(storeArrived); return; } // as unpacked ones: later
    var unpacked;
    try {
      unpacked = Promise.all(zs.map(function (c) {
        return inflate64(c.textContent).text().then(function (html) {
          c.textContent = html;
          c.removeAttribute("data-z");
        });
      }));
    } catch (e) { // no DecompressionStream, no streams
      unpacked = Promise.reject(e);
    }
    unpacked.catch(function () {
      storeFailed = true;
      notice(NO_STORE);
    }).then(storeArrived);
  }
  // loadStoreSoon unpacks the store after the next frame (a hidden tab
  // draws none: within a second).
  function loadStoreSoon() {
    if (storeStarted) return;
    requestAnimationFrame(function () { setTimeout(loadStore, 0); });
    setTimeout(loadStore, 1000);
  }
  // inflate64 is what b64 holds, gzip-compressed and in base64, as a
  // Response to read it from: a store chunk's text, the embedded session
  // for download (download.js).
  function inflate64(b64) {
    var bytes;
    if (Uint8Array.fromBase64) bytes = Uint8Array.fromBase64(b64);
    else {
      var bin = atob(b64);
      bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream);
  }
  // storeArrived: the store's entries are available (or never will be).
  // What waited for them is done now.
  function storeArrived() {
    storeDone = true;
    var el = doc.getElementById("store");
    if (el) el.setAttribute("data-ready", storeFailed ? "no" : "yes"); // for tests and benchmarks
    retryPending();
    // A window cut short where the store's entries begin (a path into a
    // branch, shown before they were unpacked) grows now: its end may be
    // in view already, where the observer would not be told again.
    askEdge(edgeEnd);
    prepareSoon();
    if (loaded) settled();
    var w = storeWaiting;
    storeWaiting = [];
    w.forEach(function (f) { f(); });
  }
  // afterStore calls f once the store's entries are available (or never
  // will be).
  function afterStore(f) {
    if (storeDone) f();
    else storeWaiting.push(f);
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
  // articleStarts: where the entries start in a chunk's text (see
  // searchTexts' entryStarts, which the search workers share).
  function articleStarts(text) { return texts.entryStarts(text, NEST); }
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

