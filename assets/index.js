// The archive index: search and sort over tables that are complete
// without script.
(function () {
  "use strict";
  var doc = document;
  doc.documentElement.classList.add("js");
  var rows = Array.prototype.slice.call(doc.querySelectorAll("section.project tbody tr"));
  var text = rows.map(function (tr) { return tr.textContent.toLowerCase(); });
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
    count.textContent = words.length ? shown + " of " + rows.length + " sessions" : rows.length + " sessions";
  }
  search.addEventListener("input", filter);
  filter();

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
