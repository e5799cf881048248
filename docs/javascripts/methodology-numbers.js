/*
 * The arithmetic of window.Methodology (methodology.js): exact BigInt rationals, Python's
 * decimal rounding and square root as far as the outcome score needs them, Python's repr of a
 * string, and the error a bad input raises. No number of the methodology is in this file;
 * the formula families (methodology-outcome.js, methodology-uncertainty.js and the composite,
 * radar and repeatability in methodology.js) build on it. Loaded first.
 */
(function () {
  "use strict";

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

  window.MethodologyParts = Object.assign(window.MethodologyParts || {}, {
    numbers: Object.freeze({
      Rational: Rational,
      pow10: pow10,
      floorDiv: floorDiv,
      integerSqrt: integerSqrt,
      decimalRound: decimalRound,
      decimalSqrt: decimalSqrt,
      decimalToRational: decimalToRational,
      decimalText: decimalText,
      pyRepr: pyRepr,
      InputError: InputError,
      JsonNumber: JsonNumber,
      readJson: readJson,
      isObject: isObject,
      numberOf: numberOf,
      isIntegerValue: isIntegerValue,
      UNSAFE_INTEGER_RULE: UNSAFE_INTEGER_RULE,
    }),
  });
})();
