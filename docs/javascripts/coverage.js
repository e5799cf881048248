/* The coverage map (docs/macros/coverage.py): a tap, a click, or Enter on a figure shows
   its full text (the cell, the figure with its target and whether it meets it, a paired
   difference's widths: the cell's title, which a pointer shows on hover) in a row under the
   figure's row; a second tap on it hides the row. Nothing is fetched. */
(function () {
  "use strict";

  function hide(table) {
    table.querySelectorAll("tr.cov-shown").forEach(function (row) {
      row.parentNode.removeChild(row);
    });
    table.querySelectorAll("td.cov-chosen").forEach(function (cell) {
      cell.classList.remove("cov-chosen");
    });
  }

  function show(cell) {
    var table = cell.closest("table");
    var again = cell.classList.contains("cov-chosen");
    hide(table);
    if (again) return;
    cell.classList.add("cov-chosen");
    var row = document.createElement("tr");
    row.className = "cov-shown";
    var text = document.createElement("td");
    text.colSpan = cell.parentNode.children.length;
    text.setAttribute("role", "status");
    text.textContent = cell.getAttribute("title");
    row.appendChild(text);
    cell.parentNode.parentNode.insertBefore(row, cell.parentNode.nextSibling);
  }

  function figureOf(event) {
    var target = event.target;
    return target && target.closest ? target.closest("table.coverage-map td[title]") : null;
  }

  document.addEventListener("click", function (event) {
    var cell = figureOf(event);
    if (cell) show(cell);
  });
  document.addEventListener("keydown", function (event) {
    var cell = figureOf(event);
    if (cell && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      show(cell);
    }
  });
})();
