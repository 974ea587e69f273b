/*
 * search.js: the search text on the page's thread. The quick search,
 * which reads the chunks' HTML as they arrive until the exact text is
 * complete (lowChunk, setQuickTerms, quickMatch, firstHit); the tool
 * cards that draw results (cardsIn, cardOwner, cardOf, cardRange); the
 * exact search text (hay, partialHay, searchPartial); searchTexts, the
 * readers of an entry's search text that the workers share (it uses
 * nothing around it: workers.js runs its source); and cardText.
 *
 * Relies on: prologue.js (T, n, P, FL, TXT, LBL, CONV, NEST, F_EMBEDDED, byId,
 * byDomId, domId, texts, plainText, attrEscape); store.js (pathIdx,
 * pathPos, pathChunks, chunkAt, storeLoc, available, htmlOf,
 * articleStarts, liftPictures, tpl); conversation.js (state); filter.js
 * (haystack); workers.js (finder, feed).
 */
  // The quick search, until the exact index (hay) is complete: a term is
  // looked for in the entry's HTML, ignoring case, outside tags ("<" in
  // text is "&lt;"; ">" is "&gt;" or itself). Its hits are hits of the exact
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
    // A card ends at the subagents' conversations it draws after its
    // result (see cardSpan): where they start, in order.
    var subs = [], s = CONV ? h.indexOf('<details class="subagent"') : -1;
    for (; s >= 0; s = h.indexOf('<details class="subagent"', s + 1)) subs.push(s);
    while ((m = re.exec(h))) {
      if (m[1]) {
        var o = open.pop();
        if (o && o[1] >= 0 && cardAt[o[1]] === undefined) cardAt[o[1]] = [o[0], subs.length ? firstAfter(subs, o[0], m.index) : m.index];
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
  // firstAfter is the first of the sorted list at or after from, if
  // before to; else to.
  function firstAfter(list, from, to) {
    var a = 0, b = list.length;
    while (a < b) { var m = (a + b) >> 1; if (list[m] < from) a = m + 1; else b = m; }
    return a < list.length && list[a] < to ? list[a] : to;
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
      if (/["'+>\u03c2\u03c3]/.test(q)) return null;
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
  // cardRange: where the tool card of result id (or the article of a
  // subagent's entry) is in h[from..to) (the caller's HTML), or null.
  function cardRange(h, id, from, to) { return texts.cardSpan(h, domId(id), from, to, NEST); }

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
          var oc = texts.ownAndCards(htmlOf(pos) || "", emb.map(function (e) { return domId(T.id[e]); }), NEST);
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
    // entryStarts: where the entries start in a chunk's text. Every entry
    // is one <article>, and "<" in session text is "&lt;": "<article "
    // starts an entry and nothing else. With subagents (nested), the
    // entries of a subagent's conversation are articles inside the entry
    // of the call that ran it: only those at the top level start one.
    function entryStarts(text, nested) {
      var starts = [], depth = 0, open = text.indexOf("<article ");
      var close = nested ? text.indexOf("</article>") : -1;
      while (open >= 0) {
        if (close >= 0 && close < open) {
          if (depth > 0) depth--;
          close = text.indexOf("</article>", close + 10);
          continue;
        }
        if (!depth) starts.push(open);
        if (nested) depth++;
        open = text.indexOf("<article ", open + 9);
      }
      return starts;
    }
    // cardText is the text of the tool card whose element id is "entry-" +
    // domID in the caller's HTML: from its <div ... id="entry-id"> to the
    // </div> closing it; null if it is not there as our HTML writes it.
    function cardText(html, domID, nested) {
      var sp = cardSpan(html, domID, 0, html.length, nested);
      return sp ? plainText(html.slice(sp[0], sp[1])) : null;
    }
    // cardSpan is where that card is in html[from..to): [start, end), end
    // at the "</div" that closes it, or (nested: a page with subagents) at
    // the subagents' conversations the card draws after the call's result
    // (their entries have their own text); null if it is not there. A
    // subagent's entry is an <article id="entry-id">: its span ends at its
    // "</article".
    var SUB = '<details class="subagent"';
    function cardSpan(html, domID, from, to, nested) {
      var at = html.indexOf(' id="entry-' + attrEscape(domID) + '"', from);
      var start = at < 0 || at >= to ? -1 : html.lastIndexOf("<", at);
      if (start < from) return null;
      var article = html.startsWith("<article", start);
      var re = article ? /<(\/?)article\b/g : /<(\/?)div\b/g, depth = 0, m;
      re.lastIndex = start;
      while ((m = re.exec(html)) && m.index < to) {
        depth += m[1] ? -1 : 1;
        if (depth) continue;
        var end = m.index;
        if (nested && !article) {
          var sub = html.substring(start, end).indexOf(SUB);
          if (sub >= 0) end = start + sub;
        }
        return [start, end];
      }
      return [start, to];
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
    function ownAndCards(h, domIDs, nested) {
      var spans = [], cards = domIDs.map(function (id) {
        var sp = cardSpan(h, id, 0, h.length, nested);
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
    return { plainText: plainText, attrEscape: attrEscape, entryStarts: entryStarts, cardText: cardText, cardSpan: cardSpan,
      hay: hay, ownAndCards: ownAndCards, cardsByCaller: cardsByCaller };
  }
  function cardText(html, id) {
    var t = texts.cardText(html, domId(id), NEST);
    if (t !== null) return t;
    // Not found as written: ask the parser.
    tpl.innerHTML = html;
    var card = tpl.content.getElementById("entry-" + domId(id));
    t = card ? card.textContent : "";
    tpl.innerHTML = "";
    return t;
  }

