/*
 * Whether one agent is really ahead of another (methodology 1.2.0, scoring/comparisons/paired.py), a
 * family of window.Methodology (methodology.js hands it the uncertainty and the intervals
 * families; loaded after methodology-intervals.js, before methodology.js): the difference
 * of two agents' composites, and of their success rates, on the tasks both have, with the
 * clustered covariance of both agents' means.
 *
 * Exact where Python is (the means, Σ_AB, the gradients, the differences); floats where
 * Python's are floats (the standard errors and the bounds), each operation in Python's order.
 */
(function () {
  "use strict";

  var N = window.MethodologyParts.numbers;
  var Rational = N.Rational;

  /** The family on the methodology `ctx` (methodology.js). */
  function pairedFamily(ctx) {
    var constant = ctx.constant;
    var exact = ctx.exact;
    var U = ctx.uncertainty;
    var compositeExact = ctx.compositeExact;
    var compositeGradient = ctx.intervals.compositeGradient;
    var cohort = ctx.intervals.cohort;
    var means = ctx.intervals.means;

    var SCALE = exact("scale.score_max");
    var SCORE_PLACES = constant("rounding.score_decimals");
    var FRACTION_PLACES = constant("rounding.fraction_decimals");
    var MIN_TASKS = constant("interval.min_tasks");

    // The verdicts, as scoring.comparisons.paired.Verdict spells them (the words of docs/uncertainty.md).
    var A_AHEAD = "A ahead";
    var B_AHEAD = "B ahead";
    var WITHIN_NOISE = "within the noise";

    function bigInt(value) {
      return new Rational(BigInt(value), 1n);
    }

    /**
     * Σ_AB = T/(T − 1)·Σ_t e_t e_tᵀ with e_t = (r^A_t/n_A, r^B_t/n_B), each agent's residual
     * vector (success, latency, cost) over its own runs: 1.1.0's Σ with both agents'
     * residuals. The mean of the e_t is 0, so this is the clustered covariance of the e_t
     * as one-run tasks times T².
     */
    function pairedCovariance(a, b) {
      var rows = a.map(function () {
        return [];
      });
      [a, b].forEach(function (agent) {
        var m = means(agent);
        var n = bigInt(m.n);
        agent.forEach(function (task, t) {
          var count = bigInt(task.runs);
          rows[t].push(bigInt(task.successes).sub(count.mul(m.p)).div(n));
          rows[t].push(task.latency.sub(count.mul(m.latency)).div(n));
          rows[t].push(task.cost.sub(count.mul(m.cost)).div(n));
        });
      });
      var T = BigInt(rows.length);
      var square = new Rational(T * T, 1n);
      return U.clusteredCovariance(
        rows.map(function (row) {
          return [1, row];
        })
      ).map(function (line) {
        return line.map(function (entry) {
          return entry.mul(square);
        });
      });
    }

    function quadratic(gradient, sigma, from, to) {
      var total = Rational.ZERO;
      for (var j = from; j < to; j++) {
        for (var k = from; k < to; k++) {
          total = total.add(gradient[j].mul(sigma[j][k]).mul(gradient[k]));
        }
      }
      return total;
    }

    /** "A ahead" when the published interval of A − B lies above 0, "B ahead" below. */
    function verdictOf(interval) {
      if (interval.low > 0) return A_AHEAD;
      if (interval.high < 0) return B_AHEAD;
      return WITHIN_NOISE;
    }

    function shared(a, b) {
      var left = cohort(a, "a");
      var right = cohort(b, "b");
      var names = Object.keys(left)
        .filter(function (name) {
          return Object.prototype.hasOwnProperty.call(right, name);
        })
        .sort();
      return {
        a: names.map(function (name) {
          return left[name];
        }),
        b: names.map(function (name) {
          return right[name];
        }),
      };
    }

    /** No comparison below the task minimum: the reason, as scoring.intervals.surd.interval_reason. */
    function missing(count) {
      if (count >= MIN_TASKS) return null;
      return {
        shared_tasks: count,
        difference: null,
        interval: null,
        verdict: null,
        reason: "fewer than " + MIN_TASKS + " shared tasks (" + count + ")",
        standard_error: null,
        unpaired_standard_error: null,
      };
    }

    function compared(count, d, gradient, sigma, places, top) {
      var half = gradient.length / 2;
      var paired = quadratic(gradient, sigma, 0, gradient.length);
      var unpaired = quadratic(gradient, sigma, 0, half).add(
        quadratic(gradient, sigma, half, gradient.length)
      );
      var q = U.tFactor(count);
      var se = Math.sqrt(paired.toDouble());
      var centre = d.toDouble();
      var interval = U.outwardsWithMargin(
        centre - q * se,
        centre + q * se,
        places,
        top.mul(-1n),
        top
      );
      return {
        shared_tasks: count,
        difference: d.toString(),
        interval: interval,
        verdict: verdictOf(interval),
        reason: null,
        standard_error: se,
        unpaired_standard_error: Math.sqrt(unpaired.toDouble()),
      };
    }

    /** An agent's gradient on its shared tasks: 1.1.0's g, as the page writes
     * g_AB = (g_A, −g_B), with no rule of its own under the zero-success floor
     * (scoring.comparisons.paired._gradient). */
    function sharedGradient(m) {
      return compositeGradient(m.p, m.latency, m.cost, Number(m.n));
    }

    function compositeOn(m) {
      return compositeExact({
        completed_runs: Number(m.n),
        successes: Number(m.successes),
        mean_latency_ms: m.latency,
        mean_cost_usd: m.cost,
      }).score;
    }

    /**
     * The paired comparison of two agents' composites on their shared tasks: `a`, `b` map a
     * task to [runs, successes, latency sum (ms), cost sum (USD)] (sums exact: strings or
     * numbers as written). {shared_tasks, difference ("p/q", A − B), interval {low, high},
     * verdict, reason, standard_error, unpaired_standard_error}, as scoring.comparisons.paired.Comparison.
     */
    function compareComposites(a, b) {
      var s = shared(a, b);
      var none = missing(s.a.length);
      if (none) return none;
      var ma = means(s.a);
      var mb = means(s.b);
      var d = compositeOn(ma).sub(compositeOn(mb));
      var gb = sharedGradient(mb).map(function (g) {
        return g.mul(-1n);
      });
      var gradient = sharedGradient(ma).concat(gb);
      var sigma = pairedCovariance(s.a, s.b);
      return compared(s.a.length, d, gradient, sigma, SCORE_PLACES, SCALE);
    }

    /** The paired comparison of two agents' success rates on their shared tasks (as above). */
    function compareSuccessRates(a, b) {
      var s = shared(a, b);
      var none = missing(s.a.length);
      if (none) return none;
      var d = means(s.a).p.sub(means(s.b).p);
      var zero = Rational.ZERO;
      var one = Rational.ONE;
      var gradient = [one, zero, zero, one.mul(-1n), zero, zero];
      var sigma = pairedCovariance(s.a, s.b);
      return compared(s.a.length, d, gradient, sigma, FRACTION_PLACES, Rational.ONE);
    }

    return {
      compareComposites: compareComposites,
      compareSuccessRates: compareSuccessRates,
      verdicts: Object.freeze([A_AHEAD, B_AHEAD, WITHIN_NOISE]),
    };
  }

  window.MethodologyParts.paired = pairedFamily;
})();
