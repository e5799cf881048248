/*
 * The intervals of methodology 1.2.0 that read the composite, a family of window.Methodology
 * (methodology.js, which hands it the composite and the uncertainty family; loaded after
 * methodology-uncertainty.js, before methodology.js):
 *
 * the headline composite's interval from asymmetric moves read off each part's own
 * interval (scoring/intervals/moves.py), and the composite's gradient both it and the paired
 * comparison (methodology-paired.js) read.
 *
 * Exact where Python is (the means, Σ, the gradient, the score before the floor); floats
 * where Python's are floats (the bounds, the moves), each operation in Python's order.
 */
(function () {
  "use strict";

  var N = window.MethodologyParts.numbers;
  var Rational = N.Rational;
  var InputError = N.InputError;

  /** The family on the methodology `ctx` (methodology.js). */
  function intervalsFamily(ctx) {
    var constant = ctx.constant;
    var exact = ctx.exact;
    var requireInteger = ctx.requireInteger;
    var U = ctx.uncertainty;
    var latencyScore = ctx.latencyScore;

    var SCALE = exact("scale.score_max");
    var SCORE_PLACES = constant("rounding.score_decimals");
    var W_SUCCESS = exact("composite.weight.success");
    var W_RELIABILITY = exact("composite.weight.reliability");
    var W_COST = exact("composite.weight.cost");
    var GATE_RUNS = constant("composite.consistency_min_runs");
    var NEUTRAL = exact("composite.neutral_consistency");
    var MIN_TASKS = constant("interval.min_tasks");
    var LATENCY_ANCHORS = ctx.latencyAnchors;
    var COST_ANCHORS = ctx.costAnchors;
    var costScore = ctx.costScore;

    function bigInt(value) {
      return new Rational(BigInt(value), 1n);
    }

    // --- the composite's gradient (scoring.intervals.variance, from 1.1.0) --------------------------

    /** The slope of a curve's segment at x; at an anchor the steeper side (on a tie the left). */
    function curveSlope(x, anchors) {
      var slopes = [Rational.ZERO];
      for (var i = 1; i < anchors.length; i++) {
        var left = anchors[i - 1];
        var right = anchors[i];
        slopes.push(right.score.sub(left.score).div(right.x.sub(left.x)));
      }
      slopes.push(Rational.ZERO);
      for (var j = 0; j < anchors.length; j++) {
        var side = x.cmp(anchors[j].x);
        if (side < 0) return slopes[j];
        if (side === 0) {
          var before = slopes[j];
          var after = slopes[j + 1];
          return abs(after).cmp(abs(before)) > 0 ? after : before;
        }
      }
      return slopes[slopes.length - 1];
    }

    function abs(r) {
      return r.cmp(Rational.ZERO) < 0 ? r.mul(-1n) : r;
    }

    function consistencyOf(p, runs) {
      return runs < GATE_RUNS ? NEUTRAL : Rational.ONE.sub(p.mul(4n).mul(Rational.ONE.sub(p)));
    }

    /** (∂S/∂p, ∂S/∂ℓ, ∂S/∂u) at the success rate, mean latency (ms) and mean cost (USD). */
    function compositeGradient(p, latency, cost, runs) {
      var gated = runs >= GATE_RUNS;
      var byRate = SCALE.mul(W_SUCCESS);
      if (gated) {
        // the derivative of 1 − 4p(1 − p) is 4(2p − 1)
        var slope = p.mul(2n).sub(Rational.ONE).mul(4n);
        byRate = byRate.add(W_RELIABILITY.mul(latencyScore(latency)).mul(slope));
      }
      var byLatency = W_RELIABILITY.mul(consistencyOf(p, runs)).mul(
        curveSlope(latency, LATENCY_ANCHORS)
      );
      var byCost = W_COST.mul(curveSlope(cost, COST_ANCHORS));
      return [byRate, byLatency, byCost];
    }

    // --- the headline composite's interval (scoring/intervals/moves.py) ------------------------------

    /** S at an exact success rate before the zero-success floor (scoring.intervals.clustered.weighted_at). */
    function weightedAt(p, runs, latency, cost) {
      var consistency = consistencyOf(p, runs);
      return W_SUCCESS.mul(p)
        .add(consistency.mul(W_RELIABILITY.mul(latency).div(SCALE)))
        .add(W_COST.mul(cost).div(SCALE))
        .mul(SCALE);
    }

    /** f(p) as a float, at a float p (its exact binary value) or a Rational. */
    function weightedFloat(p, runs, latency, cost) {
      var rate = typeof p === "number" ? Rational.ofDouble(p) : p;
      return weightedAt(rate, runs, latency, cost).toDouble();
    }

    function maxOf(values) {
      return values.reduce(function (a, b) {
        return b > a ? b : a;
      });
    }

    function minOf(values) {
      return values.reduce(function (a, b) {
        return b < a ? b : a;
      });
    }

    /** (D_p⁻, D_p⁺): how far f moves the score over the success interval [p⁻, p⁺]. */
    function successMoves(score, low, high, runs, latency, cost, floorMove) {
      var values = [
        weightedFloat(low, runs, latency, cost),
        weightedFloat(high, runs, latency, cost),
      ];
      var fMax = maxOf(values);
      if (latency.cmp(Rational.ZERO) > 0 && runs >= GATE_RUNS) {
        // the vertex p_v = ½ − 100·w_s/(8·w_r·L̂) of f, clipped to the interval
        var vertex = new Rational(1n, 2n).sub(
          SCALE.mul(W_SUCCESS).div(W_RELIABILITY.mul(latency).mul(8n))
        );
        var lowR = Rational.ofDouble(low);
        var highR = Rational.ofDouble(high);
        var clipped = vertex.cmp(lowR) < 0 ? lowR : vertex;
        if (clipped.cmp(highR) > 0) clipped = highR;
        values.push(weightedFloat(clipped, runs, latency, cost));
      }
      var s0 = score.toDouble();
      var down = s0 - minOf(values);
      return [down > floorMove ? down : floorMove, fMax - s0];
    }

    /** (D⁻, D⁺) of a mean latency or cost: x± = x̄·exp(±q·√Σ_xx/x̄) on the falling curve. */
    function meanMoves(mean, variance, q, weight, curve) {
      if (mean.isZero()) return [0, 0];
      var spread = Math.exp((q * Math.sqrt(variance.toDouble())) / mean.toDouble());
      var up = mean.toDouble() * spread;
      var down = mean.toDouble() / spread;
      var centre = curve(mean);
      return [
        weight.mul(centre.sub(curve(Rational.ofDouble(up)))).toDouble(),
        weight.mul(curve(Rational.ofDouble(down)).sub(centre)).toDouble(),
      ];
    }

    /** r_jk = sign(g_j·g_k)·Σ_jk/√(Σ_jj·Σ_kk) for j < k, 0 where a gradient or variance is 0. */
    function moveCorrelations(gradient, sigma) {
      var values = [];
      for (var j = 0; j < gradient.length; j++) {
        for (var k = j + 1; k < gradient.length; k++) {
          var g = gradient[j].mul(gradient[k]);
          if (g.isZero() || sigma[j][j].isZero() || sigma[k][k].isZero()) {
            values.push(0);
            continue;
          }
          var sign = g.cmp(Rational.ZERO) > 0 ? 1 : -1;
          values.push(
            (sign * sigma[j][k].toDouble()) /
              Math.sqrt(sigma[j][j].toDouble() * sigma[k][k].toDouble())
          );
        }
      }
      return values;
    }

    /** √(Σ_j D_j² + 2·Σ_{j<k} r_jk·D_j·D_k); 0 when rounding makes the sum negative. */
    function combinedMove(moves, correlations) {
      var total = 0;
      moves.forEach(function (d) {
        total += d * d;
      });
      var next = 0;
      for (var j = 0; j < moves.length; j++) {
        for (var k = j + 1; k < moves.length; k++) {
          total += 2 * correlations[next] * moves[j] * moves[k];
          next += 1;
        }
      }
      return Math.sqrt(total > 0 ? total : 0);
    }

    /**
     * The 1.2.0 interval of the headline composite from [runs, successes, latency sum (ms),
     * cost sum (USD)] per task (a list); null below the task minimum. {interval {low,
     * high}, score_unfloored ("p/q"), success_low, success_high, q, moves [[D⁻, D⁺] of
     * success, latency, cost], correlations, low, high}, as scoring.intervals.moves.CompositeMoves.
     */
    function compositeInterval(list) {
      if (!Array.isArray(list)) throw new InputError("tasks", "must be a list of tasks");
      var byIndex = {};
      list.forEach(function (task, i) {
        byIndex[String(i)] = task;
      });
      var checked = cohort(byIndex, "tasks");
      var tasks = Object.keys(checked).map(function (key) {
        return checked[key];
      });
      if (tasks.length < MIN_TASKS) return null;
      var sigma = U.clusteredCovariance(
        tasks.map(function (task) {
          return [task.runs, [bigInt(task.successes), task.latency, task.cost]];
        })
      );
      var m = means(tasks);
      var runs = Number(m.n);
      var gradient = compositeGradient(m.p, m.latency, m.cost, runs);
      var latency = latencyScore(m.latency);
      var cost = costScore(m.cost);
      var s0 = weightedAt(m.p, runs, latency, cost);
      var q = U.tFactor(tasks.length);
      var rate = U.rateBounds(m.p, sigma[0][0], tasks.length, runs, 1);
      var floorMove = q * Math.abs(gradient[0].toDouble()) * Math.sqrt(sigma[0][0].toDouble());
      var success = successMoves(s0, rate.low, rate.high, runs, latency, cost, floorMove);
      var consistency = consistencyOf(m.p, runs);
      var byLatency = meanMoves(
        m.latency,
        sigma[1][1],
        q,
        W_RELIABILITY.mul(consistency),
        latencyScore
      );
      var byCost = meanMoves(m.cost, sigma[2][2], q, W_COST, costScore);
      var moves = [success, byLatency, byCost];
      var r = moveCorrelations(gradient, sigma);
      var low =
        s0.toDouble() -
        combinedMove(
          moves.map(function (d) {
            return d[0];
          }),
          r
        );
      var high =
        s0.toDouble() +
        combinedMove(
          moves.map(function (d) {
            return d[1];
          }),
          r
        );
      if (m.p.isZero()) low = 0; // the zero-success floor: the score is 0, and so its low bound
      var top = SCALE.toDouble();
      low = Math.min(Math.max(low, 0), top);
      high = Math.min(Math.max(high, 0), top);
      return {
        interval: U.outwardsWithMargin(low, high, SCORE_PLACES, Rational.ZERO, SCALE),
        score_unfloored: s0.toString(),
        success_low: rate.low,
        success_high: rate.high,
        q: q,
        moves: moves,
        correlations: r,
        low: low,
        high: high,
      };
    }

    // --- a cohort as the callers give it (the paired comparison reads it too) ---------------

    // A task of a cohort as the callers give it: [runs, successes, latency sum, cost sum].
    var TASK_FIELDS = ["runs", "successes", "latency_sum_ms", "cost_sum_usd"];

    /** Each task as {runs, successes, latency, cost} (the sums exact), checked. */
    function cohort(tasks, agent) {
      if (tasks === null || typeof tasks !== "object" || Array.isArray(tasks)) {
        throw new InputError(agent, "must map each task to its runs, successes and sums");
      }
      var out = {};
      Object.keys(tasks).forEach(function (name) {
        var task = tasks[name];
        var where = agent + "." + name + ".";
        if (!Array.isArray(task) || task.length !== TASK_FIELDS.length) {
          throw new InputError(agent + "." + name, "needs " + TASK_FIELDS.join(", "));
        }
        var runs = requireInteger(task[0], where + TASK_FIELDS[0], 1);
        var successes = requireInteger(task[1], where + TASK_FIELDS[1], 0);
        if (successes > runs) {
          throw new InputError(where + TASK_FIELDS[1], "must lie between 0 and its runs");
        }
        var sums = task.slice(2).map(function (value, i) {
          var field = where + TASK_FIELDS[2 + i];
          var r;
          try {
            r = Rational.of(value);
          } catch (error) {
            throw new InputError(field, "must be a finite number >= 0");
          }
          if (r.cmp(Rational.ZERO) < 0) throw new InputError(field, "must not be negative");
          return r;
        });
        out[name] = { runs: runs, successes: successes, latency: sums[0], cost: sums[1] };
      });
      return out;
    }

    /** n and the means (p, latency, cost) of an agent's tasks, exact. */
    function means(tasks) {
      var n = 0n;
      var successes = 0n;
      var latency = Rational.ZERO;
      var cost = Rational.ZERO;
      tasks.forEach(function (task) {
        n += BigInt(task.runs);
        successes += BigInt(task.successes);
        latency = latency.add(task.latency);
        cost = cost.add(task.cost);
      });
      return {
        n: n,
        successes: successes,
        p: new Rational(successes, n),
        latency: latency.div(n),
        cost: cost.div(n),
      };
    }

    return {
      compositeInterval: compositeInterval,
      compositeGradient: compositeGradient,
      cohort: cohort,
      means: means,
    };
  }

  window.MethodologyParts.intervals = intervalsFamily;
})();
