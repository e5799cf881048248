/* The glossary's terms on a page (<abbr title>, from docs/includes/glossary.md) for every
   reader, a touch screen's included: a term is marked once in each section, never in a
   heading, and a tap (or Enter, or Space) shows its definition under it, with a link to the
   glossary page; a second tap, Escape or a tap elsewhere hides it. A title shows only on
   hover, which a phone has not. Nothing is fetched. */
(function () {
  "use strict";

  var GLOSSARY_PAGE = "glossary.html";
  var HEADINGS = "h1, h2, h3, h4, h5, h6";
  // A section is what follows a second-level heading, up to the next one.
  var SECTION_HEADING = "H2";

  function unwrap(abbr) {
    abbr.replaceWith(document.createTextNode(abbr.textContent));
  }

  // The anchor of a term's entry, as docs/macros/glossary.py writes it.
  function slug(term) {
    var text = term.toLowerCase().replace(/\^/g, "-hat-").replace(/@/g, "-at-");
    text = text.replace(/[^a-z0-9\u00c0-\u024f\u0370-\u03ff]+/g, "-").replace(/^-+|-+$/g, "");
    return "term-" + text;
  }

  function close(except) {
    document.querySelectorAll(".gloss-term[aria-expanded='true']").forEach(function (term) {
      if (term === except) return;
      term.setAttribute("aria-expanded", "false");
      document.getElementById(term.getAttribute("aria-controls")).hidden = true;
    });
  }

  function mark(abbr, index) {
    var definition = abbr.getAttribute("title");
    var term = abbr.textContent;
    var tip = document.createElement("span");
    tip.className = "gloss-tip";
    tip.id = "gloss-tip-" + index;
    tip.setAttribute("role", "note");
    tip.hidden = true;
    tip.appendChild(document.createTextNode(definition + " "));
    var more = document.createElement("a");
    more.href = GLOSSARY_PAGE + "#" + slug(term);
    more.textContent = "Glossary";
    tip.appendChild(more);
    abbr.removeAttribute("title"); // the definition is the tip's, not a hover-only title
    abbr.classList.add("gloss-term");
    abbr.setAttribute("tabindex", "0");
    abbr.setAttribute("role", "button");
    abbr.setAttribute("aria-expanded", "false");
    abbr.setAttribute("aria-controls", tip.id);
    abbr.setAttribute("aria-label", term + ": show what it means");
    abbr.after(tip);
    function toggle(event) {
      event.preventDefault();
      var open = abbr.getAttribute("aria-expanded") !== "true";
      close(abbr);
      abbr.setAttribute("aria-expanded", String(open));
      tip.hidden = !open;
    }
    abbr.addEventListener("click", toggle);
    abbr.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") toggle(event);
      if (event.key === "Escape") close(null);
    });
  }

  function markTerms() {
    var article = document.querySelector("article");
    if (!article) return;
    var seen = {};
    var index = 0;
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_ELEMENT);
    var found = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.tagName === SECTION_HEADING) found.push(node);
      else if (node.tagName === "ABBR" && node.hasAttribute("title")) found.push(node);
    }
    found.forEach(function (node) {
      if (node.tagName === SECTION_HEADING) {
        seen = {};
      } else if (node.closest(HEADINGS) || seen[node.textContent]) {
        unwrap(node);
      } else {
        seen[node.textContent] = true;
        mark(node, index++);
      }
    });
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest(".gloss-term, .gloss-tip")) close(null);
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markTerms);
  } else {
    markTerms();
  }
})();
