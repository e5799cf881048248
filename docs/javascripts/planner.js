/*
 * The uncertainty calculators of "How sure is a score?": the planner (p_A, δ, K, ρ → runs
 * per agent), the success-rate interval of independent runs and the paired comparison of two
 * agents on their shared tasks. They call window.Methodology (methodology.js: runsNeeded,
 * successInterval, compareComposites, compareSuccessRates); no number of the methodology is
 * typed here.
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

  // --- the paired comparison of two agents ------------------------------------------------

  // What each agent's cells of a line hold, in their order, as the reader reads them.
  var PER_AGENT = ["runs", "successful runs", "latency sum (ms)", "cost sum (USD)"];
  var AGENTS = ["A", "B"];
  // A line: the task's name (one cell), then the cells of A, then those of B.
  var WIDTH = 1 + PER_AGENT.length * AGENTS.length;

  /**
   * The two agents' tasks from the text area, {a, b} as M.compareComposites takes them. An
   * agent whose cells of a line are all empty did not run that task; any other gap, a
   * repeated task, a count that is not one, or more successes than runs is refused naming
   * the line and the cell.
   */
  function pairedTasks(input) {
    var tasks = { A: {}, B: {} };
    var seen = {};
    F.lines(input).forEach(function (row) {
      var line = row.line;
      if (row.cells.length !== WIDTH) {
        F.fail(
          input.name,
          "line " + line + " has " + row.cells.length + " values; a line needs " + WIDTH +
            ": the task, then the " + PER_AGENT.join(", ") + " of A, then the same of B"
        );
      }
      var name = row.cells[0];
      if (name === "") F.failCell(input, line, "task", "needs a name");
      if (Object.prototype.hasOwnProperty.call(seen, name)) {
        F.failCell(input, line, "task " + name, "is already on line " + seen[name]);
      }
      seen[name] = line;
      AGENTS.forEach(function (agent, i) {
        var cells = row.cells.slice(1 + i * PER_AGENT.length, 1 + (i + 1) * PER_AGENT.length);
        var labels = PER_AGENT.map(function (what) {
          return what + " of " + agent;
        });
        if (cells.join("") === "") return; // the agent did not run this task
        cells.forEach(function (text, j) {
          if (text === "") {
            F.failCell(
              input,
              line,
              labels[j],
              "is empty; leave all " + PER_AGENT.length + " of " + agent +
                " empty where " + agent + " did not run the task"
            );
          }
        });
        // The cells and their labels in PER_AGENT's order.
        var [runsText, successesText, latencyText, costText] = cells;
        var [runsLabel, successesLabel, latencyLabel, costLabel] = labels;
        var runs = F.cellWhole(input, line, runsLabel, runsText);
        var successes = F.cellWhole(input, line, successesLabel, successesText);
        if (runs === 0) F.failCell(input, line, runsLabel, "must be at least 1");
        if (successes > runs) {
          F.failCell(input, line, successesLabel, "must lie between 0 and the " + runsLabel);
        }
        tasks[agent][name] = [
          runs,
          successes,
          F.cellAmount(input, line, latencyLabel, latencyText),
          F.cellAmount(input, line, costLabel, costText),
        ];
      });
    });
    return { a: tasks.A, b: tasks.B };
  }

  /** An exact "p/q" as the report publishes it: halves rounded up, at the kind's decimals. */
  function publishedText(exact, kind) {
    var places = M.constant(
      kind === "score" ? "rounding.score_decimals" : "rounding.fraction_decimals"
    );
    var units = M.Rational.of(exact).halfUpUnits(places);
    return new M.Rational(units, 10n ** BigInt(places)).toDouble().toFixed(places);
  }

  function showComparison(section, key, result, kind) {
    if (result.interval === null) {
      setOut(section, key + "_difference", "—");
      setOut(section, key + "_interval", "—");
      setOut(section, key + "_verdict", "no interval: " + result.reason);
      setOut(section, key + "_errors", "—");
      return;
    }
    setOut(section, key + "_difference", publishedText(result.difference, kind));
    setOut(
      section,
      key + "_interval",
      "[" + fixed(result.interval.low, kind) + ", " + fixed(result.interval.high, kind) + "]"
    );
    setOut(section, key + "_verdict", result.verdict);
    setOut(
      section,
      key + "_errors",
      fixed(result.standard_error, kind) + " (" + fixed(result.unpaired_standard_error, kind) + ")"
    );
  }

  function paired(section) {
    liveForm(section, function (fields) {
      var tasks = pairedTasks(fields.tasks);
      var composite = M.compareComposites(tasks.a, tasks.b);
      var success = M.compareSuccessRates(tasks.a, tasks.b);
      setOut(section, "shared", String(composite.shared_tasks));
      showComparison(section, "composite", composite, "score");
      showComparison(section, "success", success, "fraction");
      F.note(
        section,
        composite.interval === null
          ? "No comparison: " + composite.reason + ". Below " +
              M.constant("interval.min_tasks") + " shared tasks the report gives none " +
              "(null), rather than a verdict too unsure to trust."
          : null
      );
    });
  }

  var WIDGETS = { planner: planner, "success-interval": successInterval, paired: paired };

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
