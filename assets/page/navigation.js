/*
 * navigation.js: going to an entry. Its element (entryElement), marked
 * and scrolled to (markTarget, settle); the address bar kept in step
 * (updateURL, linkTo); the notice line (notice); and navigate, which
 * shows the path to a leaf and selects and scrolls to a target.
 *
 * Relies on: prologue.js (doc, T, domId, noticeEl); store.js (elements,
 * main); conversation.js (state, shown, lo, hi, showPath); tree.js
 * (renderTree, unfold).
 */
  function entryElement(pos) {
    return doc.getElementById("entry-" + domId(T.id[pos]));
  }

  var lastTarget = null;
  function markTarget(pos, scroll) {
    if (lastTarget) lastTarget.classList.remove("target");
    lastTarget = null;
    var el = pos >= 0 ? entryElement(pos) : null;
    if (el) {
      // An entry in a fold (a subagent's, in the card of the call that
      // ran it): the folds around it open.
      for (var d = el.parentElement; d && d !== main; d = d.parentElement) if (d.tagName === "DETAILS") d.open = true;
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

  // notice shows text in the notice line (sticky: in view wherever the
  // page scrolls), with a button that dismisses it.
  function notice(text) {
    noticeEl.textContent = "";
    noticeEl.hidden = !text;
    if (!text) return;
    var span = doc.createElement("span"), b = doc.createElement("button");
    span.textContent = text;
    b.type = "button";
    b.textContent = "Dismiss";
    b.addEventListener("click", function () { notice(""); });
    noticeEl.appendChild(span);
    noticeEl.appendChild(b);
  }

  // navigate shows the path to leaf, selects target's row and scrolls to
  // the target's entry.
  function navigate(leaf, target) {
    closeCompare(false);
    showPath(leaf, target, function () { markTarget(target, true); });
    state.target = target;
    state.selected = target;
    state.focus = target;
    unfold(target);
    renderTree(target);
    updateURL();
  }

