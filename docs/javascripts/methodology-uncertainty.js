/*
 * The intervals of window.Methodology (methodology.js) from methodology 1.1.0: the
 * success-rate interval of independent runs and the runs needed to tell two agents apart
 * (scoring/uncertainty.py). Loaded after methodology-numbers.js, before methodology.js.
 */
(function () {
  "use strict";

  var N = window.MethodologyParts.numbers;
  var Rational = N.Rational;
  var InputError = N.InputError;
  var pow10 = N.pow10;
  var floorDiv = N.floorDiv;
  var integerSqrt = N.integerSqrt;

  /** The uncertainty family on the methodology `ctx` (methodology.js: its constants and helpers). */
  function uncertaintyFamily(ctx) {
    var constant = ctx.constant;
    var exact = ctx.exact;
    var requireInteger = ctx.requireInteger;
    var FRACTION_PLACES = constant("rounding.fraction_decimals");

    // --- uncertainty (from methodology 1.1.0) ----------------------------------------------
    // scoring/uncertainty.py: exact up to the one square root of a bound, which is never
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

    /** ⌊a + b·√q⌋ exactly (q ≥ 0): scoring.uncertainty._floor_surd, step for step. */
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

    /**
     * The success-rate interval of `successes` in `runs` independent runs (each run its own
     * task): {low, high} to four decimals, rounded outwards; null below the task minimum.
     * With one run per task n_eff = n − 1, or n when every run or none succeeded.
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
      var spread = successes > 0 && successes < runs;
      var nEff = bigInt(BigInt(spread ? runs - 1 : runs));
      return wilson(m, nEff, FRACTION_PLACES);
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
            "line computes it: scoring.uncertainty.runs_needed"
        );
      }
      return Number(runs);
    }

    return {
      successInterval: successInterval,
      runsNeeded: runsNeeded,
    };
  }

  window.MethodologyParts.uncertainty = uncertaintyFamily;
})();
