/* Displayed formulas that fit their column. MathML Core breaks no line, so each formula is
   written on one line (a case a row, as its structure needs), and only where the browser
   lays it out wider than its column is it broken here, measured as it is laid out:
   1. cases wider than the column set each condition on its own line under its value;
   2. a fraction wider than the column sets its numerator and denominator in lines;
   3. a row breaks where the build marked it may (data-break, docs/macros/linebreak.py:
      a clause's end first, then before a relation or an operator, which starts the
      continued line, indented): in the fewest lines that fit, a clause kept whole
      where a line more allows it.
   A formula still wider than its column scrolls in its box under a visible cue. The lines
   are set again from the formula as written when the window's width changes, and for the
   formulas of a <details> when it opens. Without scripts a wide formula scrolls. */
(function () {
  "use strict";

  var MATHML = "http://www.w3.org/1998/Math/MathML";
  // A continued line's indent, and the shortest line cut (a line of `f(x)` helps no one).
  var INDENT_EM = 1;
  var SHORTEST_LINE_EM = 4;
  // Sub-pixel rounding of a box's width.
  var SLACK_PX = 1;
  var CUE_TEXT = "Wider than the page: scroll sideways to see all of it \u2192";
  var STACKED = "stacked";
  // The narrowest window (px) the formulas are set again for.
  var NARROWEST_PX = 200;
  // How often the lines of a formula are chosen at most (see setFormula).
  var RETRIES = 3;
  // Each formula's body as the build wrote it, to set it again at another width, and the
  // width (px) it is set for.
  var written = new WeakMap();
  var setFor = new WeakMap();

  function node(tag, attrs) {
    var made = document.createElementNS(MATHML, tag);
    Object.keys(attrs || {}).forEach(function (name) {
      made.setAttribute(name, attrs[name]);
    });
    return made;
  }

  function breakable(e) {
    return e.localName === "mrow" && e.children.length > 1;
  }

  // The horizontal extent of what `element` holds (a cell's box may be wider than it).
  function extent(element) {
    var left = Infinity;
    var right = -Infinity;
    Array.prototype.forEach.call(element.children, function (child) {
      if (child.localName === "annotation") return;
      var r = child.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      left = Math.min(left, r.left);
      right = Math.max(right, r.right);
    });
    return right > left ? right - left : 0;
  }

  // The leaves of `row` with the rows that hold them (outermost first): every row is
  // opened, no fraction, script, root or table (as macros/linebreak.py lists them).
  function atomsOf(row, path, found) {
    Array.prototype.forEach.call(row.children, function (child) {
      if (breakable(child)) atomsOf(child, path.concat([child]), found);
      else found.push({ path: path, node: child });
    });
    return found;
  }

  function cost(atom) {
    var mark = atom.node.getAttribute("data-break");
    return mark === null ? null : parseFloat(mark);
  }

  // Whether `element` lies in `container` itself, not in a cell or a fraction inside it.
  function owned(container, element) {
    for (var up = element.parentElement; up && up !== container; up = up.parentElement) {
      if (up.localName === "mtd" || (up.parentElement && up.parentElement.localName === "mfrac")) {
        return false;
      }
    }
    return true;
  }

  function isCases(e) {
    return (
      e.localName === "mrow" &&
      e.children.length === 2 &&
      e.children[0].localName === "mo" &&
      e.children[0].textContent.trim() === "{" &&
      e.children[1].localName === "mtable"
    );
  }

  function fractionOf(e) {
    if (e.localName === "mfrac") return e;
    if (e.localName === "mstyle" && e.children.length === 1 && e.children[0].localName === "mfrac") {
      return e.children[0];
    }
    return null;
  }

  function indent(em) {
    return node("mspace", { width: em + "em", class: "indent" });
  }

  function cell() {
    return node("mtd", { columnalign: "left", displaystyle: "true" });
  }

  // Rule 1: each row of the cases becomes two, the value and then its condition, indented.
  function stackCases(cases, budget, em) {
    var table = cases.children[1];
    var rows = Array.prototype.slice.call(table.children);
    var cells = [];
    rows.forEach(function (row) {
      table.removeChild(row);
      Array.prototype.slice.call(row.children).forEach(function (old, at) {
        var line = node("mtr");
        var fresh = cell();
        if (at > 0) fresh.appendChild(indent(INDENT_EM));
        while (old.firstChild) fresh.appendChild(old.firstChild);
        line.appendChild(fresh);
        table.appendChild(line);
        cells.push(fresh);
      });
    });
    var inner = budget - (table.getBoundingClientRect().left - cases.getBoundingClientRect().left);
    cells.forEach(function (c) {
      fit(c, inner - 2 * em * 0.6, em);
    });
  }

  // What a break weighs against a line: nothing between two clauses; inside a clause, a
  // line, and more the deeper it is in brackets. So a formula of clauses takes a line more
  // rather than break a clause, and never a line it does not need: two lines that would
  // fit on one weigh more than that one.
  var BREAK_LINES = 1;
  var DEPTH_LINES = 0.2;
  function weight(mark) {
    return mark < 0 ? 0 : BREAK_LINES + DEPTH_LINES * mark;
  }

  // Whether `one` (a way to set the atoms from some line on) is better than `other`: fewer
  // lines wider than the room, then less weight (lines and breaks); of equals, `one`,
  // whose line is the longer (the first lines are filled).
  function better(one, other) {
    if (other === null) return true;
    if (one.over !== other.over) return one.over < other.over;
    return one.weight <= other.weight + 1e-9;
  }

  // Where each line starts (indexes of `atoms`): the lines that fit the room of the least
  // weight (see weight), each no shorter than SHORTEST_LINE_EM but a relation's left side
  // (`cat_v`, then `= {…}`). A continued line is indented; a clause's is not.
  function lineStarts(atoms, budget, em) {
    var boxes = atoms.map(function (a) {
      return a.node.getBoundingClientRect();
    });
    // The right edge of the last atom before each index that is no space: a line's closing
    // space (a clause's quad) goes with the break, so it takes no room.
    var inked = [];
    inked[0] = -Infinity;
    atoms.forEach(function (atom, at) {
      var last = inked[at];
      inked[at + 1] = isSpace(atom.node) ? last : Math.max(last, boxes[at].right);
    });
    var ends = [];
    atoms.forEach(function (atom, at) {
      if (at > 0 && cost(atom) !== null) ends.push(at);
    });
    ends.push(atoms.length);
    // best[i]: the best way to set atoms[i…] on lines, the first starting at i.
    var best = {};
    best[atoms.length] = { over: 0, weight: 0, next: null };
    [0].concat(ends.slice(0, -1)).reverse().forEach(function (from) {
      var indent = from > 0 && cost(atoms[from]) >= 0 ? INDENT_EM * em : 0;
      var found = null;
      for (var k = 0; k < ends.length; k++) {
        var to = ends[k];
        if (to <= from) continue;
        var width = inked[to] - boxes[from].left;
        var wide = indent + width > budget + SLACK_PX;
        var short = to < atoms.length && width < SHORTEST_LINE_EM * em;
        if (!wide && short && operator(atoms[to].node) !== "relation") continue;
        var rest = best[to];
        var way = {
          over: rest.over + (wide ? 1 : 0),
          weight: rest.weight + 1 + (to < atoms.length ? weight(cost(atoms[to])) : 0),
          next: to,
        };
        if (better(way, found)) found = way;
        // A longer line is wider still: past the first that is too wide, none fits.
        if (wide) break;
      }
      best[from] = found;
    });
    var starts = [0];
    for (var way = best[0]; way.next < atoms.length; way = best[way.next]) {
      starts.push(way.next);
    }
    return starts;
  }

  // The atoms of one line in copies of the rows that held them, appended to `target`.
  function rebuild(atoms, target) {
    var open = []; // [row as written, its copy on this line]
    atoms.forEach(function (atom) {
      var keep = 0;
      while (keep < open.length && keep < atom.path.length && open[keep][0] === atom.path[keep]) {
        keep += 1;
      }
      open.length = keep;
      atom.path.slice(keep).forEach(function (row) {
        var copy = row.cloneNode(false);
        (open.length ? open[open.length - 1][1] : target).appendChild(copy);
        open.push([row, copy]);
      });
      (open.length ? open[open.length - 1][1] : target).appendChild(atom.node);
    });
  }

  // "relation" or "operator" where the build marked `e` as one (data-break-op), else null.
  function operator(e) {
    return e.getAttribute("data-break-op");
  }

  // Rule 3: `container`'s atoms set in lines of a stacked table.
  function breakLines(container, budget, em) {
    var atoms = atomsOf(container, [], []);
    var starts = lineStarts(atoms, budget, em);
    if (starts.length < 2) return;
    var table = node("mtable", { class: STACKED });

    starts.forEach(function (start, n) {
      var end = n + 1 < starts.length ? starts[n + 1] : atoms.length;
      var line = atoms.slice(start, end);
      // A clause's closing space goes with the break.
      while (n + 1 < starts.length && line.length > 1 && isSpace(line[line.length - 1].node)) {
        line.pop();
      }
      var fresh = cell();
      if (n > 0 && cost(atoms[start]) >= 0) {
        fresh.appendChild(indent(INDENT_EM));
        // The operator that starts a continued line is spaced as between two operands.
        var first = atoms[start].node;
        if (operator(first) !== null) {
          first.setAttribute("form", "infix");
        }
      }
      rebuild(line, fresh);
      table.appendChild(node("mtr")).appendChild(fresh);
    });
    while (container.firstChild) container.removeChild(container.firstChild);
    container.appendChild(table);
  }

  function isSpace(e) {
    return (
      e.localName === "mspace" ||
      (e.localName === "mtext" && e.textContent.replace(/\u00a0/g, "").trim() === "")
    );
  }

  // The fractions and cases of `container` itself (not of a cell or a fraction in it).
  // The fractions and cases of `container` itself (not of a cell or a fraction in it),
  // each with the indexes of its first and last atom among `atoms`.
  function parts(container, atoms) {
    var found = [];
    atoms.forEach(function (atom, at) {
      var fraction = fractionOf(atom.node);
      if (fraction) found.push({ node: atom.node, fraction: fraction, first: at, last: at });
    });
    // A cases is a row (opened, never an atom): its brace and its table are atoms.
    atoms.forEach(function (atom, at) {
      var row = atom.node.parentElement;
      if (atom.node === row.firstElementChild && isCases(row)) {
        found.push({ node: row, cases: row, first: at, last: at + 1 });
      }
    });
    return found;
  }

  // The room `part` has on the shortest line that can hold it: from the last place a line
  // may start before it to the first after it (a continued line is indented).
  function roomOf(part, atoms, budget, em) {
    var from = part.first;
    while (from > 0 && cost(atoms[from]) === null) from -= 1;
    var to = part.last + 1;
    while (to < atoms.length && cost(atoms[to]) === null) to += 1;
    var box = part.node.getBoundingClientRect();
    var before = box.left - atoms[from].node.getBoundingClientRect().left;
    var after = atoms[to - 1].node.getBoundingClientRect().right - box.right;
    var indented = from > 0 && cost(atoms[from]) >= 0;
    return budget - (indented ? INDENT_EM * em : 0) - Math.max(before, 0) - Math.max(after, 0);
  }

  // A fraction or cases set in lines of at most `budget` px (rules 1 and 2).
  function narrow(part, budget, em) {
    if (part.cases) {
      stackCases(part.cases, budget, em);
    } else {
      Array.prototype.forEach.call(part.fraction.children, function (side) {
        if (side.localName === "mrow") fit(side, budget - 0.4 * em, em);
      });
    }
  }

  // `container` (a formula's body, a cell, a part of a fraction) in lines of at most
  // `budget` px where it is wider; `em` is the formula's font size in px.
  function fit(container, budget, em) {
    if (extent(container) <= budget + SLACK_PX) return;
    // Rules 1 and 2: a part wider than the shortest line that can hold it.
    var atoms = atomsOf(container, [], []);
    parts(container, atoms).forEach(function (part) {
      var room = roomOf(part, atoms, budget, em);
      if (part.node.getBoundingClientRect().width > room + SLACK_PX) narrow(part, room, em);
    });
    if (extent(container) <= budget + SLACK_PX) return;
    breakLines(container, budget, em);
  }

  function bodyOf(math) {
    var semantics = math.querySelector("semantics");
    return semantics ? semantics.firstElementChild : math;
  }

  function uncue(figure) {
    figure.classList.remove("scroll-cued");
    var cue = figure.querySelector(":scope > .scroll-cue");
    if (cue) figure.removeChild(cue);
  }

  function cue(figure) {
    var line = document.createElement("p");
    line.className = "scroll-cue";
    line.textContent = CUE_TEXT;
    figure.classList.add("scroll-cued");
    figure.insertBefore(line, figure.firstChild);
  }

  // The formula's body as the build wrote it, in place of the one shown.
  function restore(math) {
    var body = bodyOf(math);
    if (!written.has(math)) {
      written.set(math, body.cloneNode(true));
      return body;
    }
    var again = written.get(math).cloneNode(true);
    body.parentNode.replaceChild(again, body);
    return again;
  }

  function setFormula(math) {
    var figure = math.closest("figure.formula");
    var budget = math.getBoundingClientRect().width;
    // Set already for this width (a window that changed only its height, say): left alone.
    if (written.has(math) && setFor.get(math) === budget) return;
    var body = restore(math);
    uncue(figure);
    setFor.set(math, budget);
    if (budget === 0) return; // not laid out: set when it is
    var em = parseFloat(getComputedStyle(math).fontSize);
    // The room of a part is estimated before the lines are chosen: where the lines come
    // out wider than the column, they are chosen again for a column narrower by as much.
    var over = 0;
    for (var attempt = 0; attempt < RETRIES; attempt++) {
      if (attempt > 0) body = restore(math);
      fit(body, budget - over, em);
      var wider = extent(body) - budget;
      if (wider <= SLACK_PX) return;
      over += wider;
    }
    cue(figure);
  }

  function setAll(scope) {
    var root = document.documentElement;
    root.setAttribute("data-formulas", "setting");
    (scope || document).querySelectorAll("figure.formula > math").forEach(setFormula);
    root.setAttribute("data-formulas", "set");
  }

  var width = null;
  var pending = null;
  function resized() {
    // A window narrower than any screen is a passing state (Chromium lays a page out in a
    // 1 px window while it takes a screenshot beyond the window): the lines stay as set.
    if (window.innerWidth === width || window.innerWidth < NARROWEST_PX) return;
    width = window.innerWidth;
    document.documentElement.setAttribute("data-formulas", "pending");
    if (pending) window.cancelAnimationFrame(pending);
    pending = window.requestAnimationFrame(function () {
      pending = null;
      if (window.innerWidth >= NARROWEST_PX) setAll();
    });
  }

  function start() {
    width = window.innerWidth;
    setAll();
    window.addEventListener("resize", resized);
    // A <details> that opens lays out its formulas for the first time.
    document.addEventListener(
      "toggle",
      function (event) {
        if (event.target.open && event.target.querySelector("figure.formula")) {
          setAll(event.target);
        }
      },
      true
    );
  }

  document.documentElement.setAttribute("data-formulas", "pending");
  // Measured once the math font has loaded: the fallback's glyphs have other widths.
  var fonts = document.fonts && document.fonts.load ? document.fonts.load('1em "STIX Two Math"') : null;
  if (fonts) fonts.then(start, start);
  else start();
})();
