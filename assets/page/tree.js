/*
 * tree.js: the sidebar tree. layout (which entries show, and their rows
 * with the reference exporter's indentation, capped by the tree's width:
 * fitCap); the virtual list (spacer,
 * drawRows: only the rows in view are in the DOM, each made by makeRow,
 * its connectors drawn by prefixOf and its marks by styleRow);
 * renderTree and scrolling (scrollTo, scrollRowIntoView); each row's
 * ARIA place (setPositions, placeRow) and a search's context in it
 * (contextsSoon); folding branch points (fold, unfold); and the tree's
 * events: scroll and resize, click, keys and focus (activate; Tab after a
 * chosen row goes on in its entry).
 *
 * Relies on: prologue.js (doc, T, n, P, FL, TXT, KIND, LBL, FIG, CONV, kids, byId,
 * ROW_H, treeEl, statusEl, searchEl, emptyEl, sidebar); conversation.js
 * (state, onPath, newestLeaf); navigation.js (navigate, entryElement);
 * filter.js (the row arrays and R_* bits, folded, hideF, needF,
 * labeledOnly, hasLabel, matches); search.js (hay); controls.js
 * (matchButtons); toolbar.js (toggleDrawer).
 */
  // layout computes the visible rows with the reference's indentation:
  // rows re-parented to their nearest visible ancestor, the branch holding
  // the active leaf first among siblings, connectors under branch points.
  var vfirst = new Int32Array(n), vnext = new Int32Array(n), vlast = new Int32Array(n), va = new Int32Array(n);
  var sPos = new Int32Array(n), sIndent = new Int32Array(n), sBits = new Uint8Array(n), sLevel = new Int32Array(n), sGut = new Array(n);
  var S_JB = 8; // a stack bit besides R_*: the parent branches
  // The first pass (which entries show: vfirst, vnext, vroots, vcount)
  // depends on the filter, the search and the leaf, which shows always but in a search. A
  // click changes only the leaf: without a search, the pass is kept (its
  // filter in vKey, its leaf in vLeaf) while both leaves would show anyway.
  // vpass: the entries the filter shows, without the leaf and the search;
  // vmatch: those the search finds.
  var vKey = "", vLeaf = -1, vroots = [], vcount = 0, vmatch = 0, vpass = 0;
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
      vmatch = 0;
      vpass = 0;
      for (pos = 0; pos < n; pos++) { // tree order: parents come first
        p = P[pos];
        par = p >= 0 ? va[p] : -1;
        f = FL[pos];
        var ok = !(f & hide) && (f & need) === need && (!lab || hasLabel[pos]);
        if (ok) vpass++;
        if (ok && query && (ok = matches(pos))) vmatch++;
        // The leaf shows always, but not in a search's answer: the rows
        // of a search are the entries it finds.
        if (ok || (pos === leaf && !query)) {
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
        if (CONV && sideBranches(pos, first, ind, bits, level, gut, di)) break;
        var branch = vnext[first] >= 0;
        if (branch) rBits[r] |= folded[pos] ? R_PARENT | R_FOLDED : R_PARENT;
        if (branch && folded[pos]) break;
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
    setPositions();
    showCounts();

    // sideBranches lays out the children of pos's row when some are in
    // another conversation (a subagent's, run by a call of pos) and at
    // most one goes on in pos's own: those are branches of it, below it
    // and a level deeper (folded with it), and the one in pos's own goes on
    // after them as an only child would, not a level deeper: a session
    // whose every other call ran a subagent does not drift to the right.
    // It pushes them on the stack and says whether it did.
    function sideBranches(pos, first, ind, bits, level, gut, di) {
      var own = -1, owns = 0, side = [], c;
      for (c = first; c >= 0; c = vnext[c]) {
        if (CONV[c] === CONV[pos]) { own = c; owns++; } else side.push(c);
      }
      if (!side.length || owns > 1) return false;
      rBits[rowCount - 1] |= folded[pos] ? R_PARENT | R_FOLDED : R_PARENT;
      var indent = ((bits & S_JB) && ind > 0) ? ind + 1 : ind;
      var gutters = ((bits & R_CONN) && !(bits & R_VROOT)) ? { position: Math.max(0, di - 1), show: !(bits & R_LAST), up: gut } : gut;
      if (own >= 0) { // popped last: after the branches
        sPos[sp] = own; sIndent[sp] = indent; sBits[sp] = R_LAST; sLevel[sp] = level; sGut[sp] = gutters; sp++;
      }
      if (folded[pos]) return true;
      side = side.filter(function (x) { return onPath[x]; }).concat(side.filter(function (x) { return !onPath[x]; }));
      for (c = side.length - 1; c >= 0; c--, sp++) {
        sPos[sp] = side[c]; sIndent[sp] = indent + 1; sBits[sp] = S_JB | R_CONN | (c === side.length - 1 ? R_LAST : 0);
        sLevel[sp] = level + 1; sGut[sp] = gutters;
      }
      return true;
    }
  }
  // showCounts writes the status line (the rows shown: folded branches hide
  // theirs), says when a search found nothing, and enables the buttons
  // that step through its matches.
  // A filter that shows none of the entries says so: its one row is the
  // active leaf, which the tree always shows. A search that finds nothing
  // in the filter names All only when All would find something.
  function showCounts() {
    statusEl.textContent = rowCount + " / " + n + " entries";
    var none = "";
    if (state.query.length && !vmatch) {
      var inAll = state.mode === "all" ? 0 : matchesInAll();
      none = "No entries match “" + searchEl.value.trim() + "”" +
        (inAll ? " in this filter; All shows " + inAll + (inAll === 1 ? " entry." : " entries.") : ".");
    } else if (!state.query.length && !vpass && state.mode !== "all") {
      none = "No entries in this filter: the one row is the active leaf.";
    }
    if (emptyEl && emptyEl.textContent !== none) emptyEl.textContent = none;
    matchButtons(state.query.length > 0 && vmatch > 0);
  }
  // matchesInAll: how many entries the search finds with the filter All.
  function matchesInAll() {
    var hide = F_EMPTY | (state.hideSilent ? F_SILENT : 0), c = 0;
    for (var pos = 0; pos < n; pos++) if (!(FL[pos] & hide) && matches(pos)) c++;
    return c;
  }
  // setPositions numbers each row among the rows of its level under the
  // same parent row: levels grow by one below a branch point, so a row at
  // level L starts the count of level L + 1 anew.
  var lvCount = new Int32Array(n + 2), lvSet = new Int32Array(n + 2);
  function setPositions() {
    var sets = 0;
    lvCount[1] = 0;
    for (var r = 0; r < rowCount; r++) {
      var L = rLevel[r];
      if (lvCount[L] === 0) { lvSet[L] = sets; setSize[sets++] = 0; }
      rPosIn[r] = ++lvCount[L];
      rSet[r] = lvSet[L];
      setSize[lvSet[L]]++;
      lvCount[L + 1] = 0;
    }
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
  // readView reports whether the tree's width changed how many slots of
  // connectors a row shows (the rows drawn need drawing again).
  function readView() {
    viewTop = treeEl.scrollTop;
    viewH = treeEl.clientHeight;
    return fitCap(treeEl.clientWidth);
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
          var pre = prefixOf(r);
          if (el.firstChild.textContent !== pre) el.firstChild.textContent = pre;
          placeRow(el, r);
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
    contextsSoon();
    var active = state.focus >= 0 && keep.has(state.focus) ? "row-" + state.focus : "";
    if (active) treeEl.setAttribute("aria-activedescendant", active); else treeEl.removeAttribute("aria-activedescendant");
  }

  // prefixOf draws a row's connectors: a gutter "│" for every ancestor
  // branch that goes on below, and "├─"/"└─" where the row branches off.
  // A row shows at most `cap` slots of them (see fitCap): past that depth
  // a badge with the row's level (placeRow) takes the outer slots' place
  // and only the innermost slots are drawn, so that however deep a branch
  // nests, the row keeps most of the sidebar for its text (and shaping
  // thousands of connectors per row does not make scrolling slow).
  function prefixOf(r) {
    var d = rDi[r], from = d > cap ? d - cap + 1 : 0, slot = new Array(d - from), prefix = "", bits = rBits[r];
    for (var g = rGut[r]; g; g = g.up) if (g.position >= from && g.position < d && slot[g.position - from] === undefined) slot[g.position - from] = g;
    for (var lv = from; lv < d; lv++) {
      var s = slot[lv - from];
      if (s) prefix += s.show ? "│  " : "   ";
      else if ((bits & R_CONN) && !(bits & R_VROOT) && lv === d - 1) prefix += (bits & R_LAST) ? "└─ " : "├─ ";
      else prefix += "   ";
    }
    return prefix;
  }
  // cap is how many slots of connectors a row shows: as many as fit in
  // two fifths of the tree's width (less the row's padding), two at least;
  // a wider sidebar shows more. slotW is a slot's width, measured once.
  var cap = 6, slotW = 0;
  function fitCap(w) {
    if (!slotW) {
      var m = doc.createElement("span");
      m.className = "prefix";
      m.style.whiteSpace = "pre";
      m.textContent = "│  │  │  │  ";
      spacer.appendChild(m);
      slotW = m.getBoundingClientRect().width / 4;
      m.remove();
    }
    var c = w > 0 && slotW > 0 ? Math.max(2, Math.floor((w * 0.4 - 8) / slotW)) : cap;
    if (c === cap) return false;
    cap = c;
    return true;
  }

  function makeRow(r) {
    var pos = rowPos[r];
    var el = doc.createElement("div");
    el.className = "row k-" + KIND[pos];
    el.id = "row-" + pos;
    el.setAttribute("role", "treeitem");
    el.setAttribute("data-entry-id", T.id[pos]);
    el.style.position = "absolute";
    el.style.left = "0";
    el.style.right = "0";
    el.style.height = ROW_H + "px";
    // The connectors and the marks are drawn, not read: a screen reader
    // has the row's level, place and state from its ARIA attributes.
    var pre = doc.createElement("span");
    pre.className = "prefix";
    pre.setAttribute("aria-hidden", "true");
    pre.textContent = prefixOf(r);
    var mark = doc.createElement("span");
    mark.className = "marker";
    mark.setAttribute("aria-hidden", "true");
    var twisty = doc.createElement("span");
    twisty.className = "twisty";
    twisty.setAttribute("aria-hidden", "true");
    el.appendChild(pre);
    el.appendChild(mark);
    el.appendChild(twisty);
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
    // The first row of a branch carries what the subtree under it did
    // and spent: its cost and turns in a badge after the text (where the
    // row has room: the text comes first), the whole line (calls, tokens,
    // time, files) in its title and for screen readers.
    var fig = FIG[pos];
    if (fig !== undefined) {
      var fb = doc.createElement("span");
      fb.className = "row-fig";
      fb.textContent = fig[0];
      fb.setAttribute("aria-hidden", "true");
      el.appendChild(fb);
      el.setAttribute("aria-description", "This branch: " + fig[1]);
    }
    el.title = fig === undefined ? TXT[pos] : TXT[pos] + "\n" + fig[1];
    placeRow(el, r);
    spacer.appendChild(el);
    return el;
  }
  // placeRow writes the row's level, place among its siblings and, for a
  // branch point, whether its branches show (what changed only).
  // A row deeper than the connectors shown has its level in a badge (the
  // prefix's data-depth, drawn by page.css; screen readers have aria-level).
  function placeRow(el, r) {
    var lv = String(rLevel[r]), pi = String(rPosIn[r]), sz = String(setSize[rSet[r]]);
    var ex = rBits[r] & R_PARENT ? (rBits[r] & R_FOLDED ? "false" : "true") : "";
    var dp = rDi[r] > cap ? lv : "";
    if (el._lv !== lv) { el._lv = lv; el.setAttribute("aria-level", lv); }
    if (el._dp !== dp) {
      el._dp = dp;
      if (dp) el.firstChild.setAttribute("data-depth", dp); else el.firstChild.removeAttribute("data-depth");
    }
    if (el._pi !== pi) { el._pi = pi; el.setAttribute("aria-posinset", pi); }
    if (el._sz !== sz) { el._sz = sz; el.setAttribute("aria-setsize", sz); }
    if (el._ex !== ex) {
      el._ex = ex;
      if (ex) el.setAttribute("aria-expanded", ex); else el.removeAttribute("aria-expanded");
      el.childNodes[2].textContent = ex ? (ex === "true" ? "▾" : "▸") : "";
    }
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

  // A search's context: a row whose own line lacks a term the search
  // found shows where the entry has it, once the browser is idle after
  // drawing (a keystroke's frame waits for none of it).
  var contextQueued = false;
  function contextsSoon() {
    if (contextQueued || (!state.query.length && !drawnContext)) return;
    contextQueued = true;
    var run = function () { contextQueued = false; drawContexts(); };
    if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 300 }); else setTimeout(run, 30);
  }
  var drawnContext = false;
  function drawContexts() {
    var key = state.query.join(" ");
    drawnContext = !!key;
    drawn.forEach(function (el, pos) {
      if (el._q === key) return;
      el._q = key;
      var text = key ? contextOf(pos) : "", span = el.querySelector(".row-ctx");
      if (!span && text) {
        span = doc.createElement("span");
        span.className = "row-ctx";
        el.appendChild(span);
      }
      if (span) span.textContent = text;
    });
  }
  function contextOf(pos) {
    var own = TXT[pos].toLowerCase(), missing = "";
    for (var q = 0; q < state.query.length && !missing; q++) if (own.indexOf(state.query[q]) < 0) missing = state.query[q];
    if (!missing) return "";
    var h = hay(pos), at = h.indexOf(missing);
    if (at < 0) return "";
    var from = Math.max(0, at - 24);
    return (from > 0 ? "…" : "") + h.slice(from, at + missing.length + 40).replace(/\s+/g, " ");
  }

  function scrollRowIntoView(pos) {
    scrollTo(pos);
    drawRows();
  }

  treeEl.addEventListener("scroll", function () { var wider = readView(); drawRows(wider, !wider); }, { passive: true });
  if (window.ResizeObserver) new ResizeObserver(function () { drawRows(readView()); }).observe(treeEl);
  else window.addEventListener("resize", function () { drawRows(readView()); });
  readView();

  function activate(pos) {
    if (pos < 0) return;
    navigate(newestLeaf(pos), pos);
    // On a narrow screen the drawer closes, and focus goes to the entry.
    if (sidebar.classList.contains("open") && matchMedia("(max-width: 900px)").matches) toggleDrawer(false, focusable(entryElement(pos)));
  }
  // focusable makes an entry's element focusable by script (not by Tab).
  function focusable(el) {
    if (el && !el.hasAttribute("tabindex")) el.tabIndex = -1;
    return el;
  }
  // fold collapses (or expands) the branches below a branch point.
  function fold(pos, on) {
    folded[pos] = on ? 1 : 0;
    renderTree(pos);
  }
  // unfold expands the branch points above pos, so that its row shows.
  function unfold(pos) {
    for (var p = P[pos]; p >= 0; p = P[p]) folded[p] = 0;
  }

  treeEl.addEventListener("click", function (ev) {
    var row = ev.target.closest(".row");
    if (!row) return;
    if (ev.target.classList.contains("twisty") && ev.target.textContent) {
      var at = byId.get(row.getAttribute("data-entry-id"));
      state.focus = at;
      fold(at, !folded[at]);
      return;
    }
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
      case "ArrowLeft": // collapse a branch point, else to the nearest shown ancestor
        if (r >= 0 && (rBits[r] & (R_PARENT | R_FOLDED)) === R_PARENT) { ev.preventDefault(); fold(rowPos[r], true); return; }
        if (r >= 0) { for (var a = P[rowPos[r]]; a >= 0; a = P[a]) if (rowIndex[a] >= 0) { next = rowIndex[a]; break; } }
        break;
      case "ArrowRight": // expand a collapsed branch point, else to the next row below
        if (r >= 0 && rBits[r] & R_FOLDED) { ev.preventDefault(); fold(rowPos[r], false); return; }
        if (r >= 0 && r + 1 < rowCount && kids[rowPos[r]]) next = r + 1;
        break;
      case "Enter": case " ":
        if (r >= 0) activate(rowPos[r]);
        ev.preventDefault();
        return;
      case "Tab": // after a row was chosen, Tab goes on in its entry
        var chosen = !ev.shiftKey && state.target >= 0 ? focusable(entryElement(state.target)) : null;
        if (chosen && chosen.isConnected) {
          ev.preventDefault();
          chosen.focus({ preventScroll: true });
          chosen.scrollIntoView({ block: "nearest" });
        }
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

