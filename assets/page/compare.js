/*
 * compare.js: the compare view, two branches side by side from where
 * they fork. CMP (the tree data's "x": each entry's figures, time and
 * files changed; absent for a session of one path, which has nothing to
 * compare); the fork of two leaves (forkOf); each side's figures
 * (sideFigures, summed as Session.Stats sums them; figureCells writes
 * them as the header's table does) and files (sideFiles); the view
 * (openCompare, drawCompare, closeCompare), opened from a row's
 * "compare" mark or the "c" key in the tree (its branch against the
 * active path), the tree's Compare button (two leaves picked), or the
 * deep link ?compare=<leaf A>,<leaf B> (openCompareLink); compareRowMark
 * (called by tree.js's makeRow).
 *
 * Relies on: prologue.js (doc, T, n, P, FL, TXT, kids, byId, domId, F_EMBEDDED,
 * treeEl, noticeEl, sidebar); store.js (elementsFor, loadStore,
 * complete, storeFailed, NO_STORE); conversation.js (state, pathTo, newestLeaf); navigation.js
 * (notice, navigate, updateURL); toolbar.js (toggleDrawer).
 */
  // ---- The compare view -----------------------------------------------

  var CMP = T.x || null;
  // SIDE_STEP: entries drawn at a time on a side (a button draws more);
  // MAX_FILES: files listed; MAX_LEAVES: leaves offered in a picker.
  var SIDE_STEP = 60, MAX_FILES = 200, MAX_LEAVES = 1000;
  var cmp = { on: false, a: -1, b: -1, view: null, back: null, seq: 0 };

  // forkOf: where the paths to a and b part (at: the last entry both
  // hold, -1 when none) and each one's entries after it.
  function forkOf(a, b) {
    var pa = pathTo(a), pb = pathTo(b), k = 0;
    while (k < pa.length && k < pb.length && pa[k] === pb[k]) k++;
    return { at: k > 0 ? pa[k - 1] : -1, shared: k, a: pa.slice(k), b: pb.slice(k) };
  }

  // sideFigures sums the entries' figures (htmlpage/compare.go writes
  // each entry's share: [role (an index in CMP.roles), calls, in, out,
  // cache read, cache write, recorded cost, estimated cost, flags]) as
  // Session.Stats does, and
  // the time from the earliest timestamp to the latest.
  function sideFigures(list) {
    var f = { entries: list.length, roles: {}, calls: 0, tin: 0, tout: 0, cr: 0, cw: 0, rec: 0, est: 0, flags: 0, t0: null, t1: null };
    list.forEach(function (pos) {
      var u = CMP.u[pos];
      if (u) {
        var role = u[0] >= 0 ? CMP.roles[u[0]] : "";
        if (role) f.roles[role] = (f.roles[role] || 0) + 1;
        f.calls += u[1] || 0; f.tin += u[2] || 0; f.tout += u[3] || 0; f.cr += u[4] || 0; f.cw += u[5] || 0;
        f.rec += u[6] || 0; f.est += u[7] || 0; f.flags |= u[8] || 0;
      }
      var t = CMP.ts[pos];
      if (t !== null && t !== undefined) {
        if (f.t0 === null || t < f.t0) f.t0 = t;
        if (f.t1 === null || t > f.t1) f.t1 = t;
      }
    });
    return f;
  }
  // costText is a side's cost as the header's table writes it
  // (htmlpage.costCell): recorded "$0.0123"; estimated "≈$0.01"; "—"
  // when nothing priced the tokens, never a $0 that means unknown.
  function costText(f) {
    var estimated = !!(f.flags & 1), tokens = f.tin + f.tout + f.cr + f.cw;
    var noTokens = !!(f.flags & 4) && tokens === 0 && f.rec === 0;
    var unknown = (!!(f.flags & 2) || noTokens) && !estimated && f.rec === 0;
    if (unknown) return "—";
    var usd = f.rec + f.est;
    if (estimated) return "≈$" + usd.toFixed(usd > 0 && usd < 0.01 ? 4 : 2);
    return "$" + usd.toFixed(4);
  }
  function thousands(x) {
    var s = String(Math.round(Math.abs(x))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return x < 0 ? "-" + s : s;
  }
  // duration is a time spent as the sidebar's figures write it
  // (text.Spent): "52s", "14 min", "2 h 05 min".
  function duration(ms) {
    var s = Math.floor(ms / 1000), m = Math.floor(s / 60), h = Math.floor(m / 60);
    if (s < 60) return s + "s";
    if (m < 60) return m + " min";
    return h + " h " + (m % 60 < 10 ? "0" : "") + (m % 60) + " min";
  }
  // figureCells: the rows of the figures table, [name, A's, B's].
  function figureCells(fa, fb, files) {
    function both(name, f) { return [name, f(fa, "a"), f(fb, "b")]; }
    return [
      both("Entries", function (f) { return thousands(f.entries); }),
      both("Prompts", function (f) { return thousands(f.roles.user || 0); }),
      both("Replies", function (f) { return thousands(f.roles.assistant || 0); }),
      both("Tool calls", function (f) { return thousands(f.calls); }),
      both("Tokens in / out", function (f) { return thousands(f.tin) + " / " + thousands(f.tout); }),
      both("Cache read / write", function (f) { return thousands(f.cr) + " / " + thousands(f.cw); }),
      both("Cost", costText),
      both("Time spent", function (f) { return f.t0 === null ? "—" : duration(f.t1 - f.t0); }),
      both("Files touched", function (f, side) { return thousands(files.count[side]); })
    ];
  }

  // sideFiles: the files each side's calls that ran changed (the rows'
  // files, the branches' figures' rule), in the order first changed (A's,
  // then B's others), each with how many of the side's replies changed it
  // and the last change (its reply, and its result, whose card shows it).
  function sideFiles(la, lb) {
    var byPath = new Map(), list = [], count = { a: 0, b: 0 };
    function walk(lst, side) {
      lst.forEach(function (pos) {
        var fs = CMP.files[pos];
        if (!fs) return;
        fs.forEach(function (c) {
          var f = byPath.get(c[0]);
          if (!f) { byPath.set(c[0], f = { path: c[0], a: null, b: null }); list.push(f); }
          if (!f[side]) { f[side] = { n: 0, pos: -1 }; count[side]++; }
          if (f[side].pos !== pos) f[side].n++;
          f[side].pos = pos;
          f[side].card = c[1];
        });
      });
    }
    walk(la, "a");
    walk(lb, "b");
    return { list: list, count: count };
  }

  // el makes an element with a class and text.
  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // copyOf is a copy of an entry's element for the view: its ids taken
  // (they are the conversation's), its link buttons left out, its
  // headings a level below the side's.
  function copyOf(src, level) {
    var c = src.cloneNode(true);
    c.removeAttribute("id");
    c.classList.remove("target");
    c.querySelectorAll("[id]").forEach(function (x) { x.removeAttribute("id"); });
    c.querySelectorAll(".copy-link").forEach(function (x) { x.remove(); });
    c.querySelectorAll("[role=heading]").forEach(function (x) { x.setAttribute("aria-level", String(level)); });
    return c;
  }
  // cardOf is the copy of the card in entry pos that shows the result at
  // position res (the card's id is the result's).
  function cardOf(pos, res) {
    var src = elementsFor([pos])[0], id = "entry-" + domId(T.id[res]);
    if (!src) return null;
    var cards = src.querySelectorAll(".tool[id]");
    for (var i = 0; i < cards.length; i++) if (cards[i].id === id) return copyOf(cards[i], 5);
    return null;
  }
  function rowName(pos) {
    return TXT[pos] || T.id[pos];
  }

  // compareRowMark gives a tree row its "compare" mark (tree.js's
  // makeRow): a click target for the pointer; keyboards have "c" and the
  // Compare button, screen readers the button.
  function compareRowMark(row) {
    if (!CMP) return;
    var m = el("span", "row-compare", "compare");
    m.setAttribute("aria-hidden", "true");
    m.title = "Compare this branch with the active path";
    row.appendChild(m);
  }
  // compareRow compares the branch of the row at pos (its newest leaf,
  // as a click would show) with the active path.
  function compareRow(pos) {
    var leaf = newestLeaf(pos);
    if (leaf === state.leaf) {
      notice("This row is on the active path: pick a second branch to compare it with.");
      openCompare(state.leaf, otherLeaf(state.leaf));
      return;
    }
    openCompare(state.leaf, leaf);
  }
  function otherLeaf(not) {
    for (var p = n - 1; p >= 0; p--) if (!kids[p] && p !== not) return p;
    return not;
  }
  if (CMP) {
    // Before the tree's own click (which would open the row's branch).
    treeEl.addEventListener("click", function (ev) {
      var mark = ev.target.closest && ev.target.closest(".row-compare");
      if (!mark) return;
      ev.stopPropagation();
      compareRow(byId.get(mark.parentNode.getAttribute("data-entry-id")));
    }, true);
    treeEl.addEventListener("keydown", function (ev) {
      if (ev.key !== "c" || ev.ctrlKey || ev.metaKey || ev.altKey || state.focus < 0) return;
      ev.preventDefault();
      compareRow(state.focus);
    });
    var tools = sidebar.querySelector(".tree-tools");
    if (tools) {
      var open = el("button", "", "Compare");
      open.type = "button";
      open.id = "compare-open";
      open.title = "Compare two branches: the focused row's and the active path (c in the tree)";
      open.addEventListener("click", function () {
        var b = state.focus >= 0 ? newestLeaf(state.focus) : -1;
        openCompare(state.leaf, b >= 0 && b !== state.leaf ? b : otherLeaf(state.leaf));
      });
      tools.insertBefore(open, tools.lastElementChild);
    }
  }

  // openCompare shows leaves a and b compared, in place of the
  // conversation, with its link in the address bar.
  function openCompare(a, b) {
    if (!CMP || a < 0 || b < 0) return;
    if (!cmp.on) cmp.back = doc.activeElement;
    cmp.on = true;
    cmp.a = a;
    cmp.b = b;
    doc.body.classList.add("comparing");
    if (sidebar.classList.contains("open")) toggleDrawer(false);
    drawCompare();
    try {
      var u = new URL(location.href);
      u.search = "?compare=" + encodeURIComponent(T.id[a]) + "," + encodeURIComponent(T.id[b]);
      history.replaceState(null, "", u.toString());
    } catch (e) { /* some file:// contexts refuse; the view still works */ }
    var h = doc.getElementById("compare-title");
    if (h) { h.focus({ preventScroll: true }); h.scrollIntoView({ block: "start" }); }
  }
  // closeCompare goes back to the conversation (focus: where it was
  // before, when refocus).
  function closeCompare(refocus) {
    if (!cmp.on) return;
    cmp.on = false;
    cmp.seq++;
    doc.body.classList.remove("comparing");
    if (cmp.view) cmp.view.hidden = true;
    updateURL();
    if (refocus && cmp.back && cmp.back.isConnected) cmp.back.focus();
  }
  // openCompareLink opens the view of a ?compare= link: two ids, joined
  // by a comma (a comma in an id is %2C in the link; a link whose ids
  // were decoded is split where both halves are ids).
  function openCompareLink(raw) {
    var parts = raw.split(","), a, b;
    function dec(s) { try { return decodeURIComponent(s.replace(/\+/g, " ")); } catch (e) { return s; } }
    if (parts.length === 2) { a = dec(parts[0]); b = dec(parts[1]); }
    var whole = dec(raw);
    if (!(byId.has(a) && byId.has(b))) {
      for (var i = whole.indexOf(","); i >= 0; i = whole.indexOf(",", i + 1)) {
        if (byId.has(whole.slice(0, i)) && byId.has(whole.slice(i + 1))) { a = whole.slice(0, i); b = whole.slice(i + 1); break; }
      }
    }
    if (!CMP) { notice("This session has one branch: there is nothing to compare."); return; }
    if (!(byId.has(a) && byId.has(b))) { notice("The link names no two entries of this session to compare (“" + whole + "”)."); return; }
    openCompare(byId.get(a), byId.get(b));
  }
  function rawCompareParam() {
    var m = /[?&]compare=([^&#]*)/.exec(location.search);
    return m ? m[1] : null;
  }

  function button(text, f) {
    var b = el("button", "", text);
    b.type = "button";
    b.addEventListener("click", f);
    return b;
  }
  function clip(s, max) { return s.length > max ? s.slice(0, max - 1) + "…" : s; }
  // hostOf: the entry whose element shows pos (a result drawn in its
  // call's card: the call's).
  function hostOf(pos) {
    while (pos >= 0 && (FL[pos] & F_EMBEDDED)) pos = P[pos];
    return pos;
  }

  // drawCompare draws the view of cmp.a and cmp.b. It waits until every
  // entry has arrived (the branches' are in the store, unpacked on demand).
  function drawCompare() {
    var v = cmp.view;
    if (!v) {
      v = cmp.view = el("section", "compare");
      v.id = "compare";
      v.setAttribute("aria-labelledby", "compare-title");
      noticeEl.parentNode.insertBefore(v, noticeEl.nextSibling);
      v.addEventListener("keydown", function (ev) {
        if (ev.key === "Escape" && !(ev.target && ev.target.tagName === "SELECT")) { ev.preventDefault(); closeCompare(true); }
      });
    }
    var seq = ++cmp.seq;
    v.hidden = false;
    v.textContent = "";
    var head = el("div", "cmp-head"), h = el("h2", "", "Comparing two branches");
    h.id = "compare-title";
    h.tabIndex = -1;
    head.appendChild(h);
    head.appendChild(button("Back to the conversation", function () { closeCompare(true); }));
    v.appendChild(head);
    v.appendChild(picker());
    if (!complete()) {
      loadStore();
      var wait = el("p", "note", "Loading the branches' entries…");
      wait.setAttribute("role", "status");
      v.appendChild(wait);
      setTimeout(function () { if (cmp.on && cmp.seq === seq) drawCompare(); }, 100);
      return;
    }
    var fk = forkOf(cmp.a, cmp.b), files = sideFiles(fk.a, fk.b);
    v.setAttribute("data-fork", fk.at >= 0 ? T.id[fk.at] : "");
    if (storeFailed) v.appendChild(el("p", "note note-warning", NO_STORE));
    v.appendChild(forkPart(fk));
    v.appendChild(figuresPart(fk, files));
    v.appendChild(filesPart(files));
    var sides = el("div", "cmp-sides");
    sides.appendChild(sidePart("a", "Branch A", cmp.a, fk.a));
    sides.appendChild(sidePart("b", "Branch B", cmp.b, fk.b));
    v.appendChild(sides);
  }

  // picker chooses the two leaves (at most MAX_LEAVES offered, and the
  // two shown).
  function picker() {
    var box = el("div", "cmp-pick"), leaves = [];
    for (var p = 0; p < n && leaves.length < MAX_LEAVES; p++) if (!kids[p]) leaves.push(p);
    [cmp.a, cmp.b].forEach(function (x) { if (leaves.indexOf(x) < 0) leaves.push(x); });
    var sel = {};
    ["a", "b"].forEach(function (k) {
      var lab = el("label", "", k === "a" ? "Branch A " : "Branch B "), s = el("select");
      s.id = "cmp-pick-" + k;
      leaves.forEach(function (pos) {
        var o = el("option", "", clip(rowName(pos), 60) + " · " + clip(T.id[pos], 16) +
          (pos === state.leaf ? " (active path)" : ""));
        o.value = String(pos);
        o.selected = pos === (k === "a" ? cmp.a : cmp.b);
        s.appendChild(o);
      });
      lab.appendChild(s);
      box.appendChild(lab);
      sel[k] = s;
    });
    box.appendChild(button("Compare", function () { openCompare(+sel.a.value, +sel.b.value); }));
    return box;
  }

  function part(cls, title) {
    var s = el("section", cls), h = el("h3", "", title);
    h.id = cls + "-title";
    s.setAttribute("aria-labelledby", h.id);
    s.appendChild(h);
    return s;
  }

  // forkPart: where the branches part, and the entry there.
  function forkPart(fk) {
    var s = part("cmp-fork", "Where they fork");
    if (fk.at < 0) {
      s.appendChild(el("p", "", "The two branches share no entry: each starts at a root of its own."));
    } else {
      s.appendChild(el("p", "", "Both branches follow the same " + thousands(fk.shared) +
        (fk.shared === 1 ? " entry" : " entries") + ", up to the fork: " + clip(rowName(fk.at), 120) + " (" + T.id[fk.at] + ")."));
      var src = elementsFor([hostOf(fk.at)])[0];
      if (src) {
        var d = el("details", "cmp-fork-entry"), sum = el("summary", "", "The fork entry");
        d.appendChild(sum);
        d.appendChild(copyOf(src, 4));
        s.appendChild(d);
      }
    }
    if (!fk.a.length || !fk.b.length) {
      s.appendChild(el("p", "note", (fk.a.length ? "Branch B" : "Branch A") + " ends at the fork: its leaf is on the other branch's path."));
    }
    return s;
  }

  // figuresPart: each side's figures, from the fork to its leaf.
  function figuresPart(fk, files) {
    var s = part("cmp-figures", "Figures from the fork");
    var wrap = el("div", "stats-wrap");
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", "Figures of the two branches");
    wrap.tabIndex = 0;
    var t = el("table", "stats cmp-stats"), thead = el("thead"), tr = el("tr"), tb = el("tbody");
    ["Figure", "Branch A", "Branch B"].forEach(function (x) {
      var th = el("th", "", x);
      th.scope = "col";
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    t.appendChild(thead);
    var fa = sideFigures(fk.a), fb = sideFigures(fk.b);
    figureCells(fa, fb, files).forEach(function (r) {
      var row = el("tr"), th = el("th", "", r[0]);
      th.scope = "row";
      row.appendChild(th);
      row.appendChild(el("td", "cmp-a", r[1]));
      row.appendChild(el("td", "cmp-b", r[2]));
      tb.appendChild(row);
    });
    t.appendChild(tb);
    wrap.appendChild(t);
    s.appendChild(wrap);
    if (CMP.priced && ((fa.flags | fb.flags) & 1)) {
      s.appendChild(el("p", "note", "≈ Estimated: the session records tokens, not prices; each message is priced at its date by " + CMP.priced + "."));
    }
    return s;
  }

  // filesPart: the files either side changed; those both changed are
  // marked, and each side's last change of a file is a fold (its card
  // copied when opened).
  function filesPart(files) {
    var s = part("cmp-files", "Files touched");
    if (!files.list.length) {
      s.appendChild(el("p", "", "Neither branch wrote or edited a file."));
      return s;
    }
    var both = files.list.filter(function (f) { return f.a && f.b; }).length;
    s.appendChild(el("p", "", thousands(files.list.length) + (files.list.length === 1 ? " file" : " files") +
      (both ? ", " + thousands(both) + " changed on both branches (marked “both”)." : ", none changed on both branches.")));
    var ul = el("ul", "cmp-file-list");
    files.list.slice(0, MAX_FILES).forEach(function (f) {
      var li = el("li", f.a && f.b ? "cmp-file cmp-both" : "cmp-file");
      var name = el("code", "", f.path);
      li.appendChild(name);
      if (f.a && f.b) li.appendChild(el("span", "cmp-badge", "both"));
      [["a", "A"], ["b", "B"]].forEach(function (k) {
        var c = f[k[0]];
        if (!c) return;
        var d = el("details", "cmp-change"), sum = el("summary", "", "Branch " + k[1] + ": changed in " +
          (c.n === 1 ? "1 reply" : thousands(c.n) + " replies") + "; the last change");
        d.appendChild(sum);
        d.addEventListener("toggle", function () {
          if (!d.open || d.childNodes.length > 1) return;
          d.appendChild(cardOf(c.pos, c.card) || el("p", "note", "This change is not in the page."));
        });
        li.appendChild(d);
      });
      ul.appendChild(li);
    });
    s.appendChild(ul);
    if (files.list.length > MAX_FILES) s.appendChild(el("p", "note", "And " + thousands(files.list.length - MAX_FILES) + " more files."));
    return s;
  }

  // sidePart: a side's entries from the fork, SIDE_STEP at a time.
  function sidePart(k, name, leaf, side) {
    var s = el("section", "cmp-side cmp-side-" + k), h = el("h3", "", name + ": " + clip(rowName(leaf), 100));
    h.id = "cmp-side-" + k + "-title";
    s.setAttribute("aria-labelledby", h.id);
    s.setAttribute("data-leaf", T.id[leaf]);
    s.appendChild(h);
    var meta = el("p", "cmp-meta", "Leaf " + T.id[leaf] + " · " + thousands(side.length) + (side.length === 1 ? " entry" : " entries") + " after the fork ");
    meta.appendChild(button("Open in the conversation", function () { closeCompare(false); navigate(leaf, leaf); }));
    s.appendChild(meta);
    var list = side.filter(function (pos) { return !(FL[pos] & F_EMBEDDED); });
    var box = el("div", "cmp-entries");
    s.appendChild(box);
    if (!list.length) box.appendChild(el("p", "note", "No entries after the fork."));
    else more(box, list, 0);
    return s;
  }
  function more(box, list, from) {
    var to = Math.min(list.length, from + SIDE_STEP);
    elementsFor(list.slice(from, to)).forEach(function (e) { box.appendChild(copyOf(e, 4)); });
    if (to < list.length) {
      var b = button("Show " + thousands(Math.min(SIDE_STEP, list.length - to)) + " more of " + thousands(list.length - to) + " entries", function () {
        b.remove();
        more(box, list, to);
      });
      b.className = "cmp-more";
      box.appendChild(b);
    }
  }
