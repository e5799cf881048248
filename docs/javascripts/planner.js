/*
 * The uncertainty calculators of "How sure is a score?": the planner (p_A, δ, K, ρ → runs
 * per agent) and the success-rate interval of independent runs. Both call window.Methodology
 * (methodology.js: runsNeeded, successInterval); no number of the methodology is typed here.
 *
 * Like the other calculators (calculators.js), each is a <section class="calc"> written by a
 * macro (docs/macros/calculator.py), hidden until this script shows it. A result is shown
 * only for valid input: on an error every result is cleared and the error names the field
 * and the rule (or the limit) it broke.
 */
(function () {
  "use strict";

  var M = window.Methodology;
  var F = window.CalcFields;

  function $(root, selector) {
    return root.querySelector(selector);
  }

  function setOut(section, key, text) {
    var node = $(section, '[data-out="' + key + '"]');
    if (node) node.textContent = text;
  }

  function clearOut(section) {
    Array.prototype.forEach.call(section.querySelectorAll("[data-out]"), function (node) {
      node.textContent = "—";
    });
  }

  function fixed(value, kind) {
    var places = M.constant(
      kind === "score" ? "rounding.score_decimals" : "rounding.fraction_decimals"
    );
    return value.toFixed(places);
  }

  /** successes / runs as the report publishes a fraction: exact, halves rounded up. */
  function rate(successes, runs) {
    var places = M.constant("rounding.fraction_decimals");
    var scale = 10n ** BigInt(places);
    var units = new M.Rational(BigInt(successes), BigInt(runs)).halfUpUnits(places);
    return new M.Rational(units, scale).toDouble().toFixed(places);
  }

  // Recalculates as the reader types; Enter never submits. Results clear on an error.
  function liveForm(section, compute) {
    var form = $(section, "form");
    function update() {
      try {
        compute(form.elements);
        F.show(section, null);
      } catch (error) {
        clearOut(section);
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

  function planner(section) {
    liveForm(section, function (fields) {
      var perTask = F.whole(fields.runs_per_task);
      // Strings keep the decimal typed: 0.7 is exactly seven tenths.
      var runs = M.runsNeeded({
        p_a: F.decimal(fields.p_a),
        delta: F.decimal(fields.delta),
        runs_per_task: perTask,
        rho: F.decimal(fields.rho),
      });
      setOut(section, "runs", String(runs));
      setOut(section, "tasks", String(Math.ceil(runs / perTask)));
    });
  }

  function successInterval(section) {
    liveForm(section, function (fields) {
      var runs = F.whole(fields.runs);
      var successes = F.whole(fields.successes);
      var interval = M.successInterval({ runs: runs, successes: successes });
      setOut(section, "success_rate", runs > 0 ? rate(successes, runs) : "—");
      var minimum = M.constant("interval.min_tasks");
      F.note(
        section,
        interval === null
          ? "No interval below " + minimum + " runs: with fewer tasks than that the " +
              "report gives none (null), rather than one too narrow to trust."
          : null
      );
      if (interval === null) {
        setOut(section, "low", "—");
        setOut(section, "high", "—");
      } else {
        setOut(section, "low", fixed(interval.low, "fraction"));
        setOut(section, "high", fixed(interval.high, "fraction"));
      }
    });
  }

  var WIDGETS = { planner: planner, "success-interval": successInterval };

  function init() {
    if (!M || !M.runsNeeded) return; // no methodology data on this page
    Object.keys(WIDGETS).forEach(function (kind) {
      var section = document.querySelector('section.calc[data-calculator="' + kind + '"]');
      if (!section) return;
      try {
        WIDGETS[kind](section);
        section.hidden = false;
      } catch (error) {
        // A calculator that cannot start stays hidden; the page still reads without it.
        if (window.console) console.error("calculator", error);
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
