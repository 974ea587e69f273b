// The archive's full-text search (package searchindex): the index's
// files are scripts in search/ that hand their data, gzip-compressed and
// in base64, to window.canopySearch; a query loads meta.js once, then the
// shards of its terms, then the text files of the results it shows. Only
// files of the archive's folder are loaded (a <script> works on file://,
// fetch does not). Results are made with the DOM, never from HTML.
(function () {
  "use strict";
  var doc = document, box = doc.getElementById("ft-q");
  if (!box) return;
  var statusEl = doc.getElementById("ft-status"), list = doc.getElementById("ft-results"), more = doc.getElementById("ft-more");
  var sel = { agent: doc.getElementById("ft-agent"), project: doc.getElementById("ft-project"), model: doc.getElementById("ft-model") };
  var from = doc.getElementById("ft-from"), to = doc.getElementById("ft-to");
  var PAGE = 20, PHRASE_CHECK = 200, SNIP = 90;

  // ---- Loading: one <script> per file, its data handed back here ----
  var pending = new Map(), loaded = new Map();
  function deliver(name) {
    return function (id, b64) {
      var p = pending.get(name + ":" + id);
      if (!p) return;
      pending.delete(name + ":" + id);
      inflate(b64).then(function (s) { p.resolve(JSON.parse(s)); }, p.reject);
    };
  }
  window.canopySearch = { meta: deliver("meta"), shard: deliver("shard"), text: deliver("text") };
  function load(name, id, path) {
    var key = name + ":" + id;
    if (loaded.has(key)) return loaded.get(key);
    var pr = new Promise(function (resolve, reject) {
      pending.set(key, { resolve: resolve, reject: reject });
      var s = doc.createElement("script");
      s.src = "search/" + path + ".js";
      s.onerror = function () { pending.delete(key); reject(new Error("search/" + path + ".js could not be loaded")); };
      doc.head.appendChild(s);
    });
    loaded.set(key, pr);
    return pr;
  }
  function inflate(b64) {
    var bytes;
    if (Uint8Array.fromBase64) bytes = Uint8Array.fromBase64(b64);
    else {
      var bin = atob(b64);
      bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    }
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  }

  // ---- The index: sessions, shard keys, postings ----
  var meta = null, keys = null, maxToken = 32;
  var metaP = load("meta", "", "meta").then(function (m) {
    meta = m;
    keys = new Set(m.keys);
    maxToken = m.maxToken;
    fillFilters();
    return m;
  });
  metaP.catch(function (e) { say("Search is not available: " + e.message); });
  var S = { page: 0, title: 1, agent: 2, project: 3, date: 4, models: 5, text: 6, len: 7 };
  var avgLen = 1;
  function hex(s) {
    return Array.prototype.map.call(new TextEncoder().encode(s), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  function shard(key) {
    var id = hex(key);
    return load("shard", id, "t/" + id).then(function (sh) {
      if (!sh.map) { sh.map = new Map(); sh.t.forEach(function (t, i) { sh.map.set(t, i); }); }
      return sh;
    });
  }
  // The shard of a term: the longest key that begins it.
  function keyOf(term) {
    var r = Array.from(term);
    for (var n = Math.min(r.length, 8); n > 0; n--) {
      var k = r.slice(0, n).join("");
      if (keys.has(k)) return k;
    }
    return null;
  }
  // The shards that may hold terms beginning with p.
  function keysOf(p) {
    var out = [], own = keyOf(p);
    if (own !== null) out.push(own);
    keys.forEach(function (k) { if (k !== own && k.length > p.length && k.indexOf(p) === 0) out.push(k); });
    return out;
  }
  // postings: session number -> count, of a term or (prefix) every term
  // beginning with it.
  function postings(term, prefix) {
    var ks = prefix ? keysOf(term) : [keyOf(term)].filter(function (k) { return k !== null; });
    return Promise.all(ks.map(shard)).then(function (shs) {
      var m = new Map();
      shs.forEach(function (sh) {
        var add = function (i, w) {
          var p = sh.p[i], n = 0;
          for (var j = 0; j < p.length; j += 2) { n += p[j]; m.set(n, (m.get(n) || 0) + p[j + 1] * w); }
        };
        if (!prefix) { if (sh.map.has(term)) add(sh.map.get(term), 1); return; }
        sh.t.forEach(function (t, i) { if (t.indexOf(term) === 0) add(i, t === term ? 1 : 0.7); });
      });
      return m;
    });
  }

  // ---- Queries: words, prefixes (word* and the word being typed), "phrases" ----
  var WORD = /[\p{L}\p{N}\p{M}_]+/gu;
  function tokens(s) {
    return (s.toLowerCase().match(WORD) || []).filter(function (t) { return Array.from(t).length <= maxToken; });
  }
  function parse(q) {
    var groups = [], re = /"([^"]*)("?)|(\S+)/g, m, typing = !/\s$/.test(q);
    while ((m = re.exec(q))) {
      if (m[1] !== undefined) {
        var ts = tokens(m[1]);
        if (ts.length > 1) groups.push({ terms: ts, phrase: true });
        else if (ts.length) groups.push({ terms: ts });
        continue;
      }
      // A word of several (billing.go) is their phrase; the last is a
      // prefix when it ends in * or is being typed (three letters on).
      var w = m[3], ws = tokens(w);
      if (!ws.length) continue;
      var lastT = ws[ws.length - 1];
      var prefix = /\*$/.test(w) || (typing && re.lastIndex === q.length && Array.from(lastT).length >= 3);
      groups.push({ terms: ws, phrase: ws.length > 1, prefix: prefix });
    }
    return groups;
  }

  // ---- Ranking: BM25 over sessions, all groups required; then newest ----
  function score(groups, maps, filterOK) {
    var N = meta.s.length, acc = new Map(), first = true;
    groups.forEach(function (g, gi) {
      var m = maps[gi], df = m.size, idf = Math.log(1 + (N - df + 0.5) / (df + 0.5)), next = new Map();
      m.forEach(function (tf, n) {
        if (!first && !acc.has(n)) return;
        if (first && !filterOK(n)) return;
        var len = meta.s[n][S.len] || 1, k1 = 1.2, b = 0.75;
        var s = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avgLen));
        next.set(n, (first ? 0 : acc.get(n)) + s);
      });
      acc = next;
      first = false;
    });
    var out = [];
    acc.forEach(function (s, n) { out.push({ n: n, score: s }); });
    out.sort(function (a, b) {
      return b.score - a.score || cmp(meta.s[b.n][S.date], meta.s[a.n][S.date]) || cmp(meta.s[a.n][S.page], meta.s[b.n][S.page]);
    });
    return out;
  }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  // A phrase's terms are all required; its order is checked in the text.
  function groupMaps(groups) {
    return Promise.all(groups.map(function (g) {
      return Promise.all(g.terms.map(function (t, i) { return postings(t, g.prefix && i === g.terms.length - 1); })).then(function (ms) {
        if (ms.length === 1) return ms[0];
        var out = new Map();
        ms[0].forEach(function (tf, n) {
          var min = tf;
          for (var i = 1; i < ms.length; i++) { if (!ms[i].has(n)) return; min = Math.min(min, ms[i].get(n)); }
          out.set(n, min);
        });
        return out;
      });
    }));
  }

  // ---- Filters ----
  function fillFilters() {
    var seen = { agent: new Set(), project: new Set(), model: new Set() }, total = 0;
    meta.s.forEach(function (s) {
      seen.agent.add(s[S.agent]);
      seen.project.add(s[S.project]);
      if (s[S.models]) s[S.models].split("\n").forEach(function (m) { seen.model.add(m); });
      total += s[S.len] || 0;
    });
    avgLen = meta.s.length ? Math.max(1, total / meta.s.length) : 1;
    Object.keys(seen).forEach(function (k) {
      Array.from(seen[k]).sort().forEach(function (v) {
        var o = doc.createElement("option");
        o.value = v;
        o.textContent = v || "(none)";
        sel[k].appendChild(o);
      });
    });
  }
  function filterOK() {
    var a = sel.agent.value, p = sel.project.value, m = sel.model.value, f = from.value, t = to.value;
    var any = sel.agent.selectedIndex > 0, anyP = sel.project.selectedIndex > 0, anyM = sel.model.selectedIndex > 0;
    return function (n) {
      var s = meta.s[n], d = (s[S.date] || "").slice(0, 10);
      if (any && s[S.agent] !== a) return false;
      if (anyP && s[S.project] !== p) return false;
      if (anyM && s[S.models].split("\n").indexOf(m) < 0) return false;
      if (f && (!d || d < f)) return false;
      if (t && (!d || d > t)) return false;
      return true;
    };
  }

  // ---- The text: the entry a result opens at, and its snippet ----
  function text(n) {
    var s = meta.s[n];
    if (!s[S.text]) return Promise.resolve(null);
    return load("text", s[S.text], "text/" + s[S.text].slice(0, 2) + "/" + s[S.text]);
  }
  // matchAt: where in toks (an entry's tokens, with their offsets) group
  // g matches first: the index of its first token, or -1.
  function matchAt(toks, g) {
    var n = g.terms.length;
    for (var i = 0; i + n <= toks.length; i++) {
      var ok = true;
      for (var j = 0; j < n && ok; j++) {
        var t = toks[i + j].t, want = g.terms[j];
        ok = g.prefix && j === n - 1 ? t.indexOf(want) === 0 : t === want;
      }
      if (ok) return i;
    }
    return -1;
  }
  function entryTokens(s) {
    var out = [], m, low = s.toLowerCase();
    WORD.lastIndex = 0;
    while ((m = WORD.exec(low))) out.push({ t: m[0], at: m.index, end: m.index + m[0].length });
    return out;
  }
  // best finds the entry to open: the first where every group matches,
  // else where most do; null when a phrase is nowhere (not a result).
  function best(doc_, groups) {
    var top = null, topN = -1, phrases = groups.filter(function (g) { return g.phrase; });
    var found = phrases.map(function () { return false; });
    for (var i = 0; i < doc_.e.length; i++) {
      var toks = entryTokens(doc_.e[i][3]), hits = [], n = 0;
      groups.forEach(function (g, gi) {
        var at = matchAt(toks, g);
        hits.push(at >= 0 ? toks[at] : null);
        if (at >= 0) { n++; var pi = phrases.indexOf(g); if (pi >= 0) found[pi] = true; }
      });
      if (n > topN) { top = { e: doc_.e[i], hits: hits }; topN = n; }
      if (n === groups.length) break;
    }
    if (found.indexOf(false) >= 0) return null;
    return top;
  }

  // ---- Showing the results ----
  var gen = 0, state = null, answered = 0; // answered: the last search whose status is said
  function say(s) { statusEl.textContent = s; }
  function run() {
    var g = ++gen, q = box.value;
    if (!meta) { if (q.trim()) say("Loading the index…"); metaP.then(function () { if (g === gen) run(); }); return; }
    var groups = parse(q);
    state = null;
    if (!groups.length) { clear(); say(q.trim() ? "No word to search for." : ""); return; }
    // Nothing on the page changes until the results are there: in a big
    // archive every change above the long sessions table costs a frame
    // of tens of milliseconds, which the files the search loads wait for.
    // The results shown stay until the new ones replace them; the status
    // says "Searching…" only if they are slow to come.
    setTimeout(function () { if (g === gen && answered !== g) say("Searching…"); }, 300);
    groupMaps(groups).then(function (maps) {
      if (g !== gen) return;
      var ranked = score(groups, maps, filterOK());
      state = { g: g, groups: groups, ranked: ranked, shown: 0, checked: 0, phrase: groups.some(function (x) { return x.phrase; }) };
      if (!state.phrase) clear(); // a phrase's, as its first result comes
      showMore();
    }, function (e) { if (g === gen) { clear(); answered = g; say("Search failed: " + e.message); } });
  }
  function clear() {
    if (list.firstChild) list.textContent = "";
    more.hidden = true;
  }
  // showMore adds the next results: their rows at once (title, agent,
  // project, date), then each row's snippet and link to its entry once its
  // text has arrived. A phrase's results are those whose text has it.
  function showMore() {
    var st = state;
    if (!st) return;
    var want = st.shown + PAGE, batch = [];
    while (st.checked < st.ranked.length && st.shown + batch.length < want && (!st.phrase || st.checked < PHRASE_CHECK)) {
      batch.push(st.ranked[st.checked++]);
    }
    var rows = batch.map(function (r) { return { r: r, li: st.phrase ? null : row(r.n) }; });
    if (!st.phrase) st.shown += rows.length;
    if (!st.phrase || st.shown > 0) status(st, false);
    Promise.all(rows.map(function (x) {
      return text(x.r.n).then(function (d) { return d; }, function () { return null; }).then(function (d) {
        if (st !== state) return;
        var b = d ? best(d, st.groups) : null;
        if (st.phrase) {
          if (!b) return;
          if (!st.shown) clear();
          x.li = row(x.r.n);
          st.shown++;
          status(st, false);
        }
        fill(x.li, x.r.n, b, st.groups);
      });
    })).then(function () {
      if (st !== state) return;
      if (st.phrase && st.shown < want && st.checked < st.ranked.length && st.checked < PHRASE_CHECK) { showMore(); return; }
      if (!st.shown) clear();
      status(st, true);
      more.hidden = st.checked >= st.ranked.length || (st.phrase && st.checked >= PHRASE_CHECK);
    });
  }
  function status(st, done) {
    var n = st.ranked.length, s;
    answered = st.g;
    if (st.phrase) {
      s = st.shown + (st.shown === 1 ? " session has" : " sessions have") + " the phrase";
      if (st.checked < n) s += " (" + st.checked + " of the " + n + " with all its words checked)";
    } else s = n === 0 ? "No session matches." : n + (n === 1 ? " session matches" : " sessions match") + (st.shown < n ? "; showing " + st.shown : "");
    say(done ? s : s + "…");
  }
  function row(n) {
    var s = meta.s[n], li = doc.createElement("li"), a = doc.createElement("a"), p = doc.createElement("p");
    a.href = s[S.page];
    a.textContent = s[S.title] || s[S.page];
    a.className = "ft-title";
    p.className = "ft-meta";
    p.textContent = [s[S.agent], s[S.project], (s[S.date] || "").slice(0, 16).replace("T", " ")].filter(Boolean).join(" · ");
    li.appendChild(a);
    li.appendChild(p);
    list.appendChild(li);
    return li;
  }
  // fill links a result to its entry (on its branch) and shows the
  // entry's words around the first match, the matches marked.
  function fill(li, n, b, groups) {
    if (!b) return;
    var a = li.querySelector("a"), e = b.e, words = [];
    groups.forEach(function (g) { words = words.concat(g.terms); });
    var q = new URLSearchParams();
    if (e[1]) q.set("leafId", e[1]);
    q.set("targetId", e[0]);
    q.set("hl", words.join(" "));
    a.href = meta.s[n][S.page] + "?" + q.toString();
    var txt = e[3], hits = b.hits.filter(Boolean).sort(function (x, y) { return x.at - y.at; });
    var at = hits.length ? hits[0].at : 0, start = Math.max(0, at - SNIP), end = Math.min(txt.length, at + 2 * SNIP);
    var p = doc.createElement("p"), pos = start;
    p.className = "ft-snippet";
    var kind = doc.createElement("span");
    kind.className = "ft-kind";
    kind.textContent = e[2] + ": ";
    p.appendChild(kind);
    if (start > 0) p.appendChild(doc.createTextNode("…"));
    entryTokens(txt.slice(start, end)).forEach(function (tk) {
      var hit = groups.some(function (g) { return g.terms.some(function (t, j) { return tk.t === t || (g.prefix && j === g.terms.length - 1 && tk.t.indexOf(t) === 0); }); });
      if (!hit) return;
      p.appendChild(doc.createTextNode(txt.slice(pos, start + tk.at)));
      var m = doc.createElement("mark");
      m.textContent = txt.slice(start + tk.at, start + tk.end);
      p.appendChild(m);
      pos = start + tk.end;
    });
    p.appendChild(doc.createTextNode(txt.slice(pos, end) + (end < txt.length ? "…" : "")));
    li.appendChild(p);
  }

  box.addEventListener("input", run);
  [sel.agent, sel.project, sel.model, from, to].forEach(function (el) { el.addEventListener("change", run); });
  more.addEventListener("click", showMore);
  doc.getElementById("ft-form").addEventListener("submit", function (e) { e.preventDefault(); run(); });
  // Keys: down from the box to the results, up and down among them,
  // Escape back to the box.
  function links() { return Array.prototype.slice.call(list.querySelectorAll("a.ft-title")); }
  box.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown" && links().length) { e.preventDefault(); links()[0].focus(); }
  });
  list.addEventListener("keydown", function (e) {
    var ls = links(), i = ls.indexOf(doc.activeElement);
    if (i < 0) return;
    if (e.key === "ArrowDown" && i + 1 < ls.length) { e.preventDefault(); ls[i + 1].focus(); }
    else if (e.key === "ArrowUp") { e.preventDefault(); (i > 0 ? ls[i - 1] : box).focus(); }
    else if (e.key === "Escape") { e.preventDefault(); box.focus(); }
  });
})();
