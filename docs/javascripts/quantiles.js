/*
 * The Beta and Student t quantiles of the 1.2.0 intervals, in the browser (methodology
 * 1.2.0, docs/uncertainty.md, rule 4 of the rates): window.Quantiles.
 *
 * Python takes them from scipy.special (scoring/intervals/quantiles.py, chosen by measurement in
 * benchmarks/bench_quantiles.py); the browser has no such library, so this file computes
 * them: the regularized incomplete beta I_x(a, b) by its continued fraction (modified
 * Lentz, as Numerical Recipes' betacf), inverted by Halley's method inside a bisection
 * bracket from the start of Abramowitz and Stegun 26.5.22; the t quantile through
 * P(|T| > t) = I_{ν/(ν+t²)}(ν/2, ½). tests/site/test_quantiles_js.py holds both to
 * Python's to 1e-12 relative in Chromium.
 *
 * The prefactor x^a (1 − x)^b / B(a, b) is taken in logarithms; where one shape is large,
 * log Γ(large) − log Γ(a + b) is written with Stirling's series so that the two large
 * logarithms never cancel (their rounding would cost the small tail probabilities of the t
 * quantile several digits).
 *
 * Measured against scipy: within 3e-13 relative for shapes and degrees of freedom up to
 * 20,000 (the parity test's range), 5e-13 at 10^6; beyond, the continued fraction's
 * rounding grows past 1e-12 (6e-11 at 10^7 degrees of freedom).
 */
(function (root) {
  "use strict";

  var HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
  // Stirling's series is used at and above this argument (its error there is below 1e-16).
  var STIRLING_MIN = 10;
  // The continued fraction's relative step, its floor against division by 0, its length.
  var CF_EPS = 1e-16;
  var CF_TINY = 1e-300;
  var CF_MAX_TERMS = 100000;
  // Halley's step, relative to x, at which the quantile is taken as converged; at most
  // this many steps (bisection included).
  var STEP_EPS = 1e-15;
  var MAX_STEPS = 300;

  function domainError(message) {
    var error = new RangeError(message);
    error.name = "ScoringError";
    return error;
  }

  function checkFinite(name, value) {
    if (typeof value !== "number" || !isFinite(value)) {
      throw domainError(name + " must be a finite number, not " + String(value));
    }
  }

  // log Γ(z) − (z − ½) log z + z − ½ log 2π, for z ≥ STIRLING_MIN (Stirling's series).
  function stirlingRemainder(z) {
    var w = 1 / (z * z);
    return (
      (1 / 12 +
        w *
          (-1 / 360 +
            w * (1 / 1260 + w * (-1 / 1680 + w * (1 / 1188 + w * (-691 / 360360 + w / 156)))))) /
      z
    );
  }

  // log Γ(x), x > 0: Stirling's series, after the recurrence Γ(x + 1) = x Γ(x) below it.
  function logGamma(x) {
    var product = 1;
    while (x < STIRLING_MIN) {
      product *= x;
      x += 1;
    }
    return (x - 0.5) * Math.log(x) - x + HALF_LOG_2PI + stirlingRemainder(x) - Math.log(product);
  }

  // log(x^a (1 − x)^b / B(a, b)), 0 < x < 1.
  function logPrefactor(x, a, b) {
    var powers = a * Math.log(x) + b * Math.log1p(-x);
    var large = Math.max(a, b);
    var small = Math.min(a, b);
    if (large < STIRLING_MIN) {
      return powers - logGamma(a) - logGamma(b) + logGamma(a + b);
    }
    // log Γ(L) − log Γ(L + s) = −(L − ½) log1p(s/L) − s log(L + s) + s + δ(L) − δ(L + s).
    var sum = large + small;
    var ratio =
      -(large - 0.5) * Math.log1p(small / large) -
      small * Math.log(sum) +
      small +
      stirlingRemainder(large) -
      stirlingRemainder(sum);
    return powers - logGamma(small) - ratio;
  }

  function continuedFraction(a, b, x) {
    var qab = a + b;
    var qap = a + 1;
    var qam = a - 1;
    var c = 1;
    var d = 1 - (qab * x) / qap;
    d = 1 / (Math.abs(d) > CF_TINY ? d : CF_TINY);
    var h = d;
    for (var m = 1; m < CF_MAX_TERMS; m++) {
      var m2 = 2 * m;
      var aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
      d = 1 + aa * d;
      d = 1 / (Math.abs(d) > CF_TINY ? d : CF_TINY);
      c = 1 + aa / c;
      c = Math.abs(c) > CF_TINY ? c : CF_TINY;
      h *= d * c;
      aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
      d = 1 + aa * d;
      d = 1 / (Math.abs(d) > CF_TINY ? d : CF_TINY);
      c = 1 + aa / c;
      c = Math.abs(c) > CF_TINY ? c : CF_TINY;
      var step = d * c;
      h *= step;
      if (Math.abs(step - 1) < CF_EPS) {
        return h;
      }
    }
    throw new Error("the continued fraction of the incomplete beta did not converge");
  }

  // I_x(a, b) without argument checks (x, a, b already checked).
  function regularized(x, a, b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    var front = Math.exp(logPrefactor(x, a, b));
    if (x < (a + 1) / (a + b + 2)) {
      return (front * continuedFraction(a, b, x)) / a;
    }
    return 1 - (front * continuedFraction(b, a, 1 - x)) / b;
  }

  function checkShapes(a, b) {
    checkFinite("a", a);
    checkFinite("b", b);
    if (!(a > 0)) {
      throw domainError("a must be positive (a Beta shape parameter), not " + a);
    }
    if (!(b > 0)) {
      throw domainError("b must be positive (a Beta shape parameter), not " + b);
    }
  }

  // The regularized incomplete beta function I_x(a, b).
  function incompleteBeta(x, a, b) {
    checkFinite("x", x);
    checkShapes(a, b);
    if (x < 0 || x > 1) {
      throw domainError("x must lie in [0, 1], not " + x);
    }
    return regularized(x, a, b);
  }

  // A starting point: Abramowitz and Stegun 26.5.22, or a power law for small shapes.
  function start(p, a, b) {
    if (a >= 1 && b >= 1) {
      var pp = p < 0.5 ? p : 1 - p;
      var t = Math.sqrt(-2 * Math.log(pp));
      var x = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
      if (p < 0.5) {
        x = -x;
      }
      var al = (x * x - 3) / 6;
      var h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1));
      var w =
        (x * Math.sqrt(al + h)) / h -
        (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (al + 5 / 6 - 2 / (3 * h));
      return a / (a + b * Math.exp(2 * w));
    }
    var lna = Math.log(a / (a + b));
    var lnb = Math.log(b / (a + b));
    var ta = Math.exp(a * lna) / a;
    var ub = Math.exp(b * lnb) / b;
    var total = ta + ub;
    if (p < ta / total) {
      return Math.pow(a * total * p, 1 / a);
    }
    return 1 - Math.pow(b * total * (1 - p), 1 / b);
  }

  // The p quantile of Beta(a, b): the x with I_x(a, b) = p (a spreadsheet's BETA.INV).
  function betaQuantile(p, a, b) {
    checkFinite("probability", p);
    checkShapes(a, b);
    if (p < 0 || p > 1) {
      throw domainError("probability must lie in [0, 1], not " + p);
    }
    if (p === 0) {
      return 0;
    }
    if (p === 1) {
      return 1;
    }
    var low = 0;
    var high = 1;
    var x = Math.min(Math.max(start(p, a, b), 1e-300), 1 - 1e-16);
    for (var i = 0; i < MAX_STEPS; i++) {
      var error = regularized(x, a, b) - p;
      if (error < 0) {
        low = x;
      } else {
        high = x;
      }
      // The Beta density x^(a−1) (1 − x)^(b−1) / B(a, b).
      var density = Math.exp(logPrefactor(x, a, b)) / (x * (1 - x));
      var next = 0.5 * (low + high); // bisection, where Halley's step leaves the bracket
      if (density > 0) {
        var step = error / density;
        // Halley's correction, limited so that a far start never stalls on a tiny step.
        var curvature = step * ((a - 1) / x - (b - 1) / (1 - x));
        var halley = x - step / (1 - 0.5 * Math.max(-1, Math.min(1, curvature)));
        if (low < halley && halley < high) {
          next = halley;
        }
      }
      if (Math.abs(next - x) <= STEP_EPS * next || high - low <= STEP_EPS * low) {
        return next;
      }
      x = next;
    }
    return x;
  }

  // The p quantile of Student's t with nu degrees of freedom.
  function tQuantile(p, nu) {
    checkFinite("probability", p);
    checkFinite("degrees_of_freedom", nu);
    if (!(p > 0 && p < 1)) {
      throw domainError("probability must lie in (0, 1) for a t quantile, not " + p);
    }
    if (!(nu > 0)) {
      throw domainError("degrees_of_freedom must be positive, not " + nu);
    }
    if (p === 0.5) {
      return 0;
    }
    var tail = 2 * Math.min(p, 1 - p); // P(|T| > t)
    var x = betaQuantile(tail, nu / 2, 0.5); // ν/(ν + t²)
    var t;
    if (x < 0.5) {
      t = Math.sqrt((nu * (1 - x)) / x);
    } else {
      // 1 − x = t²/(ν + t²) is small: solve for it, for its relative precision.
      var y = betaQuantile(1 - tail, 0.5, nu / 2);
      t = Math.sqrt((nu * y) / (1 - y));
    }
    return p > 0.5 ? t : -t;
  }

  root.Quantiles = {
    betaQuantile: betaQuantile,
    tQuantile: tQuantile,
    incompleteBeta: incompleteBeta,
    logGamma: logGamma,
  };
})(typeof window !== "undefined" ? window : globalThis);
