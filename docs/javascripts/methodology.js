/*
 * window.Methodology: the site's second implementation of four scores, for the calculators.
 *
 * Every number of the methodology comes from the snapshot the build inlines into the page
 * (<script type="application/json" id="methodology-data">, the constants of the published
 * methodology.json): none is typed here. The arithmetic is exact, on BigInt rationals, and a
 * result becomes a float only at the edge, rounded the way Python rounds it, so that each
 * function returns what `python -m scoring` publishes for the same input. A parity test in
 * headless Chromium (tests/site/test_calculator_parity.py) holds it to that.
 */
(function () {
  "use strict";

  var DATA_ID = "methodology-data";

  // --- exact rationals ---------------------------------------------------------------------

  function bigAbs(a) {
    return a < 0n ? -a : a;
  }

  function gcd(a, b) {
    a = bigAbs(a);
    b = bigAbs(b);
    while (b) {
      var t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  function pow10(n) {
    return 10n ** BigInt(n);
  }

  // Floor division of BigInts (BigInt `/` truncates towards zero).
  function floorDiv(a, b) {
    var q = a / b;
    if (a % b !== 0n && (a < 0n) !== (b < 0n)) q -= 1n;
    return q;
  }

  function bitLength(a) {
    return a === 0n ? 0 : a.toString(2).length;
  }

  function digitCount(a) {
    return a === 0n ? 1 : bigAbs(a).toString().length;
  }

  /** An exact rational, always reduced with a positive denominator (like Python's Fraction). */
  function Rational(num, den) {
    if (den === undefined) den = 1n;
    if (den === 0n) throw new RangeError("division by zero");
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    var g = gcd(num, den);
    if (g > 1n) {
      num /= g;
      den /= g;
    }
    this.num = num;
    this.den = den;
    Object.freeze(this);
  }

  var DECIMAL = /^(?<sign>[+-]?)(?<whole>\d*)(?:\.(?<part>\d*))?(?:[eE](?<exp>[+-]?\d+))?$/;

  /** The exact value of a decimal string ("0.001", "1e-7") or of "p/q". */
  Rational.parse = function (text) {
    var s = String(text).trim();
    var slash = s.indexOf("/");
    if (slash >= 0) {
      return new Rational(BigInt(s.slice(0, slash).trim()), BigInt(s.slice(slash + 1).trim()));
    }
    var m = DECIMAL.exec(s);
    if (!m || (m.groups.whole === "" && !m.groups.part)) {
      throw new RangeError("not a number: " + JSON.stringify(text));
    }
    var fraction = m.groups.part || "";
    var num = BigInt((m.groups.whole || "0") + fraction);
    var exp = (m.groups.exp ? parseInt(m.groups.exp, 10) : 0) - fraction.length;
    if (m.groups.sign === "-") num = -num;
    return exp >= 0 ? new Rational(num * pow10(exp), 1n) : new Rational(num, pow10(-exp));
  };

  /**
   * A value as the decimal it is written as: a JS number reads as its shortest decimal
   * (the same digits as Python's repr of the same double), so 0.6 is 3/5.
   */
  Rational.of = function (value) {
    if (value instanceof Rational) return value;
    if (typeof value === "bigint") return new Rational(value, 1n);
    if (typeof value === "number") {
      if (!isFinite(value)) throw new RangeError("not a finite number: " + value);
      return Rational.parse(String(value));
    }
    if (typeof value === "string") return Rational.parse(value);
    throw new TypeError("not a number: " + JSON.stringify(value));
  };

  /**
   * The exact binary value of a double, as Python's Fraction(float) gives it (not its
   * shortest decimal): doubling a double is exact, so it becomes an integer after as many
   * doublings as its binary digits after the point.
   */
  Rational.ofDouble = function (value) {
    if (typeof value !== "number" || !isFinite(value)) {
      throw new RangeError("not a finite number: " + value);
    }
    var den = 1n;
    while (!Number.isInteger(value)) {
      value *= 2;
      den *= 2n;
    }
    return new Rational(BigInt(value), den);
  };

  Rational.ZERO = new Rational(0n, 1n);
  Rational.ONE = new Rational(1n, 1n);

  Rational.prototype.add = function (o) {
    o = Rational.of(o);
    return new Rational(this.num * o.den + o.num * this.den, this.den * o.den);
  };
  Rational.prototype.sub = function (o) {
    o = Rational.of(o);
    return new Rational(this.num * o.den - o.num * this.den, this.den * o.den);
  };
  Rational.prototype.mul = function (o) {
    o = Rational.of(o);
    return new Rational(this.num * o.num, this.den * o.den);
  };
  Rational.prototype.div = function (o) {
    o = Rational.of(o);
    return new Rational(this.num * o.den, this.den * o.num);
  };
  Rational.prototype.cmp = function (o) {
    o = Rational.of(o);
    var a = this.num * o.den;
    var b = o.num * this.den;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  Rational.prototype.isZero = function () {
    return this.num === 0n;
  };
  /** The greatest integer at most this value (a BigInt). */
  Rational.prototype.floor = function () {
    return floorDiv(this.num, this.den);
  };
  Rational.prototype.toString = function () {
    return this.den === 1n ? this.num.toString() : this.num + "/" + this.den;
  };

  /** Units of 10^-places, halves rounded up (towards +infinity): floor(x·10^p + 1/2). */
  Rational.prototype.halfUpUnits = function (places) {
    var scale = pow10(places);
    return floorDiv(2n * this.num * scale + this.den, 2n * this.den);
  };

  /** The nearest double, ties to even: what Python's float(Fraction) returns. */
  Rational.prototype.toDouble = function () {
    return ratioToDouble(this.num, this.den);
  };

  function ratioToDouble(num, den) {
    if (num === 0n) return 0;
    var negative = num < 0n;
    num = bigAbs(num);
    // value = q · 2^-shift with q in [2^52, 2^53): 53 significant bits, then one rounding.
    var shift = 52 - (bitLength(num) - bitLength(den));
    var q, r, d;
    for (;;) {
      var n2 = shift >= 0 ? num << BigInt(shift) : num;
      d = shift >= 0 ? den : den << BigInt(-shift);
      q = n2 / d;
      r = n2 % d;
      if (q >= 1n << 53n) shift -= 1;
      else if (q < 1n << 52n) shift += 1;
      else break;
    }
    // Below the normal range a double holds fewer bits: round at 2^-1074 instead.
    if (shift > 1074) {
      shift = 1074;
      d = den;
      q = (num << 1074n) / d;
      r = (num << 1074n) % d;
    }
    if (2n * r > d || (2n * r === d && q % 2n === 1n)) q += 1n;
    var x = Number(q);
    // Multiply by 2^-shift in steps that stay exact (each a power of two within range).
    while (shift > 1000) {
      x *= Math.pow(2, -1000);
      shift -= 1000;
    }
    while (shift < -1000) {
      x *= Math.pow(2, 1000);
      shift += 1000;
    }
    x *= Math.pow(2, -shift);
    return negative ? -x : x;
  }

  // --- Python's decimal, as far as the outcome score's square root needs it -----------------

  /** num/den (> 0) to `prec` significant digits, halves to even: {coef, exp}. */
  function decimalRound(num, den, prec) {
    // Choose m with 10^(prec-1) <= num·10^m/den < 10^prec.
    var m = prec - 1 - (digitCount(num) - digitCount(den));
    var low = pow10(prec - 1);
    var high = pow10(prec);
    var q, r, scaledNum, scaledDen;
    for (;;) {
      scaledNum = m >= 0 ? num * pow10(m) : num;
      scaledDen = m >= 0 ? den : den * pow10(-m);
      q = scaledNum / scaledDen;
      r = scaledNum % scaledDen;
      if (q >= high) m -= 1;
      else if (q < low) m += 1;
      else break;
    }
    if (2n * r > scaledDen || (2n * r === scaledDen && q % 2n === 1n)) q += 1n;
    if (q === high) {
      q = low;
      m -= 1;
    }
    return { coef: q, exp: -m };
  }

  /** floor(sqrt(n)): Newton's iteration from a start above the root, until it stops falling. */
  function integerSqrt(n) {
    if (n < 2n) return n;
    var x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
    for (;;) {
      var y = (x + n / x) >> 1n;
      if (y >= x) return x;
      x = y;
    }
  }

  /** Decimal(n).sqrt() in a context of `prec` digits: correctly rounded, halves to even. */
  function decimalSqrt(n, prec) {
    if (n === 0n) return { coef: 0n, exp: 0 };
    var half = Math.ceil(digitCount(n) / 2);
    var e = Math.max(0, prec + 2 - half);
    var scaled = n * pow10(2 * e);
    var s = integerSqrt(scaled); // floor(sqrt(n) · 10^e)
    var exact = s * s === scaled;
    var drop = digitCount(s) - prec;
    if (drop <= 0) return { coef: s, exp: -e };
    var unit = pow10(drop);
    var q = s / unit;
    var rem = s % unit;
    var halfway = 5n * pow10(drop - 1);
    if (rem > halfway || (rem === halfway && (!exact || q % 2n === 1n))) q += 1n;
    return { coef: q, exp: drop - e };
  }

  function decimalToRational(d) {
    return d.exp >= 0
      ? new Rational(d.coef * pow10(d.exp), 1n)
      : new Rational(d.coef, pow10(-d.exp));
  }

  /** str(Decimal(units).scaleb(-places)) for units >= 0. */
  function decimalText(units, places) {
    var digits = units.toString();
    var adjusted = -places + digits.length - 1;
    if (adjusted >= -6) {
      if (places === 0) return digits;
      var padded = digits.padStart(places + 1, "0");
      return padded.slice(0, padded.length - places) + "." + padded.slice(padded.length - places);
    }
    var mantissa = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    return mantissa + "E" + adjusted;
  }

  // --- Python's repr of a string, for names quoted in a reason ------------------------------

  var NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

  function pyRepr(text) {
    var quote = text.indexOf("'") >= 0 && text.indexOf('"') < 0 ? '"' : "'";
    var out = quote;
    for (var ch of text) {
      var code = ch.codePointAt(0);
      if (ch === "\\") out += "\\\\";
      else if (ch === quote) out += "\\" + quote;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
        if (code < 0x100) out += "\\x" + code.toString(16).padStart(2, "0");
        else if (code < 0x10000) out += "\\u" + code.toString(16).padStart(4, "0");
        else out += "\\U" + code.toString(16).padStart(8, "0");
      } else out += ch;
    }
    return out + quote;
  }

  // --- input errors ---------------------------------------------------------------------------

  /** A bad input: `field` names where (dotted, as the CLI names it), `rule` what it broke. */
  function InputError(field, rule) {
    this.name = "InputError";
    this.field = field;
    this.rule = rule;
    this.message = (field ? field + ": " : "") + rule;
    this.stack = new Error(this.message).stack;
  }
  InputError.prototype = Object.create(Error.prototype);
  InputError.prototype.constructor = InputError;

  // A number read by readJson keeps the text it was written as (an int is not a float).
  function JsonNumber(value, source) {
    this.value = value;
    this.source = source;
  }

  function readJson(text) {
    try {
      return JSON.parse(text, function (key, value, context) {
        if (typeof value === "number" && context && typeof context.source === "string") {
          return new JsonNumber(value, context.source);
        }
        return value;
      });
    } catch (error) {
      throw new InputError(null, "not valid JSON (" + error.message + ") [json]");
    }
  }

  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JsonNumber);
  }

  function numberOf(v) {
    if (v instanceof JsonNumber) return v.value;
    return typeof v === "number" ? v : undefined;
  }

  // A whole number beyond 2^53 - 1 has no exact double: the page refuses it, naming the
  // limit, where Python's arbitrary-precision integers would go on counting.
  var UNSAFE_INTEGER_RULE =
    "must be at most " +
    Number.MAX_SAFE_INTEGER +
    " (2^53 - 1, the largest whole number JavaScript holds exactly); " +
    "the scoring command has no such limit";

  function isIntegerValue(v) {
    if (v instanceof JsonNumber) return /^-?\d+$/.test(v.source);
    return typeof v === "number" && Number.isInteger(v);
  }

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
    var FLOOR = exact("outcome.recoverable_floor");
    var DEFAULT_CHECK_WEIGHT = constant("outcome.default_check_weight");
    var CORRECTNESS_SOURCES = constant("outcome.correctness_sources");
    var RECOVERABLE_SOURCES = constant("outcome.recoverable_sources");
    var REASON_PLACES = constant("outcome.reason_decimals");
    var OUTCOME_VERSION = constant("outcome.version");
    // combine() takes each square root in a decimal context of its own and divides them in
    // Python's default context: the build inlines both precisions beside the constants.
    var SQRT_PRECISION = data.arithmetic.sqrt_digits;
    var DIVISION_PRECISION = data.arithmetic.decimal_digits;
    // How a reason writes an absent reading (devops-bench's "rec_v=n/a"), from the build.
    var ABSENT_READING = data.absent_reading;

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

    function compositeExact(input) {
      var runs = requireInteger(input.completed_runs, "completed_runs", 0);
      var successes = requireInteger(input.successes, "successes", 0);
      var latencyMs = requireAmount(input.mean_latency_ms, "mean_latency_ms");
      var costUsd = requireAmount(input.mean_cost_usd, "mean_cost_usd");
      if (runs === 0) return null;
      if (successes > runs) {
        throw new InputError("successes", "must lie between 0 and the completed runs");
      }
      var p = new Rational(BigInt(successes), BigInt(runs));
      var consistency =
        runs < GATE_RUNS
          ? NEUTRAL
          : Rational.ONE.sub(p.mul(4n).mul(Rational.ONE.sub(p))); // 1 − 4p(1 − p)
      var latency = piecewiseLinear(latencyMs, LATENCY_ANCHORS);
      var cost = piecewiseLinear(costUsd, COST_ANCHORS);
      var score = p.isZero()
        ? Rational.ZERO
        : SCALE.mul(
            W_SUCCESS.mul(p)
              .add(W_RELIABILITY.mul(consistency).mul(latency).div(SCALE))
              .add(W_COST.mul(cost).div(SCALE))
          );
      return {
        score: score,
        success_rate: p,
        consistency: consistency,
        latency_score: latency,
        cost_score: cost,
        completed_runs: runs,
        zero_success_floor: successes === 0,
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

    // --- outcome score ---------------------------------------------------------------------

    var ROLES = ["objective", "safeguard"];
    var SEVERITIES = ["recoverable", "catastrophic"];
    var STATUSES = ["passed", "failed", "error"];
    var RECORD_FIELDS = ["run_id", "verification", "judged", "efficiency"];
    var ENTRY_FIELDS = ["name", "role", "severity", "status", "weight"];
    var JUDGED_FIELDS = ["checklist", "outcome_validity", "recoverable"];
    var EFFICIENCY_FIELDS = [
      "latency_sec",
      "input_tokens",
      "output_tokens",
      "cached_tokens",
      "reasoning_tokens",
      "total_tokens",
    ];

    function checkKnown(obj, fields, where) {
      Object.keys(obj).forEach(function (key) {
        if (fields.indexOf(key) < 0) throw new InputError(where + key, "unknown field");
      });
    }

    function has(obj, key) {
      return Object.prototype.hasOwnProperty.call(obj, key);
    }

    function checkString(value, field) {
      if (typeof value !== "string") throw new InputError(field, "must be a string");
      if (value.length < 1) throw new InputError(field, "must not be empty");
      return value;
    }

    function checkChoice(value, choices, field) {
      if (typeof value !== "string" || choices.indexOf(value) < 0) {
        throw new InputError(field, "must be one of " + choices.join(", "));
      }
      return value;
    }

    function checkFloat(value, field, rule) {
      var n = numberOf(value);
      if (n === undefined) throw new InputError(field, "must be a number");
      if (!isFinite(n)) throw new InputError(field, "must be a finite number");
      var r = Rational.of(n);
      if (!rule(r)) throw new InputError(field, rule.text);
      return n;
    }

    var positive = function (r) {
      return r.cmp(Rational.ZERO) > 0;
    };
    positive.text = "must be greater than 0";
    var nonNegative = function (r) {
      return r.cmp(Rational.ZERO) >= 0;
    };
    nonNegative.text = "must be at least 0";
    var unit = function (r) {
      return r.cmp(Rational.ZERO) >= 0 && r.cmp(Rational.ONE) <= 0;
    };
    unit.text = "must lie in [0, 1]";

    function checkRecord(input) {
      if (!isObject(input)) throw new InputError(null, "must be a JSON object");
      var record = { run_id: null, verification: [], judged: null, efficiency: null };
      if (!has(input, "run_id")) throw new InputError("run_id", "required field is missing");
      record.run_id = checkString(input.run_id, "run_id");
      if (has(input, "verification")) {
        if (!Array.isArray(input.verification)) {
          throw new InputError("verification", "must be a list");
        }
        record.verification = input.verification.map(function (entry, i) {
          var where = "verification." + i + ".";
          if (!isObject(entry)) throw new InputError("verification." + i, "must be an object");
          ["name", "role", "status"].forEach(function (key) {
            if (!has(entry, key)) throw new InputError(where + key, "required field is missing");
          });
          var checked = {
            name: checkString(entry.name, where + "name"),
            role: checkChoice(entry.role, ROLES, where + "role"),
            severity:
              entry.severity === undefined || entry.severity === null
                ? null
                : checkChoice(entry.severity, SEVERITIES, where + "severity"),
            status: checkChoice(entry.status, STATUSES, where + "status"),
            weight: has(entry, "weight")
              ? checkFloat(entry.weight, where + "weight", positive)
              : DEFAULT_CHECK_WEIGHT,
          };
          checkKnown(entry, ENTRY_FIELDS, where);
          if (checked.role === "safeguard" && checked.severity === null) {
            throw new InputError(
              where + "severity",
              "required on a safeguard (recoverable or catastrophic)"
            );
          }
          if (checked.role === "objective" && checked.severity !== null) {
            throw new InputError(where + "severity", "must be absent on an objective");
          }
          return checked;
        });
      }
      if (has(input, "judged") && input.judged !== null) {
        if (!isObject(input.judged)) throw new InputError("judged", "must be an object");
        record.judged = {};
        JUDGED_FIELDS.forEach(function (key) {
          var v = input.judged[key];
          record.judged[key] =
            v === undefined || v === null ? null : checkFloat(v, "judged." + key, unit);
        });
        checkKnown(input.judged, JUDGED_FIELDS, "judged.");
      }
      if (has(input, "efficiency") && input.efficiency !== null) {
        if (!isObject(input.efficiency)) throw new InputError("efficiency", "must be an object");
        // Only the fields given are echoed, as pydantic's exclude_unset does.
        record.efficiency = {};
        EFFICIENCY_FIELDS.forEach(function (key) {
          if (!has(input.efficiency, key)) return;
          var v = input.efficiency[key];
          var field = "efficiency." + key;
          if (v === null) {
            record.efficiency[key] = null;
          } else if (key === "latency_sec") {
            record.efficiency[key] = checkFloat(v, field, nonNegative);
          } else {
            if (!isIntegerValue(v)) throw new InputError(field, "must be a whole number");
            if (!Number.isSafeInteger(numberOf(v)) && numberOf(v) > 0) {
              throw new InputError(field, UNSAFE_INTEGER_RULE);
            }
            record.efficiency[key] = checkFloat(v, field, nonNegative);
          }
        });
        checkKnown(input.efficiency, EFFICIENCY_FIELDS, "efficiency.");
      }
      checkKnown(input, RECORD_FIELDS, "");
      return record;
    }

    function weightedFraction(entries) {
      var total = Rational.ZERO;
      var held = Rational.ZERO;
      entries.forEach(function (e) {
        total = total.add(e.weight);
        if (e.status === "passed") held = held.add(e.weight);
      });
      return held.div(total);
    }

    function reading(entries, judgedValues, sources) {
      var errored = entries.filter(function (e) {
        return e.status === "error";
      });
      if (errored.length) return { value: null, source: sources[0], withheldBy: errored[0].name };
      if (entries.length) return { value: weightedFraction(entries), source: sources[0] };
      for (var i = 0; i < judgedValues.length; i++) {
        if (judgedValues[i] !== null) {
          return { value: Rational.of(judgedValues[i]), source: sources[i + 1] };
        }
      }
      return { value: null, source: null };
    }

    function combine(c, recV) {
      var product = c.mul(recV);
      var root = decimalSqrt(product.num, SQRT_PRECISION);
      var base = decimalSqrt(product.den, SQRT_PRECISION);
      var a = decimalToRational(root);
      var b = decimalToRational(base);
      if (a.isZero()) return 0;
      var q = a.div(b);
      return decimalToRational(decimalRound(q.num, q.den, DIVISION_PRECISION)).toDouble();
    }

    function fmt(value) {
      return decimalText(value.halfUpUnits(REASON_PLACES), REASON_PLACES);
    }

    /** What `python -m scoring outcome --format json` prints for one record (an object). */
    function outcomeScore(input) {
      var record = checkRecord(typeof input === "string" ? readJson(input) : input);
      var verification = record.verification;
      var judged = record.judged || { checklist: null, outcome_validity: null, recoverable: null };
      var catastrophic = verification.filter(function (e) {
        return e.severity === "catastrophic" && e.status !== "passed";
      });
      var catV = catastrophic.length ? 0 : 1;
      var objectives = verification.filter(function (e) {
        return e.role === "objective";
      });
      var safeguards = verification.filter(function (e) {
        return e.severity === "recoverable";
      });
      var c = reading(
        objectives,
        [judged.checklist, judged.outcome_validity],
        CORRECTNESS_SOURCES
      );
      var r = reading(safeguards, [judged.recoverable], RECOVERABLE_SOURCES);
      var recV = r.value === null ? null : FLOOR.add(Rational.ONE.sub(FLOOR).mul(r.value));
      var score;
      var reason;
      if (catV === 0) {
        score = 0;
        reason =
          "cat_v=0: catastrophic safeguard " + pyRepr(catastrophic[0].name) + " did not pass";
      } else if (c.withheldBy) {
        score = null;
        reason = "withheld: objective " + pyRepr(c.withheldBy) + " is in error";
      } else if (c.value === null) {
        score = null;
        reason = "withheld: no correctness reading";
      } else if (r.withheldBy) {
        score = null;
        reason = "withheld: recoverable safeguard " + pyRepr(r.withheldBy) + " is in error";
      } else if (recV === null) {
        score = c.value.toDouble();
        reason = "c=" + fmt(c.value) + ", rec_v=" + ABSENT_READING + ", cat_v=1";
      } else {
        score = combine(c.value, recV);
        reason = "c=" + fmt(c.value) + ", rec_v=" + fmt(recV) + ", cat_v=1";
      }
      var efficiency = null;
      if (record.efficiency !== null) {
        efficiency = {};
        Object.keys(record.efficiency).forEach(function (key) {
          efficiency[key] = record.efficiency[key];
        });
      }
      return {
        run_id: record.run_id,
        outcome_score: score,
        correctness: raw(c.value),
        correctness_source: c.value !== null ? c.source : null,
        recoverable_safety_raw: raw(r.value),
        recoverable_safety: raw(recV),
        catastrophic_gate: catV,
        scoring_version: OUTCOME_VERSION,
        reason: reason,
        efficiency: efficiency,
      };
    }

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
        "must lie in (0, p_a], so that p_b = p_a − delta is a rate",
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
