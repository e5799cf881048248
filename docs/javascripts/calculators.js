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

  function showError(section, error) {
    var node = $(section, ".calc-error");
    if (!node) return;
    if (error) {
      node.textContent = error.field ? error.field + ": " + error.rule : error.message;
      node.hidden = false;
    } else {
      node.textContent = "";
      node.hidden = true;
    }
  }

  function wholeNumber(input) {
    var text = input.value.trim();
    return /^\d+$/.test(text) ? Number(text) : text === "" ? NaN : Number(text);
  }

  // --- composite ------------------------------------------------------------------------------

  // A form that recalculates as the reader types: `compute` fills the outputs, or throws an
  // error naming the field, which the section shows instead. Enter never submits the form.
  function liveForm(section, form, compute) {
    function update() {
      try {
        compute();
        showError(section, null);
      } catch (error) {
        // No result of earlier input may stay beside the error: every output is cleared.
        $$(section, "[data-out]").forEach(function (node) {
          node.textContent = "—";
        });
        showError(section, error);
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
        completed_runs: wholeNumber(get("completed_runs")),
        successes: wholeNumber(get("successes")),
        // Strings keep the decimal typed: 0.03 is exactly three cents.
        mean_latency_ms: get("mean_latency_ms").value.trim(),
        mean_cost_usd: get("mean_cost_usd").value.trim(),
      });
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
      var n = wholeNumber(form.elements.n);
      var c = wholeNumber(form.elements.c);
      var k = wholeNumber(form.elements.k);
      setOut(section, "pass_k", shown(M.passK(n, c, k), places("fraction")));
      setOut(section, "exact", M.exact.passK(n, c, k).toString());
    });
  }

  // --- radar ----------------------------------------------------------------------------------

  function rounded(exact, digits) {
    if (exact === null) return null;
    var units = M.Rational.parse(exact).halfUpUnits(digits);
    return new M.Rational(units, 10n ** BigInt(digits)).toDouble();
  }

  function ranked(agents, weights) {
    var rows = agents.map(function (agent) {
      return { agent: agent, profile: M.profile(agent.axes, weights) };
    });
    rows.sort(function (a, b) {
      if ((a.profile === null) !== (b.profile === null)) return a.profile === null ? 1 : -1;
      if (a.profile !== b.profile) return b.profile - a.profile;
      return a.agent.agent_id < b.agent.agent_id ? -1 : a.agent.agent_id > b.agent.agent_id ? 1 : 0;
    });
    return rows;
  }

  function drawRadar(holder, rows, weights) {
    var axes = M.axes;
    var top = Number(M.constant("scale.score_max"));
    // Room around the chart for the axis labels, two lines each (name, then share).
    var width = 440;
    var height = 380;
    var centre = [width / 2, height / 2 + 6];
    var radius = 118;
    function point(i, value) {
      var angle = -Math.PI / 2 + (2 * Math.PI * i) / axes.length;
      var r = (radius * value) / top;
      return [centre[0] + r * Math.cos(angle), centre[1] + r * Math.sin(angle)];
    }
    var total = axes.reduce(function (sum, axis) {
      return sum + weights[axis];
    }, 0);
    var chart = svg("svg", {
      viewBox: "0 0 " + width + " " + height,
      class: "calc-radar",
      role: "img",
    });
    var rings = axes.length;
    for (var ring = 1; ring <= rings; ring++) {
      chart.appendChild(
        svg("polygon", {
          class: "grid",
          points: axes
            .map(function (_, i) {
              return point(i, (top * ring) / rings).join(",");
            })
            .join(" "),
        })
      );
    }
    axes.forEach(function (axis, i) {
      var end = point(i, top);
      var off = weights[axis] === 0;
      chart.appendChild(
        svg("line", {
          class: off ? "spoke off" : "spoke",
          x1: centre[0],
          y1: centre[1],
          x2: end[0],
          y2: end[1],
        })
      );
      var at = point(i, top * 1.12);
      var label = svg("text", {
        class: off ? "label off" : "label",
        x: at[0],
        y: at[1] + (at[1] < centre[1] - radius / 2 ? -8 : 0),
        "text-anchor":
          Math.abs(at[0] - centre[0]) < 10 ? "middle" : at[0] > centre[0] ? "start" : "end",
      });
      var share = total > 0 ? Math.round((100 * weights[axis]) / total) + "%" : "—";
      var name = svg("tspan", { x: at[0] });
      name.textContent = axis.replace(/_/g, " ");
      var part = svg("tspan", { x: at[0], dy: "1.2em", class: "share" });
      part.textContent = off ? "left out" : share;
      label.appendChild(name);
      label.appendChild(part);
      chart.appendChild(label);
    });
    rows
      .slice()
      .reverse()
      .forEach(function (row) {
        var rank = rows.indexOf(row);
        var present = axes
          .map(function (axis, i) {
            var v = row.agent.axes[axis];
            return v === null ? null : point(i, Number(M.Rational.parse(v).toDouble()));
          })
          .filter(function (p) {
            return p !== null;
          });
        if (!present.length) return;
        chart.appendChild(
          svg("polygon", {
            class: "agent agent-" + Math.min(rank, 3),
            points: present
              .map(function (p) {
                return p.join(",");
              })
              .join(" "),
          })
        );
      });
    holder.replaceChildren(chart);
  }

  function radar(section) {
    var data = widgetData(section);
    var agents = data.agents;
    var form = $(section, "form");
    var sliders = $$(section, 'input[type="range"]');
    var digits = places("score");

    function weights() {
      var chosen = {};
      sliders.forEach(function (slider) {
        chosen[slider.name] = Number(slider.value);
      });
      return chosen;
    }

    function atStart() {
      return sliders.every(function (slider) {
        return slider.value === slider.getAttribute("data-start");
      });
    }

    function command(chosen) {
      var base = "python -m scoring report " + data.runs_file;
      if (atStart()) return base;
      if (!M.axes.some(function (axis) { return chosen[axis] > 0; })) {
        // The command line refuses weights that are all zero, and every profile is null.
        return base + " --weights … (at least one weight must be above 0)";
      }
      var named = M.axes
        .filter(function (axis) {
          return chosen[axis] > 0;
        })
        .map(function (axis) {
          return axis + "=" + chosen[axis];
        });
      return base + " --weights " + (named.length ? named.join(",") : "…");
    }

    function update() {
      var chosen = weights();
      var total = M.axes.reduce(function (sum, axis) {
        return sum + chosen[axis];
      }, 0);
      sliders.forEach(function (slider) {
        var out = $(section, 'output[for="' + slider.id + '"]');
        var w = chosen[slider.name];
        var share = total > 0 ? Math.round((100 * w) / total) + "%" : "—";
        out.textContent = w + " (" + share + ")";
        slider.setAttribute("aria-valuetext", w + ", " + share + " of the profile");
      });
      setOut(section, "command", command(chosen));
      // The default positions stand for the published default weights, which the library
      // applies when no weights are given (as the report does without --weights).
      var rows = ranked(agents, atStart() ? undefined : chosen);
      var head = $(section, ".calc-ranking thead");
      var body = $(section, ".calc-ranking tbody");
      var headRow = el("tr");
      ["rank", "agent", "profile"].concat(M.axes).forEach(function (name, i) {
        var th = el("th", { scope: "col" }, name.replace(/_/g, " "));
        if (i !== 1) th.className = "num";
        headRow.appendChild(th);
      });
      head.replaceChildren(headRow);
      body.replaceChildren.apply(
        body,
        rows.map(function (row, i) {
          var tr = el("tr", { "data-agent": row.agent.agent_id });
          tr.appendChild(el("td", { class: "num" }, String(i + 1)));
          var who = el("th", { scope: "row" });
          // The swatch matches the agent's shape on the chart (the top three by rank).
          var swatch = { class: "calc-swatch agent-" + Math.min(i, 3), "aria-hidden": "true" };
          who.appendChild(el("span", swatch));
          who.appendChild(document.createTextNode(row.agent.agent_id));
          tr.appendChild(who);
          tr.appendChild(
            el(
              "td",
              { class: "num", "data-profile": String(row.profile) },
              shown(row.profile, digits)
            )
          );
          M.axes.forEach(function (axis) {
            var value = rounded(row.agent.axes[axis], digits);
            var cell = el("td", { class: "num" }, shown(value, digits));
            if (chosen[axis] === 0) cell.className = "num off";
            tr.appendChild(cell);
          });
          return tr;
        })
      );
      drawRadar($(section, ".calc-chart"), rows, chosen);
    }

    form.addEventListener("input", update);
    $(section, ".calc-reset").addEventListener("click", function () {
      sliders.forEach(function (slider) {
        slider.value = slider.getAttribute("data-start");
      });
      update();
    });
    update();
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
      var row = el("div", { class: "calc-check", role: "group", "aria-label": "entry" });
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
          { type: "number", min: "0", step: "any", inputmode: "decimal", placeholder: "default" },
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

    function record() {
      var verification = $$(list, ".calc-check").map(function (row) {
        var get = function (name) {
          return $(row, '[name="' + name + '"]').value;
        };
        var entry = { name: get("name"), role: get("role"), status: get("status") };
        if (get("severity") !== "") entry.severity = get("severity");
        if (get("weight").trim() !== "") entry.weight = Number(get("weight"));
        return entry;
      });
      var result = { run_id: runId };
      if (verification.length) result.verification = verification;
      var judged = {};
      ["checklist", "outcome_validity", "recoverable"].forEach(function (key) {
        var text = form.elements[key].value.trim();
        if (text !== "") judged[key] = Number(text);
      });
      if (Object.keys(judged).length) result.judged = judged;
      return result;
    }

    function update() {
      var rec = record();
      setOut(section, "record", JSON.stringify(rec));
      try {
        var result = M.outcomeScore(rec);
        showError(section, null);
        setOut(section, "outcome_score", shown(result.outcome_score));
        setOut(section, "correctness", shown(result.correctness));
        setOut(section, "correctness_source", shown(result.correctness_source));
        setOut(section, "recoverable_safety", shown(result.recoverable_safety));
        setOut(section, "catastrophic_gate", shown(result.catastrophic_gate));
        setOut(section, "reason", result.reason);
        setOut(section, "json", pythonJson([result]));
      } catch (error) {
        showError(section, error);
        ["outcome_score", "correctness", "correctness_source", "recoverable_safety"].forEach(
          function (key) {
            setOut(section, key, "—");
          }
        );
        setOut(section, "catastrophic_gate", "—");
        setOut(section, "reason", "invalid record");
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
    radar: radar,
    outcome: outcome,
  };

  function init() {
    if (!M || !M.composite) return; // no methodology data on this page
    $$(document, "section.calc[data-calculator]").forEach(function (section) {
      var make = WIDGETS[section.getAttribute("data-calculator")];
      if (!make) return;
      try {
        make(section);
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
