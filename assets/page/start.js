/*
 * start.js: the start. The deep link (?leafId=&targetId=) or the
 * session's leaf, shown; the entries taken in as they arrive (watcher,
 * pump); and the end of the closure ("})();").
 *
 * Relies on: prologue.js (doc, root, P, byId); conversation.js (state,
 * sessionLeaf, newestLeaf, showPath, watcher, pump); navigation.js
 * (notice, navigate); tree.js (renderTree).
 */
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
  if (rawCompareParam() !== null) openCompareLink(rawCompareParam());
  // Take in the entries as they arrive.
  if (watcher) watcher.observe(root, { childList: true, subtree: true });
  doc.addEventListener("DOMContentLoaded", pump);
  pump();
})();
