/*
 * The intervals of window.Methodology (methodology.js): the rates of methodology 1.2.0
 * (scoring/intervals/rates.py: the t factor, the capped effective size, Clopper–Pearson at a
 * non-integer n*, the Wilson bounds of k ≥ 2, the outward rounding with a margin), the
 * clustered covariance of 1.1.0 (scoring/intervals/variance.py), the success-rate interval of
 * independent runs and the runs needed to tell two agents apart. Loaded after
 * quantiles.js (window.Quantiles) and methodology-numbers.js, before methodology.js.
 */
(function () {
  "use strict";

  var N = window.MethodologyParts.numbers;
  var Q = window.Quantiles;
  var Rational = N.Rational;
  var InputError = N.InputError;
  var pow10 = N.pow10;
  var floorDiv = N.floorDiv;
  var integerSqrt = N.integerSqrt;
  var decimalRound = N.decimalRound;

  /** The uncertainty family on the methodology `ctx` (methodology.js: its constants and helpers). */
  function uncertaintyFamily(ctx) {
    var constant = ctx.constant;
    var exact = ctx.exact;
    var requireInteger = ctx.requireInteger;
    var FRACTION_PLACES = constant("rounding.fraction_decimals");

    // --- uncertainty (from methodology 1.1.0) ----------------------------------------------
    // scoring/intervals/variance.py: exact up to the one square root of a bound, which is never
    // taken as a float: a bound is a + b·√q, floored or ceiled exactly at the published
    // decimals with integer square roots. z and z_power are the binary values of the floats
    // the snapshot publishes (Python takes Fraction(float)).

    var MIN_TASKS = constant("interval.min_tasks");
    var Z = Rational.ofDouble(constant("interval.z"));
    var Z_POWER = Rational.ofDouble(constant("interval.z_power"));
    var SAFE_LIMIT = BigInt(Number.MAX_SAFE_INTEGER);

    function bigInt(value) {
      return new Rational(value, 1n);
    }

    /** ⌊a + b·√q⌋ exactly (q ≥ 0): scoring.intervals.variance._floor_surd, step for step. */
    function floorSurd(a, b, q) {
      if (b.isZero() || q.isZero()) return a.floor();
      var r = b.mul(b).mul(q);
      var positive = b.cmp(Rational.ZERO) > 0;
      // |root − √r| < 1, so the floor lies within one of the guess.
      var root = new Rational(integerSqrt(r.num * r.den), r.den);
      var guess = (positive ? a.add(root) : a.sub(root)).floor();
      function atMost(m) {
        var gap = bigInt(m).sub(a);
        var below = gap.cmp(Rational.ZERO) <= 0;
        var square = gap.mul(gap).cmp(r);
        return positive ? below || square <= 0 : below && square >= 0;
      }
      var candidates = [guess + 1n, guess, guess - 1n];
      for (var i = 0; i < candidates.length; i++) {
        if (atMost(candidates[i])) return candidates[i];
      }
      throw new Error("unreachable: the floor lies within one of the guess");
    }

    /** The Wilson interval of m at n_eff, rounded outwards at `places` within [0, 1]. */
    function wilson(m, nEff, places) {
      var z2 = Z.mul(Z);
      var shrink = Rational.ONE.add(z2.div(nEff));
      var centre = m.add(z2.div(nEff.mul(2n))).div(shrink);
      var radicand = z2
        .div(shrink.mul(shrink))
        .mul(m.mul(Rational.ONE.sub(m)).div(nEff).add(z2.div(nEff.mul(nEff).mul(4n))));
      var scale = pow10(places);
      var units = bigInt(scale);
      var low = floorSurd(centre.mul(units), bigInt(-scale), radicand);
      var high = -floorSurd(centre.mul(units).mul(-1n), bigInt(-scale), radicand);
      if (low < 0n) low = 0n;
      if (high > scale) high = scale;
      return {
        low: new Rational(low, scale).toDouble(),
        high: new Rational(high, scale).toDouble(),
      };
    }

    // --- the rates of methodology 1.2.0 (scoring/intervals/rates.py) -----------------------------------
    // Floats where Python's are floats (the quantiles, n*, the Clopper–Pearson bounds), each
    // operation in Python's order so that it rounds the same way; exact where Python is exact
    // (n_eff, the Wilson bounds of k ≥ 2, the outward rounding of a float's binary value).

    var LEVEL = exact("interval.level");
    var MARGIN = exact("interval.bound_margin");
    var Z_FLOAT = constant("interval.z");
    // Python's Decimal context: Decimal(bound) − margin is rounded to this many digits
    // before it is floored at the published decimals (scoring.intervals.rates.outwards_with_margin).
    var DECIMAL_DIGITS = ctx.data.arithmetic.decimal_digits;
    // α/2 and 1 − α/2 (α = 1 − level), as Python's float of the exact fraction.
    var LOW_TAIL = Rational.ONE.sub(LEVEL).div(2n).toDouble();
    var HIGH_TAIL = Rational.ONE.add(LEVEL).div(2n).toDouble();

    /** A rational input: a Rational, a "p/q" or decimal string, or a number as written. */
    function rationalOf(value, field) {
      try {
        return Rational.of(value);
      } catch (error) {
        throw new InputError(field, "must be a number");
      }
    }

    /** q: the Student t quantile at (1 + level)/2 with T − 1 degrees of freedom. */
    function tFactor(tasks) {
      requireInteger(tasks, "tasks", 0);
      if (tasks < 2) {
        throw new InputError("tasks", "must be at least 2 for a t quantile (T − 1 ≥ 1)");
      }
      return Q.tQuantile(HIGH_TAIL, tasks - 1);
    }

    /** n_eff = m(1 − m)/V when V > 0, else T; capped at the runs and at Σ n_t / k. */
    function cappedEffectiveSize(m, variance, tasks, runs, k) {
      if (k < 1) throw new InputError("k", "must be at least 1");
      if (runs < 1) throw new InputError("runs", "must be at least 1");
      if (m.cmp(Rational.ZERO) < 0 || m.cmp(Rational.ONE) > 0) {
        throw new InputError("m", "a proportion m must lie in [0, 1]");
      }
      if (variance.cmp(Rational.ZERO) < 0) {
        throw new InputError("variance", "a variance must not be negative");
      }
      var nEff;
      if (variance.isZero()) {
        nEff = bigInt(BigInt(tasks));
      } else {
        var spread = m.mul(Rational.ONE.sub(m));
        if (spread.isZero()) {
          throw new InputError(
            "variance",
            "a proportion of 0 or 1 has no spread, so its variance must be 0"
          );
        }
        nEff = spread.div(variance);
        if (nEff.cmp(bigInt(BigInt(runs))) > 0) nEff = bigInt(BigInt(runs));
      }
      var cap = new Rational(BigInt(runs), BigInt(k));
      return nEff.cmp(cap) > 0 ? cap : nEff;
    }

    /** The Clopper–Pearson bounds of m at a non-integer size n*, x = m·n* (floats). */
    function clopperPearsonBounds(m, nStar) {
      if (m.cmp(Rational.ZERO) < 0 || m.cmp(Rational.ONE) > 0) {
        throw new InputError("m", "must lie in [0, 1]");
      }
      if (!(isFinite(nStar) && nStar > 0)) {
        throw new InputError("n_star", "must be a positive size");
      }
      var x = m.toDouble() * nStar;
      var low = m.isZero() ? 0 : Q.betaQuantile(LOW_TAIL, x, nStar - x + 1);
      var high = m.cmp(Rational.ONE) === 0 ? 1 : Q.betaQuantile(HIGH_TAIL, x + 1, nStar - x);
      return { low: low, high: high };
    }

    /**
     * The 1.2.0 bounds of a rate m of order k before rounding: {low, high, nEff, q, nStar}.
     * k = 1: Clopper–Pearson at n* = n_eff·(z/q)² (floats); k ≥ 2: low and high are null,
     * the Wilson bounds at the capped n_eff are rounded exactly by rateInterval.
     */
    function rateBounds(m, variance, tasks, runs, k) {
      var nEff = cappedEffectiveSize(m, variance, tasks, runs, k);
      if (k >= 2) return { low: null, high: null, nEff: nEff, q: null, nStar: null };
      var q = tFactor(tasks);
      var ratio = Z_FLOAT / q;
      var nStar = nEff.toDouble() * (ratio * ratio);
      var bounds = clopperPearsonBounds(m, nStar);
      return { low: bounds.low, high: bounds.high, nEff: nEff, q: q, nStar: nStar };
    }

    /** Units of 10^-places of a whole-valued bound (0, ±1, ±100): exact or refused. */
    function gridUnits(value, scale, field) {
      var units = value.mul(bigInt(scale));
      if (units.den !== 1n) throw new InputError(field, "must lie on the rounding grid");
      return units.num;
    }

    /** Python's Decimal(x) ± margin in its context: rounded to DECIMAL_DIGITS digits. */
    function inContext(value) {
      if (value.isZero()) return value;
      var negative = value.num < 0n;
      var d = decimalRound(negative ? -value.num : value.num, value.den, DECIMAL_DIGITS);
      var r = N.decimalToRational(d);
      return negative ? r.mul(-1n) : r;
    }

    /**
     * [low, high] (floats) rounded outwards at `places` decimals, a bound within the margin
     * of a rounding boundary rounded past it, then clipped to [bottom, top] (Rationals):
     * low = ⌊(low − ε)·10^d⌋/10^d, high = ⌈(high + ε)·10^d⌉/10^d, on the float's exact
     * binary value. Returns {low, high} as the doubles of those decimals.
     */
    function outwardsWithMargin(low, high, places, bottom, top) {
      if (!isFinite(low)) throw new InputError("low", "must be a finite bound");
      if (!isFinite(high)) throw new InputError("high", "must be a finite bound");
      if (low > high) throw new InputError("low", "must not exceed high");
      var scale = pow10(places);
      var floor = inContext(Rational.ofDouble(low).sub(MARGIN)).mul(bigInt(scale)).floor();
      var ceil = -inContext(Rational.ofDouble(high).add(MARGIN)).mul(bigInt(-scale)).floor();
      var lowest = gridUnits(bottom, scale, "bottom");
      var highest = gridUnits(top, scale, "top");
      var lowUnits = floor < lowest ? lowest : floor;
      if (lowUnits > highest) lowUnits = highest;
      var highUnits = ceil > highest ? highest : ceil;
      if (highUnits < lowest) highUnits = lowest;
      return {
        low: new Rational(lowUnits, scale).toDouble(),
        high: new Rational(highUnits, scale).toDouble(),
      };
    }

    /**
     * The published 1.2.0 interval of a rate: {low, high} at `places` decimals (the
     * fraction decimals unless given), times `scale` (1 unless given), outwards.
     * `input`: {m, variance (exact: "p/q", a decimal string or a number as written), tasks,
     * runs, k}.
     */
    function rateInterval(input) {
      input = input || {};
      var m = rationalOf(input.m, "m");
      var variance = rationalOf(input.variance, "variance");
      var tasks = requireInteger(input.tasks, "tasks", 0);
      var runs = requireInteger(input.runs, "runs", 0);
      var k = requireInteger(input.k === undefined ? 1 : input.k, "k", 1);
      var places = input.places === undefined ? FRACTION_PLACES : input.places;
      var top = input.scale === undefined ? Rational.ONE : rationalOf(input.scale, "scale");
      var bounds = rateBounds(m, variance, tasks, runs, k);
      if (bounds.low === null) {
        if (top.cmp(Rational.ONE) !== 0) {
          throw new InputError("scale", "the Wilson bounds of k ≥ 2 are rounded on [0, 1]");
        }
        return wilson(m, bounds.nEff, places);
      }
      var factor = top.toDouble();
      return outwardsWithMargin(
        bounds.low * factor,
        bounds.high * factor,
        places,
        Rational.ZERO,
        top
      );
    }

    // --- clustered (co)variance (scoring/intervals/variance.py, from 1.1.0) ------------------------

    /**
     * Σ = T/(T − 1) · Σ_t r_t r_tᵀ / n², r_t = S_t − n_t·v̄: the clustered covariance of
     * the means of several per-run values. `tasks`: [[runs, [sums…]], …], sums Rationals.
     * Exact, so any order of the arithmetic gives Python's fractions.
     */
    function clusteredCovariance(tasks) {
      if (tasks.length < 2) {
        throw new InputError("tasks", "a clustered variance needs at least two tasks");
      }
      var width = tasks[0][1].length;
      var n = 0n;
      var totals = [];
      for (var j = 0; j < width; j++) totals.push(Rational.ZERO);
      tasks.forEach(function (task) {
        if (task[1].length !== width) {
          throw new InputError("tasks", "every task needs the same number of sums");
        }
        if (!(task[0] > 0)) throw new InputError("tasks", "every task needs at least one run");
        n += BigInt(task[0]);
        for (var j = 0; j < width; j++) totals[j] = totals[j].add(task[1][j]);
      });
      // n·r_t = n·S_t − n_t·ΣS: residuals without a division; one division per entry.
      var nR = bigInt(n);
      var residuals = tasks.map(function (task) {
        var count = bigInt(BigInt(task[0]));
        return task[1].map(function (sum, j) {
          return nR.mul(sum).sub(count.mul(totals[j]));
        });
      });
      var T = BigInt(tasks.length);
      var factor = new Rational(T, (T - 1n) * n * n * n * n);
      var sigma = [];
      for (var a = 0; a < width; a++) {
        sigma.push([]);
        for (var b = 0; b < width; b++) {
          if (b < a) {
            sigma[a].push(sigma[b][a]);
            continue;
          }
          var products = Rational.ZERO;
          for (var t = 0; t < residuals.length; t++) {
            products = products.add(residuals[t][a].mul(residuals[t][b]));
          }
          sigma[a].push(products.mul(factor));
        }
      }
      return sigma;
    }

    /** Each (runs, successes) task of a cohort checked: runs > 0, 0 ≤ successes ≤ runs. */
    function checkedCounts(tasks, field) {
      tasks.forEach(function (task, i) {
        var runs = requireInteger(task[0], field + "." + i + ".runs", 1);
        var successes = requireInteger(task[1], field + "." + i + ".successes", 0);
        if (successes > runs) {
          throw new InputError(
            field + "." + i + ".successes",
            "each task needs successes between 0 and its runs"
          );
        }
      });
    }

    /**
     * The 1.2.0 success-rate interval of a cohort of [runs, successes] tasks
     * (Clopper–Pearson at n*, k = 1): {low, high}; null below the task minimum.
     */
    function successRateInterval(tasks) {
      tasks = tasks || [];
      checkedCounts(tasks, "tasks");
      if (tasks.length < MIN_TASKS) return null;
      var sigma = clusteredCovariance(
        tasks.map(function (task) {
          return [task[0], [bigInt(BigInt(task[1]))]];
        })
      );
      var n = 0n;
      var c = 0n;
      tasks.forEach(function (task) {
        n += BigInt(task[0]);
        c += BigInt(task[1]);
      });
      return rateInterval({
        m: new Rational(c, n),
        variance: sigma[0][0],
        tasks: tasks.length,
        runs: Number(n),
      });
    }

    /**
     * The success-rate interval of `successes` in `runs` independent runs (each run its own
     * task; methodology 1.2.0): the rate interval of `runs` one-run tasks, {low, high} to
     * four decimals, outwards; null below the task minimum. With one run a task the
     * clustered variance is m(1 − m)/(n − 1) (Σ_t (s_t − m)² = n·m(1 − m)), T = Σ n_t = n,
     * k = 1: successRateInterval of those tasks, without building n of them.
     */
    function successInterval(input) {
      input = input || {};
      var runs = requireInteger(input.runs, "runs", 0);
      var successes = requireInteger(input.successes, "successes", 0);
      if (successes > runs) {
        throw new InputError("successes", "must lie between 0 and the runs");
      }
      if (runs < MIN_TASKS) return null;
      var m = new Rational(BigInt(successes), BigInt(runs));
      var variance = m.mul(Rational.ONE.sub(m)).div(BigInt(runs - 1));
      return rateInterval({ m: m, variance: variance, tasks: runs, runs: runs });
    }

    function requireShare(value, field, rule, within) {
      var r;
      try {
        r = Rational.of(value);
      } catch (error) {
        throw new InputError(field, "must be a number; " + rule);
      }
      if (!within(r)) throw new InputError(field, rule);
      return r;
    }

    /**
     * Runs per agent to tell p_A from p_B = p_A − δ apart at the interval level with the
     * planned power, for K runs per task with within-task correlation ρ: a whole number.
     */
    function runsNeeded(input) {
      input = input || {};
      var share = requireShare(input.p_a, "p_a", "must lie in (0, 1]", function (r) {
        return r.cmp(Rational.ZERO) > 0 && r.cmp(Rational.ONE) <= 0;
      });
      var gap = requireShare(
        input.delta,
        "delta",
        "must lie in (0, p_A], so that p_B = p_A − δ is a rate",
        function (r) {
          return r.cmp(Rational.ZERO) > 0 && r.cmp(share) <= 0;
        }
      );
      var perTask = requireInteger(input.runs_per_task, "runs_per_task", 1);
      var rho = requireShare(input.rho, "rho", "must lie in [0, 1]", function (r) {
        return r.cmp(Rational.ZERO) >= 0 && r.cmp(Rational.ONE) <= 0;
      });
      var other = share.sub(gap);
      var spread = share
        .mul(Rational.ONE.sub(share))
        .add(other.mul(Rational.ONE.sub(other)));
      var design = Rational.ONE.add(bigInt(BigInt(perTask - 1)).mul(rho));
      var both = Z.add(Z_POWER);
      var n = both.mul(both).mul(spread).div(gap.mul(gap)).mul(design);
      var runs = -floorDiv(-n.num, n.den); // ⌈n⌉
      if (runs < 1n) runs = 1n;
      if (runs > SAFE_LIMIT) {
        throw new InputError(
          "delta",
          "needs " + runs + " runs, more than a JavaScript number holds exactly " +
            "(Number.MAX_SAFE_INTEGER = " + Number.MAX_SAFE_INTEGER + "); the command " +
            "line computes it: scoring.intervals.variance.runs_needed"
        );
      }
      return Number(runs);
    }

    return {
      successInterval: successInterval,
      runsNeeded: runsNeeded,
      tFactor: tFactor,
      cappedEffectiveSize: cappedEffectiveSize,
      clopperPearsonBounds: clopperPearsonBounds,
      rateBounds: rateBounds,
      rateInterval: rateInterval,
      outwardsWithMargin: outwardsWithMargin,
      clusteredCovariance: clusteredCovariance,
      successRateInterval: successRateInterval,
    };
  }

  window.MethodologyParts.uncertainty = uncertaintyFamily;
})();
