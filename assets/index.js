// The archive index: search and sort over tables that are complete
// without script.
(function () {
  "use strict";
  var doc = document;
  doc.documentElement.classList.add("js");
  var rows = Array.prototype.slice.call(doc.querySelectorAll("section.project tbody tr"));
  // A row is found by any of its cells and by its project's path.
  var text = rows.map(function (tr) {
    var h = tr.closest("section.project").querySelector("h2");
    return ((h ? h.textContent + " " : "") + Array.prototype.map.call(tr.cells, function (td) { return td.textContent + " " + (td.dataset.v || ""); }).join(" ")).toLowerCase();
  });
  var search = doc.getElementById("search"), count = doc.getElementById("count");

  function filter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
    rows.forEach(function (tr, i) {
      var ok = words.every(function (w) { return text[i].indexOf(w) >= 0; });
      tr.hidden = !ok;
      if (ok) shown++;
    });
    doc.querySelectorAll("section.project").forEach(function (sec) {
      sec.hidden = !sec.querySelector("tbody tr:not([hidden])");
    });
    count.textContent = words.length ? shown + " of " + rows.length + " sessions" : rows.length + (rows.length === 1 ? " session" : " sessions");
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
      var list = Array.prototype.slice.call(body.rows).map(function (tr, i) {
        var v = tr.cells[col].dataset.v || "";
        return { tr: tr, v: type === "num" ? parseFloat(v) || 0 : v.toLowerCase(), i: i };
      });
      list.sort(function (a, b) {
        if (a.v < b.v) return -dir;
        if (a.v > b.v) return dir;
        return a.i - b.i;
      });
      list.forEach(function (x) { body.appendChild(x.tr); });
    });
  }
})();
