/*
 * What every calculator does with what a reader types (window.CalcFields), so that the same
 * rule reads the same in each of them:
 *
 * - a field is read from its text exactly as typed (inputs are type="text": a browser's
 *   number input hands a script "" for "3e" or "1e400", which would pass for "empty");
 * - text that is not a number, or a number too large to hold, is refused here, with one
 *   wording for each rule; every other rule is the library's (methodology.js);
 * - an error names the field by the label the reader sees, not by its name in the code;
 * - a note says in a sentence why a result is empty where the methodology leaves it empty.
 *
 * Loaded before calculators.js and planner.js, after methodology.js.
 */
(function () {
  "use strict";

  var M = window.Methodology;
  // A number as a person writes it: digits with one optional point, an optional sign and an
  // optional exponent (12, 0.5, .5, -3, 1e-3). Anything else is not read as a number.
  var NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  var WHOLE_TEXT = /^\d+$/;
  var RULES = Object.freeze({
    number: "is not a number (write it with digits, as 12, 0.5 or 1e-3)",
    finite: "is too large to be read as a number",
    whole: "must be a whole number >= 0",
    amount: "must be a finite number >= 0",
    empty: "is empty: write one line per task",
  });
  // The cells of a pasted line: separated by commas or tabs (a spreadsheet's copy), spaces
  // around them ignored. Only spaces: two tabs in a row are an empty cell between them.
  var CELL_SEPARATOR = / *[,\t] */;
  var EDGE_SPACES = /^[ \r]+|[ \r]+$/g;

  function fail(field, rule) {
    throw new M.InputError(field, rule);
  }

  /** The decimal typed in `input`, as its text (exact); refused when it is not one. */
  function decimal(input) {
    var text = input.value.trim();
    if (!NUMBER_TEXT.test(text)) fail(input.name, RULES.number);
    if (!isFinite(Number(text))) fail(input.name, RULES.finite);
    return text;
  }

  /** Like decimal(), but an empty field is null (a reading the record does not have). */
  function optionalDecimal(input) {
    return input.value.trim() === "" ? null : decimal(input);
  }

  /**
   * A whole number typed in `input`, or NaN for anything else, which the library refuses
   * naming the field and its own rule ("must be a whole number >= 0").
   */
  function whole(input) {
    var text = input.value.trim();
    return WHOLE_TEXT.test(text) ? Number(text) : NaN;
  }

  /**
   * The lines of a text area that hold something, each split into its cells at commas or
   * tabs: [{line: its number as the reader counts it, cells: [text, …]}]. A text area with
   * no such line is refused: there is nothing to compute.
   */
  function lines(input) {
    var rows = [];
    input.value.split(/\r?\n/).forEach(function (text, i) {
      // A line's trailing tabs are its last empty cells, so only spaces are trimmed.
      var cells = text.replace(EDGE_SPACES, "").split(CELL_SEPARATOR);
      if (text.trim() !== "") rows.push({ line: i + 1, cells: cells });
    });
    if (!rows.length) fail(input.name, RULES.empty);
    return rows;
  }

  /** An error of one cell of a line: the text area's label, the line, the cell's label. */
  function failCell(input, line, label, rule) {
    fail(input.name, "line " + line + ", " + label + ": " + rule);
  }

  /** A cell's whole number (digits only), refused naming the line and the cell. */
  function cellWhole(input, line, label, text) {
    if (!WHOLE_TEXT.test(text)) failCell(input, line, label, RULES.whole);
    if (!Number.isSafeInteger(Number(text))) failCell(input, line, label, RULES.finite);
    return Number(text);
  }

  /** A cell's amount (a decimal >= 0) as its text (exact), refused naming the line and cell. */
  function cellAmount(input, line, label, text) {
    if (!NUMBER_TEXT.test(text)) failCell(input, line, label, RULES.number);
    if (!isFinite(Number(text))) failCell(input, line, label, RULES.finite);
    // Negative by its sign and a digit other than 0 before any exponent: -1e-400 is
    // negative though Number() reads it as -0.
    if (/^-/.test(text) && /[1-9]/.test(text.split(/[eE]/)[0])) {
      failCell(input, line, label, RULES.amount);
    }
    return text;
  }

  function labelText(node) {
    var label = node && node.id ? document.querySelector('label[for="' + node.id + '"]') : null;
    return label ? label.textContent.trim() : null;
  }

  /**
   * The label of the field an error names: "mean_latency_ms" is "Mean latency (ms)", and
   * a field of the n-th item of a list ("verification.0.weight") is the label in that item
   * (a row marked data-item="verification"), after the item's own name ("entry 1").
   */
  function labelOf(section, field) {
    var parts = field.split(".");
    if (parts.length === 3 && /^\d+$/.test(parts[1])) {
      var items = section.querySelectorAll('[data-item="' + parts[0] + '"]');
      var item = items[Number(parts[1])];
      var inner = item ? labelText(item.querySelector('[name="' + parts[2] + '"]')) : null;
      if (inner) return (item.getAttribute("aria-label") || "") + " " + inner;
    }
    var node = section.querySelector('[name="' + parts[parts.length - 1] + '"]');
    return labelText(node) || field;
  }

  /** An error as the reader reads it: the field's label, then the rule. */
  function message(section, error) {
    if (!error.field) return error.rule || error.message;
    return labelOf(section, error.field) + ": " + error.rule;
  }

  function show(section, error) {
    var node = section.querySelector(".calc-error");
    if (!node) return;
    node.textContent = error ? message(section, error) : "";
    node.hidden = !error;
  }

  /** A sentence under the results (why one is empty), or none. */
  function note(section, text) {
    var node = section.querySelector(".calc-note");
    if (!node) return;
    node.textContent = text || "";
    node.hidden = !text;
  }

  window.CalcFields = Object.freeze({
    RULES: RULES,
    decimal: decimal,
    optionalDecimal: optionalDecimal,
    whole: whole,
    lines: lines,
    fail: fail,
    failCell: failCell,
    cellWhole: cellWhole,
    cellAmount: cellAmount,
    labelOf: labelOf,
    message: message,
    show: show,
    note: note,
  });
})();
