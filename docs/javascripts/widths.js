/* Tables and code blocks wider than the article. The layout decides, not the markup: after
   the theme has wrapped each table in its scroll box, and again when the window changes size,
   - a table too wide for the article is set compact first (tighter cells, no minimum width
     of a column), at any width;
   - one that still does not fit a narrow screen turns into cards, one a row, each cell
     after the header of its column (no column is hidden, an empty cell is left out);
   - a table or a code block that still does not fit scrolls sideways, under a visible line
     saying so (a shadow alone goes unseen on a phone).
   Nothing is fetched; without scripts the boxes still scroll. */
(function () {
  "use strict";

  // Under this width (px, the theme's tablet breakpoint, 45em) a table too wide for the
  // article is set as cards; wider screens have room to scroll it with the cue instead.
  var CARDS_BELOW_PX = 720;
  // Sub-pixel rounding of a box's width.
  var SLACK_PX = 1;
  // The narrowest window (px) the tables are laid out again for.
  var NARROWEST_PX = 200;
  var CUE_TEXT = "Wider than the page: scroll sideways to see all of it \u2192";

  function overflows(box) {
    return box.scrollWidth > box.clientWidth + SLACK_PX;
  }

  function labelCells(table) {
    var headers = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    Array.prototype.forEach.call(table.querySelectorAll("tbody tr"), function (row) {
      Array.prototype.forEach.call(row.children, function (cell, at) {
        if (headers[at] && !cell.hasAttribute("data-label")) {
          cell.setAttribute("data-label", headers[at]);
        }
        // A cell with nothing in it would show its label alone.
        var empty = !cell.textContent.trim() && !cell.querySelector("img, svg, input, math");
        cell.toggleAttribute("data-empty", empty);
      });
    });
  }

  function uncue(box) {
    var wrap = box.parentElement;
    if (wrap && wrap.classList.contains("scroll-cued")) {
      wrap.parentElement.insertBefore(box, wrap);
      wrap.parentElement.removeChild(wrap);
    }
  }

  function cue(box) {
    if (box.parentElement.classList.contains("scroll-cued")) return;
    var wrap = document.createElement("div");
    wrap.className = "scroll-cued";
    var line = document.createElement("p");
    line.className = "scroll-cue";
    line.textContent = CUE_TEXT;
    box.parentElement.insertBefore(wrap, box);
    wrap.appendChild(line);
    wrap.appendChild(box);
  }

  function scrollBoxOf(element) {
    return element.closest(".md-typeset__scrollwrap, .calc-scroll") || element;
  }

  function arrange() {
    var narrow = window.innerWidth < CARDS_BELOW_PX;
    document.querySelectorAll(".md-typeset table").forEach(function (table) {
      if (table.closest("figure.formula, .plot svg")) return;
      var box = scrollBoxOf(table);
      uncue(box);
      // A table laid out to fit (data-fixed-layout) is never set compact or as cards.
      if (table.hasAttribute("data-fixed-layout")) {
        if (overflows(box)) cue(box);
        return;
      }
      table.removeAttribute("data-layout");
      if (overflows(box)) table.setAttribute("data-layout", "compact");
      if (narrow && table.hasAttribute("data-layout") && table.querySelector("thead th")) {
        // Cards where the compact table does not fit, or fits only in columns so narrow
        // that it comes out taller than its cards.
        var compact = overflows(box) ? Infinity : table.getBoundingClientRect().height;
        labelCells(table);
        table.setAttribute("data-layout", "cards");
        if (!overflows(box) && table.getBoundingClientRect().height >= compact) {
          table.setAttribute("data-layout", "compact");
        }
      }
      if (overflows(box)) cue(box);
    });
    document.querySelectorAll(".md-typeset pre > code").forEach(function (code) {
      var pre = code.parentElement;
      uncue(pre);
      if (overflows(code)) cue(pre);
    });
  }

  // The observer below is off while arrange() moves boxes, or each move would call it again.
  var watcher = new MutationObserver(later);
  function watch() {
    var article = document.querySelector("article");
    if (article) watcher.observe(article, { childList: true, subtree: true });
  }
  function layOut() {
    watcher.disconnect();
    arrange();
    watcher.takeRecords();
    watch();
  }

  var pending = null;
  function later() {
    if (pending) window.cancelAnimationFrame(pending);
    pending = window.requestAnimationFrame(layOut);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(layOut);
  } else {
    window.addEventListener("load", layOut);
  }
  // A window narrower than any screen is a passing state (Chromium lays a page out in a
  // 1 px window while it takes a screenshot beyond the window): the layout stays as it is.
  window.addEventListener("resize", function () {
    if (window.innerWidth >= NARROWEST_PX) later();
  });
  // A <details> that opens lays out its tables for the first time.
  document.addEventListener(
    "toggle",
    function (event) {
      if (event.target.open) later();
    },
    true
  );
  // A calculator draws and redraws its tables as the reader types: lay them out again.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watch);
  } else {
    watch();
  }
})();
