// The archive index: search and sort over tables that are complete
// without script.
(function () {
  "use strict";
  var doc = document;
  doc.documentElement.classList.add("js");
  var rows = Array.prototype.slice.call(doc.querySelectorAll("section.project tbody tr"));
  // A subagent's row (data-depth) follows the row of what ran it: a
  // session's row and the rows under it move and show together.
  function depth(tr) { return parseInt(tr.dataset.depth || "0", 10); }
  function sub(tr) { return tr.classList.contains("sub"); } // a subagent's, listed under what ran it or not
  var subs = rows.filter(sub).length;
  // A row is found by any of its cells and by its project's path.
  var text = new Map();
  rows.forEach(function (tr) {
    var h = tr.closest("section.project").querySelector("h2");
    text.set(tr, ((h ? h.textContent + " " : "") + Array.prototype.map.call(tr.cells, function (td) { return td.textContent + " " + (td.dataset.v || ""); }).join(" ")).toLowerCase());
  });
  var search = doc.getElementById("search"), count = doc.getElementById("count");

  function counted(shown, total, one, many, filtered) {
    return (filtered ? shown + " of " : "") + total + " " + (total === 1 ? one : many);
  }
  function filter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0, shownSubs = 0;
    doc.querySelectorAll("section.project tbody").forEach(function (body) {
      // What ran each row, as the rows stand now (sorting moves them).
      var up = [];
      Array.prototype.forEach.call(body.rows, function (tr) {
        var d = depth(tr);
        up.length = d;
        up.push(tr);
        var ok = words.every(function (w) { return text.get(tr).indexOf(w) >= 0; });
        tr.hidden = !ok;
        // A row shown shows what ran it.
        if (ok) up.forEach(function (x) { x.hidden = false; });
      });
      Array.prototype.forEach.call(body.rows, function (tr) {
        if (tr.hidden) return;
        if (sub(tr)) shownSubs++;
        else shown++;
      });
    });
    doc.querySelectorAll("section.project").forEach(function (sec) {
      sec.hidden = !sec.querySelector("tbody tr:not([hidden])");
    });
    var n = words.length > 0;
    count.textContent = counted(shown, rows.length - subs, "session", "sessions", n) + (subs ? ", " + counted(shownSubs, subs, "subagent", "subagents", n) : "");
  }
  search.addEventListener("input", filter);
  filter();

  // The tables' headings stick under the search bar, whatever its height.
  var tools = doc.querySelector(".tools");
  function toolsHeight() { doc.documentElement.style.setProperty("--tools-h", tools.offsetHeight + "px"); }
  toolsHeight();
  window.addEventListener("resize", toolsHeight);

  // The compact view: a line a session; the choice is kept.
  var compact = doc.getElementById("compact");
  function setCompact(on) {
    doc.body.classList.toggle("compact", on);
    compact.setAttribute("aria-pressed", on ? "true" : "false");
    toolsHeight();
  }
  try { setCompact(localStorage.getItem("canopy-index-compact") === "1"); } catch (e) { /* storage refused */ }
  compact.addEventListener("click", function () {
    var on = !doc.body.classList.contains("compact");
    setCompact(on);
    try { localStorage.setItem("canopy-index-compact", on ? "1" : "0"); } catch (e) { /* not kept: fine */ }
  });

  // Sorting: a click on a column heading sorts every project's table by
  // that column; a second click reverses it.
  doc.querySelectorAll("thead th").forEach(function (th) {
    var b = doc.createElement("button");
    b.type = "button";
    b.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(b);
    b.addEventListener("click", function () { sortBy(th.cellIndex, th.dataset.type, th.getAttribute("aria-sort") === "ascending" ? -1 : 1); });
  });
  function sortBy(col, type, dir) {
    doc.querySelectorAll("section.project table").forEach(function (table) {
      table.querySelectorAll("thead th").forEach(function (th) {
        if (th.cellIndex === col) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        else th.removeAttribute("aria-sort");
      });
      var body = table.tBodies[0];
      // A session's row and the subagents' rows under it sort as one.
      var groups = [];
      Array.prototype.forEach.call(body.rows, function (tr) {
        if (depth(tr) > 0 && groups.length) groups[groups.length - 1].rows.push(tr);
        else groups.push({ rows: [tr] });
      });
      var list = groups.map(function (g, i) {
        var v = g.rows[0].cells[col].dataset.v || "";
        return { rows: g.rows, v: type === "num" ? parseFloat(v) || 0 : v.toLowerCase(), i: i };
      });
      list.sort(function (a, b) {
        if (a.v < b.v) return -dir;
        if (a.v > b.v) return dir;
        return a.i - b.i;
      });
      list.forEach(function (x) { x.rows.forEach(function (tr) { body.appendChild(tr); }); });
    });
  }
})();
