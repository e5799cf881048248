/*
 * The radar calculator: weigh the axes with sliders, see the sample agents ranked by their
 * profile and drawn on the radar, and the report command that gives the same ranking. It
 * calls window.Methodology (methodology.js) and shares the helpers of calculators.js
 * (window.CalcWidgets), which starts it; no number of the methodology is typed here.
 */
(function () {
  "use strict";

  var M = window.Methodology;
  var W = window.CalcWidgets;
  if (!W) return; // calculators.js is not on the page
  var $ = W.$;
  var $$ = W.$$;
  var el = W.el;
  var svg = W.svg;
  var widgetData = W.widgetData;
  var places = W.places;
  var shown = W.shown;
  var setOut = W.setOut;

  function rounded(exact, digits) {
    if (exact === null) return null;
    var units = M.Rational.parse(exact).halfUpUnits(digits);
    return new M.Rational(units, 10n ** BigInt(digits)).toDouble();
  }

  function ranked(agents, weights) {
    var rows = agents.map(function (agent, index) {
      return { agent: agent, index: index, profile: M.profile(agent.axes, weights) };
    });
    rows.sort(function (a, b) {
      if ((a.profile === null) !== (b.profile === null)) return a.profile === null ? 1 : -1;
      if (a.profile !== b.profile) return b.profile - a.profile;
      return a.agent.agent_id < b.agent.agent_id ? -1 : a.agent.agent_id > b.agent.agent_id ? 1 : 0;
    });
    return rows;
  }

  // An agent's colour is its own: from its place in the sample data (fixed), never from its
  // rank, which moves with the weights. Past the palette's colours the outline is dashed.
  var PALETTE_SIZE = 8;

  function colourClass(index) {
    return "agent-c" + (index % PALETTE_SIZE) + (index >= PALETTE_SIZE ? " agent-dashed" : "");
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
            class: "agent " + colourClass(row.index) + (rank === 0 ? " agent-first" : ""),
            "data-agent": row.agent.agent_id,
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
      // Every column after the agent's name holds a score of the scale the caption names.
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
          // The swatch matches the agent's shape on the chart: the agent's own colour.
          var swatch = { class: "calc-swatch " + colourClass(row.index), "aria-hidden": "true" };
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

  W.register("radar", radar);
})();
