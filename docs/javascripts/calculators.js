/*
 * The readers' calculators: small forms that call window.Methodology (methodology.js).
 *
 * Each calculator is a <section class="calc" data-calculator="..."> written by a macro
 * (docs/macros/calculator.py), hidden until this script shows it: without JavaScript the page
 * keeps its build-time content and a <noscript> note. Numbers shown here are the ones the
 * library returns; no number of the methodology is typed in this file.
 */
(function () {
  "use strict";

  var M = window.Methodology;
  var F = window.CalcFields;
  var SVG = "http://www.w3.org/2000/svg";

  function $(root, selector) {
    return root.querySelector(selector);
  }

  function $$(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      node.setAttribute(key, attrs[key]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (key) {
      node.setAttribute(key, attrs[key]);
    });
    return node;
  }

  function widgetData(section) {
    var node = $(section, "script.calc-data");
    return node ? JSON.parse(node.textContent) : {};
  }

  function places(kind) {
    return M.constant(kind === "score" ? "rounding.score_decimals" : "rounding.fraction_decimals");
  }

  function shown(value, digits) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (typeof value === "number") {
      return digits === undefined ? String(value) : value.toFixed(digits);
    }
    return String(value);
  }

  function setOut(section, key, text) {
    var node = $(section, '[data-out="' + key + '"]');
    if (node) node.textContent = text;
  }

  // --- composite ------------------------------------------------------------------------------

  // A form that recalculates as the reader types: `compute` fills the outputs, or throws an
  // error naming the field, which the section shows instead. Enter never submits the form.
  function liveForm(section, form, compute) {
    function update() {
      try {
        compute();
        F.show(section, null);
      } catch (error) {
        // No result of earlier input may stay beside the error: every output is cleared.
        $$(section, "[data-out]").forEach(function (node) {
          node.textContent = "—";
        });
        F.note(section, null);
        F.show(section, error);
      }
    }
    form.addEventListener("input", update);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
    });
    update();
  }

  function composite(section) {
    var form = $(section, "form");
    var get = function (name) {
      return form.elements[name];
    };
    liveForm(section, form, function () {
      var result = M.composite({
        completed_runs: F.whole(get("completed_runs")),
        successes: F.whole(get("successes")),
        // Strings keep the decimal typed: 0.03 is exactly three cents.
        mean_latency_ms: F.decimal(get("mean_latency_ms")),
        mean_cost_usd: F.decimal(get("mean_cost_usd")),
      });
      F.note(
        section,
        result.completed_runs === 0
          ? "With no completed run there is nothing to score: the report gives every " +
              "score as null (shown here as —), and the agent is not ranked."
          : null
      );
      setOut(section, "score", shown(result.score, places("score")));
      setOut(section, "success_rate", shown(result.success_rate, places("fraction")));
      setOut(section, "consistency", shown(result.consistency, places("fraction")));
      setOut(section, "latency_score", shown(result.latency_score, places("score")));
      setOut(section, "cost_score", shown(result.cost_score, places("score")));
      setOut(section, "zero_success_floor", shown(result.zero_success_floor));
    });
  }

  // --- repeatability --------------------------------------------------------------------------

  function repeatability(section) {
    var form = $(section, "form");
    liveForm(section, form, function () {
      var n = F.whole(form.elements.n);
      var c = F.whole(form.elements.c);
      var k = F.whole(form.elements.k);
      var value = M.passK(n, c, k); // refuses what is not a task's counts, naming the field
      var minimum = M.constant("repeatability.min_outcomes");
      if (n < minimum) {
        // The aggregate leaves such a task out: it has no pass^k of its own to show.
        setOut(section, "pass_k", "—");
        setOut(section, "exact", "—");
        F.note(
          section,
          "A task with fewer than " + minimum + " recorded outcomes is left out of pass^k " +
            "(the report skips it): record at least " + minimum + "."
        );
        return;
      }
      F.note(section, null);
      setOut(section, "pass_k", shown(value, places("fraction")));
      setOut(section, "exact", M.exact.passK(n, c, k).toString());
    });
  }

  // --- outcome --------------------------------------------------------------------------------

  var FLOAT_KEYS = [
    "outcome_score",
    "correctness",
    "recoverable_safety_raw",
    "recoverable_safety",
    "latency_sec",
  ];

  /** JSON as Python's json.dumps(indent=2) prints it: a float keeps its ".0". */
  function pythonJson(value) {
    return JSON.stringify(
      value,
      function (key, v) {
        if (FLOAT_KEYS.indexOf(key) >= 0 && typeof v === "number" && Number.isInteger(v)) {
          return "\u0000" + v + ".0";
        }
        return v;
      },
      2
    ).replace(/"\\u0000([^"]*)"/g, "$1");
  }

  function outcome(section) {
    var data = widgetData(section);
    var form = $(section, "form");
    var list = $(section, ".calc-check-list");
    var start = $(section, "#calc-outcome-start");
    var runId = "";
    var counter = 0;

    function select(id, label, name, options, chosen) {
      var wrap = el("div", { class: "calc-field" });
      wrap.appendChild(el("label", { for: id }, label));
      var node = el("select", { id: id, name: name });
      options.forEach(function (option) {
        var opt = el("option", { value: option }, option === "" ? "(none)" : option);
        if (option === chosen) opt.selected = true;
        node.appendChild(opt);
      });
      wrap.appendChild(node);
      return wrap;
    }

    function input(id, label, name, attrs, val) {
      var wrap = el("div", { class: "calc-field" });
      wrap.appendChild(el("label", { for: id }, label));
      var node = el("input", Object.assign({ id: id, name: name }, attrs));
      node.value = val === undefined || val === null ? "" : String(val);
      wrap.appendChild(node);
      return wrap;
    }

    function addEntry(entry) {
      counter += 1;
      var id = "calc-outcome-entry-" + counter;
      var row = el("div", {
        class: "calc-check",
        role: "group",
        "data-item": "verification",
        "aria-label": "entry",
      });
      row.appendChild(input(id + "-name", "name", "name", { type: "text" }, entry.name));
      row.appendChild(select(id + "-role", "role", "role", ["objective", "safeguard"], entry.role));
      row.appendChild(
        select(
          id + "-severity",
          "severity",
          "severity",
          ["", "recoverable", "catastrophic"],
          entry.severity || ""
        )
      );
      row.appendChild(
        select(id + "-status", "status", "status", ["passed", "failed", "error"], entry.status)
      );
      row.appendChild(
        input(
          id + "-weight",
          "weight",
          "weight",
          { type: "text", inputmode: "decimal", autocomplete: "off", placeholder: "default" },
          entry.weight
        )
      );
      var remove = el("button", { type: "button", class: "md-button calc-remove" }, "Remove");
      remove.setAttribute("aria-label", "Remove entry " + (entry.name || ""));
      remove.addEventListener("click", function () {
        row.remove();
        update();
      });
      row.appendChild(remove);
      list.appendChild(row);
    }

    function load(example) {
      var record = example.record;
      runId = record.run_id;
      list.replaceChildren();
      (record.verification || []).forEach(addEntry);
      var judged = record.judged || {};
      ["checklist", "outcome_validity", "recoverable"].forEach(function (key) {
        var given = judged[key] !== undefined && judged[key] !== null;
        form.elements[key].value = given ? String(judged[key]) : "";
      });
      update();
    }

    // The record the form shows; a weight or reading that is not a number is refused here
    // (F.optionalDecimal), never read as "no weight" or "no reading".
    function record() {
      var verification = $$(list, ".calc-check").map(function (row, i) {
        row.setAttribute("aria-label", "entry " + (i + 1));
        var field = function (name) {
          return $(row, '[name="' + name + '"]');
        };
        var entry = { name: field("name").value, role: field("role").value };
        entry.status = field("status").value;
        if (field("severity").value !== "") entry.severity = field("severity").value;
        var weight = F.optionalDecimal(field("weight"));
        if (weight !== null) entry.weight = Number(weight);
        return entry;
      });
      var result = { run_id: runId };
      if (verification.length) result.verification = verification;
      var judged = {};
      ["checklist", "outcome_validity", "recoverable"].forEach(function (key) {
        var reading = F.optionalDecimal(form.elements[key]);
        if (reading !== null) judged[key] = Number(reading);
      });
      if (Object.keys(judged).length) result.judged = judged;
      return result;
    }

    function update() {
      try {
        var rec = record();
        setOut(section, "record", JSON.stringify(rec));
        var result = M.outcomeScore(rec);
        F.show(section, null);
        setOut(section, "outcome_score", shown(result.outcome_score));
        setOut(section, "correctness", shown(result.correctness));
        setOut(section, "correctness_source", shown(result.correctness_source));
        setOut(section, "recoverable_safety", shown(result.recoverable_safety));
        setOut(section, "catastrophic_gate", shown(result.catastrophic_gate));
        setOut(section, "reason", result.reason);
        setOut(section, "json", pythonJson([result]));
      } catch (error) {
        F.show(section, error);
        setOut(section, "record", "");
        ["outcome_score", "correctness", "correctness_source", "recoverable_safety"].forEach(
          function (key) {
            setOut(section, key, "—");
          }
        );
        setOut(section, "catastrophic_gate", "—");
        setOut(section, "reason", "—");
        setOut(section, "json", "");
      }
    }

    form.addEventListener("input", update);
    form.addEventListener("change", update);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
    });
    start.addEventListener("change", function () {
      load(data.examples[Number(start.value)]);
    });
    $(section, ".calc-add").addEventListener("click", function () {
      addEntry({ name: "new check", role: "objective", status: "passed" });
      update();
      var names = $$(list, 'input[name="name"]');
      names[names.length - 1].focus();
    });
    load(data.examples[0]);
  }

  var WIDGETS = {
    composite: composite,
    repeatability: repeatability,
    outcome: outcome,
  };
  var started = false;

  function start(kind) {
    $$(document, 'section.calc[data-calculator="' + kind + '"]').forEach(function (section) {
      try {
        WIDGETS[kind](section);
        section.hidden = false;
      } catch (error) {
        // A calculator that cannot start stays hidden; the page still reads without it.
        if (window.console) console.error("calculator", error);
      }
    });
  }

  function init() {
    if (!M || !M.composite) return; // no methodology data on this page
    started = true;
    Object.keys(WIDGETS).forEach(start);
  }

  /** A calculator of another file (calc-radar.js): started now if the page already is. */
  function register(kind, make) {
    WIDGETS[kind] = make;
    if (started) start(kind);
  }

  // What the calculators of other files share with these.
  window.CalcWidgets = Object.freeze({
    $: $,
    $$: $$,
    el: el,
    svg: svg,
    widgetData: widgetData,
    places: places,
    shown: shown,
    setOut: setOut,
    register: register,
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
