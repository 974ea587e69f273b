/*
 * prologue.js: the opening of the page's one closure (the script's
 * description, "(function () {", "use strict") and what every part
 * shares: doc and root; the row flags (F_*, as render/view.go writes
 * them) and ROW_H; the tree data T, with n, P, FL, TXT, KIND, LBL, FIG and
 * CONV, NEST;
 * byId, byDomId and domId (entry ids to positions, and to element ids);
 * the search text's readers (texts, plainText, attrEscape);
 * posOfElement; kids (each entry's children); and the page's elements
 * (treeEl, statusEl, searchEl, noticeEl, sidebar).
 *
 * Relies on: search.js (searchTexts: a function declaration, hoisted,
 * so it is called here before its part).
 */
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
  var n = T.id.length, P = T.p, FL = T.f, TXT = T.t, KIND = T.k, LBL = T.l || {}, FIG = T.g || {};
  // CONV: each entry's conversation (0: the session's own, k: a
  // subagent's, grafted under the call that ran it); null when the
  // session has only its own.
  var CONV = T.c || null;
  // NEST: some entries are drawn inside others' cards as articles of
  // their own (a subagent's conversation, folded records): only top-level
  // articles start an entry.
  var NEST = !!CONV || !!T.r;
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
  var emptyEl = doc.getElementById("tree-empty");

