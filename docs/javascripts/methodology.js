/*
 * window.Methodology: the site's second implementation of four scores, for the calculators.
 *
 * Every number of the methodology comes from the snapshot the build inlines into the page
 * (<script type="application/json" id="methodology-data">, the constants of the published
 * methodology.json): none is typed here. The arithmetic is exact, on BigInt rationals, and a
 * result becomes a float only at the edge, rounded the way Python rounds it, so that each
 * function returns what `python -m scoring` publishes for the same input. A parity test in
 * headless Chromium (tests/site/test_calculator_parity.py) holds it to that.
 *
 * The library is in six files, loaded in this order (after quantiles.js, the Beta and
 * Student t quantiles): methodology-numbers.js (the exact arithmetic),
 * methodology-outcome.js, methodology-uncertainty.js, methodology-intervals.js and
 * methodology-paired.js (four formula families), then this one, which reads the data and
 * holds the composite, radar and repeatability.
 */
(function () {
  "use strict";

  var DATA_ID = "methodology-data";
  var parts = window.MethodologyParts;
  var N = parts.numbers;
  var Rational = N.Rational;
  var InputError = N.InputError;
  var pow10 = N.pow10;
  var UNSAFE_INTEGER_RULE = N.UNSAFE_INTEGER_RULE;

  // --- the methodology ------------------------------------------------------------------------

  function create(data) {
    var byName = {};
    (data.constants || []).forEach(function (entry) {
      byName[entry.name] = entry.value;
    });

    function constant(name) {
      if (!Object.prototype.hasOwnProperty.call(byName, name)) {
        throw new Error("methodology data has no constant " + name);
      }
      return byName[name];
    }

    function exact(name) {
      return Rational.of(constant(name));
    }

    function anchors(name) {
      return constant(name).map(function (a) {
        return { x: Rational.of(a.x), score: Rational.of(a.score) };
      });
    }

    var SCALE = exact("scale.score_max");
    var REASONS = data.composite_reasons;
    var SCORE_PLACES = constant("rounding.score_decimals");
    var FRACTION_PLACES = constant("rounding.fraction_decimals");
    var W_SUCCESS = exact("composite.weight.success");
    var W_RELIABILITY = exact("composite.weight.reliability");
    var W_COST = exact("composite.weight.cost");
    var LATENCY_ANCHORS = anchors("composite.latency_anchors_ms");
    var COST_ANCHORS = anchors("composite.cost_anchors_usd");
    var GATE_RUNS = constant("composite.consistency_min_runs");
    var NEUTRAL = exact("composite.neutral_consistency");
    var DEFAULT_WEIGHTS = constant("radar.default_weights");
    var AXES = Object.keys(DEFAULT_WEIGHTS);

    function published(value, places) {
      if (value === null) return null;
      return new Rational(value.halfUpUnits(places), pow10(places)).toDouble();
    }

    function raw(value) {
      return value === null ? null : value.toDouble();
    }

    function requireInteger(value, field, min) {
      if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
        throw new InputError(field, "must be a whole number >= " + min);
      }
      if (!Number.isSafeInteger(value)) throw new InputError(field, UNSAFE_INTEGER_RULE);
      return value;
    }

    function requireAmount(value, field) {
      var r;
      try {
        r = Rational.of(value);
      } catch (error) {
        throw new InputError(field, "must be a finite number >= 0");
      }
      if (r.cmp(Rational.ZERO) < 0) throw new InputError(field, "must be a finite number >= 0");
      return r;
    }

    // --- composite -------------------------------------------------------------------------

    function piecewiseLinear(x, points) {
      if (x.cmp(points[0].x) <= 0) return points[0].score;
      for (var i = 1; i < points.length; i++) {
        var left = points[i - 1];
        var right = points[i];
        if (x.cmp(right.x) <= 0) {
          return left.score.add(
            right.score.sub(left.score).mul(x.sub(left.x)).div(right.x.sub(left.x))
          );
        }
      }
      return points[points.length - 1].score;
    }

    /** A mean of the cohort, or null where some completed run left it unrecorded (1.3.0). */
    function optionalAmount(value, field) {
      return value === null || value === undefined ? null : requireAmount(value, field);
    }

    /** Why the composite has no value when `unrecorded` of `runs` left `what` null. */
    function unrecordedReason(what, unrecorded, runs) {
      return REASONS.unrecorded
        .replace("{what}", what)
        .replace("{unrecorded}", String(unrecorded))
        .replace("{completed_runs}", String(runs));
    }

    function compositeExact(input) {
      var runs = requireInteger(input.completed_runs, "completed_runs", 0);
      var successes = requireInteger(input.successes, "successes", 0);
      var latencyMs = optionalAmount(input.mean_latency_ms, "mean_latency_ms");
      var costUsd = optionalAmount(input.mean_cost_usd, "mean_cost_usd");
      var latencyUnrecorded = requireInteger(input.latency_unrecorded || 0, "latency_unrecorded", 0);
      var costUnrecorded = requireInteger(input.cost_unrecorded || 0, "cost_unrecorded", 0);
      if (runs === 0) return null;
      if (successes > runs) {
        throw new InputError("successes", "must lie between 0 and the completed runs");
      }
      var p = new Rational(BigInt(successes), BigInt(runs));
      var consistency =
        runs < GATE_RUNS
          ? NEUTRAL
          : Rational.ONE.sub(p.mul(4n).mul(Rational.ONE.sub(p))); // 1 − 4p(1 − p)
      var latency = latencyMs === null ? null : piecewiseLinear(latencyMs, LATENCY_ANCHORS);
      var cost = costUsd === null ? null : piecewiseLinear(costUsd, COST_ANCHORS);
      var reasons = [];
      if (latencyMs === null) reasons.push(unrecordedReason("latency", latencyUnrecorded, runs));
      if (costUsd === null) reasons.push(unrecordedReason("cost", costUnrecorded, runs));
      var score = null;
      if (latency !== null && cost !== null) {
        score = p.isZero()
          ? Rational.ZERO
          : SCALE.mul(
              W_SUCCESS.mul(p)
                .add(W_RELIABILITY.mul(consistency).mul(latency).div(SCALE))
                .add(W_COST.mul(cost).div(SCALE))
            );
      }
      return {
        score: score,
        success_rate: p,
        consistency: consistency,
        latency_score: latency,
        cost_score: cost,
        completed_runs: runs,
        zero_success_floor: score !== null && successes === 0,
        mean_latency_ms: latencyMs,
        mean_cost_usd: costUsd,
        reason: reasons.length ? reasons.join("; ") : null,
      };
    }

    /** The composite object of `report --format json` for one cohort's counts and means. */
    function composite(input) {
      var e = compositeExact(input || {});
      if (e === null) {
        return {
          score: null,
          success_rate: null,
          consistency: null,
          latency_score: null,
          cost_score: null,
          completed_runs: 0,
          zero_success_floor: false,
          mean_latency_ms: null,
          mean_cost_usd: null,
          reason: REASONS.no_completed_run,
        };
      }
      return {
        score: published(e.score, SCORE_PLACES),
        success_rate: published(e.success_rate, FRACTION_PLACES),
        consistency: published(e.consistency, FRACTION_PLACES),
        latency_score: published(e.latency_score, SCORE_PLACES),
        cost_score: published(e.cost_score, SCORE_PLACES),
        completed_runs: e.completed_runs,
        zero_success_floor: e.zero_success_floor,
        mean_latency_ms: raw(e.mean_latency_ms),
        mean_cost_usd: raw(e.mean_cost_usd),
        reason: e.reason,
      };
    }

    // --- radar profile ---------------------------------------------------------------------

    function profileExact(axes, weights) {
      var chosen = weights === undefined || weights === null ? DEFAULT_WEIGHTS : weights;
      var total = Rational.ZERO;
      var weighted = Rational.ZERO;
      Object.keys(axes).forEach(function (axis) {
        if (AXES.indexOf(axis) < 0) throw new InputError(axis, "not a radar axis");
        var value = axes[axis];
        if (value === null || value === undefined) return;
        var x = Rational.of(value);
        var w = Object.prototype.hasOwnProperty.call(chosen, axis)
          ? Rational.of(chosen[axis])
          : Rational.ZERO;
        if (w.cmp(Rational.ZERO) < 0) {
          throw new InputError("weights." + axis, "the weight must not be negative");
        }
        total = total.add(w);
        weighted = weighted.add(w.mul(x));
      });
      return total.isZero() ? null : weighted.div(total);
    }

    /** The radar profile, 2 decimals as published; null when no weighted axis has a value. */
    function profile(axes, weights) {
      return published(profileExact(axes || {}, weights), SCORE_PLACES);
    }

    // --- repeatability ---------------------------------------------------------------------

    function passKExact(n, c, k) {
      requireInteger(n, "n", 0);
      requireInteger(c, "c", 0);
      requireInteger(k, "k", 1);
      if (c > n) throw new InputError("c", "successes c must lie between 0 and the outcomes n");
      if (c < k) return Rational.ZERO;
      // C(c, k) / C(n, k) = Π_{i<k} (c − i) / (n − i)
      var num = 1n;
      var den = 1n;
      for (var i = 0; i < k; i++) {
        num *= BigInt(c - i);
        den *= BigInt(n - i);
      }
      return new Rational(num, den);
    }

    /** pass^k of one task, 4 decimals as published. */
    function passK(n, c, k) {
      return published(passKExact(n, c, k), FRACTION_PLACES);
    }

    // --- the families of their own files ----------------------------------------------------

    var ctx = {
      data: data,
      constant: constant,
      exact: exact,
      raw: raw,
      requireInteger: requireInteger,
    };
    var outcomeFamily = parts.outcome(ctx);
    var uncertaintyFamily = parts.uncertainty(ctx);
    var intervalsFamily = parts.intervals(
      Object.assign({}, ctx, {
        uncertainty: uncertaintyFamily,
        latencyScore: function (x) {
          return piecewiseLinear(x, LATENCY_ANCHORS);
        },
        costScore: function (x) {
          return piecewiseLinear(x, COST_ANCHORS);
        },
        latencyAnchors: LATENCY_ANCHORS,
        costAnchors: COST_ANCHORS,
      })
    );
    var pairedFamily = parts.paired(
      Object.assign({}, ctx, {
        uncertainty: uncertaintyFamily,
        intervals: intervalsFamily,
        compositeExact: compositeExact,
      })
    );
    var outcomeScore = outcomeFamily.outcomeScore;
    var runsNeeded = uncertaintyFamily.runsNeeded;
    var successInterval = uncertaintyFamily.successInterval;

    return Object.freeze({
      version: data.methodology_version,
      axes: AXES.slice(),
      defaultWeights: Object.assign({}, DEFAULT_WEIGHTS),
      constant: constant,
      composite: composite,
      profile: profile,
      passK: passK,
      outcomeScore: outcomeScore,
      runsNeeded: runsNeeded,
      successInterval: successInterval,
      // The rates of methodology 1.2.0 (scoring/intervals/rates.py) and the paired comparison
      // (scoring/comparisons/paired.py).
      tFactor: uncertaintyFamily.tFactor,
      rateInterval: uncertaintyFamily.rateInterval,
      rateBounds: function (m, variance, tasks, runs, k) {
        var b = uncertaintyFamily.rateBounds(Rational.of(m), Rational.of(variance), tasks, runs, k);
        return { low: b.low, high: b.high, n_eff: b.nEff.toString(), q: b.q, n_star: b.nStar };
      },
      successRateInterval: uncertaintyFamily.successRateInterval,
      outwardsWithMargin: function (low, high, places, bottom, top) {
        return uncertaintyFamily.outwardsWithMargin(
          low,
          high,
          places,
          Rational.of(bottom),
          Rational.of(top)
        );
      },
      compositeInterval: intervalsFamily.compositeInterval,
      compareComposites: pairedFamily.compareComposites,
      compareSuccessRates: pairedFamily.compareSuccessRates,
      verdicts: pairedFamily.verdicts,
      // Exact forms for the widgets ("p/q" strings would do as well).
      exact: Object.freeze({
        composite: compositeExact,
        profile: profileExact,
        passK: passKExact,
      }),
    });
  }

  function fromPage() {
    var node = document.getElementById(DATA_ID);
    if (!node) return null;
    return create(JSON.parse(node.textContent));
  }

  var api = fromPage();
  var lib = { Rational: Rational, InputError: InputError, create: create };
  window.Methodology = api ? Object.freeze(Object.assign({}, api, lib)) : Object.freeze(lib);
})();