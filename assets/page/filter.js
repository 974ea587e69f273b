/*
 * filter.js: what the tree shows. It opens the tree's section ("The
 * tree", which search.js, workers.js and tree.js go on with): the arrays
 * of the visible rows that layout (tree.js) fills (rowCount, rowPos, rDi,
 * rLevel, rBits, rGut, the R_* bits, rowIndex) and haystack (search.js's
 * exact text); the filter mode's flags (filterFlags: hideF, needF,
 * labeledOnly; hasLabel); and the search's answer for each entry (hits,
 * newQuery, matches).
 *
 * Relies on: prologue.js (n, LBL, the F_* flags); conversation.js
 * (state); search.js (hay, quickMatch, quickTerms, lowChunks,
 * searchPartial); keys-indexing.js (indexed).
 */
  // ---- The tree ------------------------------------------------------

  // The visible rows, in order, as parallel arrays (no object per row: a
  // layout of 100,000 rows allocates nothing but these): the position,
  // the indentation drawn, the ARIA level, bits (R_* below) and the
  // gutter chain of each row.
  var rowCount = 0, rowPos = new Int32Array(n), rDi = new Int32Array(n), rLevel = new Int32Array(n);
  var rBits = new Uint8Array(n), rGut = new Array(n);
  var R_CONN = 1, R_LAST = 2, R_VROOT = 4, R_PARENT = 8, R_FOLDED = 16;
  // Each row's place among the rows of its level under one parent (for
  // aria-posinset and aria-setsize: the DOM holds only the rows in view):
  // rPosIn, and rSet, its set, whose size is setSize[rSet[r]].
  var rPosIn = new Int32Array(n), rSet = new Int32Array(n), setSize = new Int32Array(n + 1);
  // folded: the branch points whose branches the reader collapsed.
  var folded = new Uint8Array(n);
  var rowIndex = new Int32Array(n).fill(-1);
  var haystack = null; // lower-cased search text by position, built on first search

  // Which entries the filter shows (and the active leaf, but in a search only if found), as flags: an
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

