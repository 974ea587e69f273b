/*
 * workers.js: the search workers. indexWorker is a worker's whole script
 * (it uses nothing around it: startFinder sends its source, with
 * searchTexts' and domId's); finder holds the workers, which start once
 * the conversation has been drawn (startFinderSoon, startFinder), are
 * given each chunk's text (feed) until every chunk has been (seal,
 * finderCheck), and answer each query (ask, onFinderMessage);
 * finderFailed leaves the search to the page.
 *
 * Relies on: prologue.js (doc, n, F_EMBEDDED, domId, searchEl); store.js
 * (loaded, complete, parts, cutEntries); conversation.js (state); search.js
 * (searchTexts, lowChunks, cardAt); controls.js (applySearch);
 * keys-indexing.js (buildIndex, prepStore).
 */
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
    var tx = searchTexts(), n = 0, ids, P, FL, TXT, LBL, nested, cards, chunks = [], found, warm;
    self.onmessage = function (ev) {
      var d = ev.data;
      if (d.tree !== undefined) {
        var T = JSON.parse(d.tree);
        ids = T.id; P = T.p; FL = T.f; TXT = T.t; LBL = T.l || {}; n = ids.length;
        nested = !!T.c || !!T.r; // subagents' entries, records, inside other entries (NEST)
        found = new Uint8Array(n); // a term's hits (see find)
        warm = new Uint8Array(n);
        cards = tx.cardsByCaller(n, P, FL, F_EMBEDDED);
      } else if (d.html !== undefined) {
        // As articleStarts: "<article " starts an entry and nothing else
        // (at the top level, with subagents).
        var starts = tx.entryStarts(d.html, nested);
        if (starts.length === d.at.length) {
          var cs = chunkIndex(d.html, starts, d.at);
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
    function chunkIndex(html, starts, at) {
      var narrow = newText(), wide = newText();
      function add(p, label, row, text, caller) {
        var head = ((label || "") + " " + row + " ").toLowerCase();
        var t = head + text.toLowerCase(), into = /[^\x00-\xff]/.test(t) ? wide : narrow;
        into.pos.push(p); into.from.push(into.o); into.body.push(into.o + head.length); into.owner.push(caller);
        into.texts.push(t);
        into.o += t.length + 1;
      }
      for (var k = 0; k < at.length; k++) {
        var p = at[k], h = html.slice(starts[k], k + 1 < starts.length ? starts[k + 1] : html.length), emb = cards.get(p);
        if (!emb) {
          add(p, LBL[p], TXT[p], tx.plainText(h), -1);
          continue;
        }
        var oc = tx.ownAndCards(h, emb.map(function (e) { return domId(ids[e]); }), nested);
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
    if (complete() && window.requestIdleCallback) requestIdleCallback(buildIndex, { timeout: 1000 });
    if (state.query.length) applySearch();
  }

