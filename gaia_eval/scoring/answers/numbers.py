"""Numbers in answers: parse a bare quantity ("$1,500", "1.5 million", "twenty-one", "7 km", "1.5 x 10^6"),
find the numbers mentioned in running text, and compare two quantities by value and unit.

A value is compared as a float within a tolerance, never as a substring: "19270" is not 1927, "-5" is not
5, "3.5" is not 35. Units only matter when both sides state one ("7 km" vs "7 miles"; "10 Gb" vs "10 GB":
case is kept for the symbols it changes, see _CASE_SENSITIVE_UNITS); a bare number matches a number with a unit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from gaia_eval.number_words import NUMBER_WORDS, ORDINALS, parse_number_words


class Quantity(NamedTuple):
    value: float
    unit: frozenset[str]  # canonical unit words; empty when none was stated
    text: str


class NumberMention(NamedTuple):
    """A number found in running text, with where it is."""

    quantity: Quantity
    start: int
    end: int


# --- units ---------------------------------------------------------------------------------------

_UNIT_GROUPS: dict[str, tuple[str, ...]] = {
    "%": ("%", "percent", "per cent", "pct", "percentage"),
    "usd": ("$", "us$", "usd", "dollar", "dollars", "us dollar", "us dollars"),
    "eur": ("\u20ac", "eur", "euro", "euros"),
    "gbp": ("\u00a3", "gbp", "sterling", "pound sterling"),
    "jpy": ("\u00a5", "jpy", "yen"),
    "cny": ("cny", "rmb", "yuan", "renminbi"),
    "inr": ("\u20b9", "inr", "rupee", "rupees", "rs"),
    "krw": ("\u20a9", "krw"),
    "rub": ("\u20bd", "rub", "ruble", "rubles", "rouble", "roubles"),
    "cad": ("c$", "ca$", "cad", "canadian dollars"),
    "aud": ("a$", "au$", "aud", "australian dollars"),
    "chf": ("chf", "swiss francs"),
    "cent": ("\u00a2", "cent", "cents"),
    "km": ("km", "kilometer", "kilometers", "kilometre", "kilometres"),
    "m": ("m", "meter", "meters", "metre", "metres"),
    "cm": ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
    "mm": ("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
    "mi": ("mi", "mile", "miles"),
    "ft": ("ft", "foot", "feet"),
    "inch": ("inch", "inches"),
    "yd": ("yd", "yard", "yards"),
    "kg": ("kg", "kilogram", "kilograms", "kilo", "kilos"),
    "g": ("g", "gram", "grams"),
    "mg": ("mg", "milligram", "milligrams"),
    "pound": ("lb", "lbs", "pound", "pounds"),
    "oz": ("oz", "ounce", "ounces"),
    "tonne": ("tonne", "tonnes", "ton", "tons", "metric tons"),
    "s": ("s", "sec", "secs", "second", "seconds"),
    "min": ("min", "mins", "minute", "minutes"),
    "h": ("h", "hr", "hrs", "hour", "hours"),
    "day": ("day", "days"),
    "week": ("week", "weeks", "wk", "wks"),
    "month": ("month", "months"),
    "year": ("year", "years", "yr", "yrs", "years old", "year old"),
    "\u00b0c": ("\u00b0c", "\u00b0 c", "degrees c", "degrees celsius", "celsius", "deg c"),
    "\u00b0f": ("\u00b0f", "\u00b0 f", "degrees f", "degrees fahrenheit", "fahrenheit", "deg f"),
    "\u00b0": ("\u00b0", "degree", "degrees", "deg"),
    "km/h": ("km/h", "kph", "kmh", "kilometers per hour", "kilometres per hour"),
    "mph": ("mph", "miles per hour"),
    "m/s": ("m/s", "meters per second", "metres per second"),
    "l": ("l", "liter", "liters", "litre", "litres"),
    "ml": ("ml", "milliliter", "milliliters", "millilitre", "millilitres"),
    "gal": ("gal", "gallon", "gallons"),
    "km2": ("km2", "sq km", "square kilometers", "square kilometres"),
    "m2": ("m2", "sq m", "square meters", "square metres"),
    "mi2": ("mi2", "sq mi", "square miles"),
    "acre": ("acre", "acres"),
    "hectare": ("ha", "hectare", "hectares"),
    "kb": ("kb", "kilobyte", "kilobytes"),
    "mb": ("mb", "megabyte", "megabytes"),
    "gb": ("gb", "gigabyte", "gigabytes"),
    "tb": ("tb", "terabyte", "terabytes"),
    "byte": ("byte", "bytes"),
    "bit": ("bit", "bits"),
    "kbit": ("kbit", "kilobit", "kilobits"),
    "mbit": ("mbit", "megabit", "megabits"),
    "gbit": ("gbit", "gigabit", "gigabits"),
    "tbit": ("tbit", "terabit", "terabits"),
    "ms": ("ms", "msec", "millisecond", "milliseconds"),
    "W": ("w", "watt", "watts"),
    "kW": ("kw", "kilowatt", "kilowatts"),
    "MW": ("megawatt", "megawatts"),
    "mW": ("milliwatt", "milliwatts"),
    "GW": ("gw", "gigawatt", "gigawatts"),
    "V": ("v", "volt", "volts"),
    "kV": ("kv", "kilovolt", "kilovolts"),
    "MV": ("megavolt", "megavolts"),
    "mV": ("millivolt", "millivolts"),
    "Hz": ("hz", "hertz"),
    "kHz": ("khz", "kilohertz"),
    "MHz": ("mhz", "megahertz"),
    "mHz": ("millihertz",),
    "GHz": ("ghz", "gigahertz"),
    "J": ("j", "joule", "joules"),
    "kJ": ("kj", "kilojoule", "kilojoules"),
    "MJ": ("megajoule", "megajoules"),
    "mJ": ("millijoule", "millijoules"),
    "S": ("siemens",),
    "mS": ("millisiemens",),
}
_UNIT_ALIASES: dict[str, str] = {alias: canon for canon, aliases in _UNIT_GROUPS.items() for alias in aliases}
# Currency and percent are notation around a number that the question implies ("how much, in dollars"); every
# other known unit is a measurement, and a measurement the expected answer does not carry is another answer.
_NOTATION_UNITS = frozenset({"%", "usd", "eur", "gbp", "jpy", "cny", "inr", "krw", "rub", "cad", "aud", "chf", "cent"})
MEASUREMENT_UNITS: frozenset[str] = frozenset(_UNIT_GROUPS) - _NOTATION_UNITS


def unit_aliases(canon: str) -> tuple[str, ...]:
    """Every spelling of a canonical unit ("mi" -> "mi", "mile", "miles")."""
    return _UNIT_GROUPS.get(canon, (canon,))

# Unit symbols whose case names a different unit, read with their case before any folding: b is a bit and B a
# byte ("10 Gb" is a tenth of "10 GB"), m is milli and M mega ("5 mW" vs "5 MW"), s a second and S a siemens.
# Every other symbol folds case, because its other spellings name no other unit and only show the writer's
# style: "7 KM" is 7 km, "500 MG" is 500 mg. A lower-case spelling of an ambiguous symbol takes its common
# reading ("gb" is a gigabyte, "mhz" a megahertz, "mbps" megabits per second) or, with none ("mw"), stays
# its own unit, equal only to itself.
_SECOND = frozenset({"s"})
_CASE_SENSITIVE_UNITS: dict[str, frozenset[str]] = {
    "kB": frozenset({"kb"}), "KB": frozenset({"kb"}), "MB": frozenset({"mb"}), "GB": frozenset({"gb"}),
    "TB": frozenset({"tb"}),
    "Kb": frozenset({"kbit"}), "Mb": frozenset({"mbit"}), "Gb": frozenset({"gbit"}), "Tb": frozenset({"tbit"}),
    "kbps": frozenset({"kbit"}) | _SECOND, "Kbps": frozenset({"kbit"}) | _SECOND,
    "mbps": frozenset({"mbit"}) | _SECOND, "Mbps": frozenset({"mbit"}) | _SECOND,
    "gbps": frozenset({"gbit"}) | _SECOND, "Gbps": frozenset({"gbit"}) | _SECOND,
    "kBps": frozenset({"kb"}) | _SECOND, "KBps": frozenset({"kb"}) | _SECOND,
    "MBps": frozenset({"mb"}) | _SECOND, "GBps": frozenset({"gb"}) | _SECOND,
    "mW": frozenset({"mW"}), "MW": frozenset({"MW"}), "mV": frozenset({"mV"}), "MV": frozenset({"MV"}),
    "mHz": frozenset({"mHz"}), "MHz": frozenset({"MHz"}), "mJ": frozenset({"mJ"}), "MJ": frozenset({"MJ"}),
    "s": _SECOND, "S": frozenset({"S"}), "ms": frozenset({"ms"}), "mS": frozenset({"mS"}),
}

# Words that end a unit phrase: "12 is the answer" has no unit "is the answer".
_NOT_UNIT_WORDS = frozenset({
    "is", "are", "was", "were", "be", "been", "the", "a", "an", "of", "and", "or", "in", "on", "at", "to",
    "for", "with", "by", "because", "which", "that", "it", "its", "not", "no", "but", "if", "than", "as",
    "from", "this", "these", "those", "there", "i", "we", "you", "he", "she", "they", "answer", "total",
    "maybe", "perhaps", "approximately", "about", "around", "either", "neither", "nor",
})
_UNIT_CHARS = re.compile(r"[^\W\d_]+|[%\u00b0$\u20ac\u00a3\u00a5\u20b9\u20a9\u20bd\u00a2/.'\" \-]")
_UNIT_WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)
def canonical_unit(phrase: str) -> frozenset[str] | None:
    """Canonical unit words of a phrase after a number, or None when the phrase is not a unit.

    Case is read first for the symbols it changes (_CASE_SENSITIVE_UNITS: "Gb" is not "GB"), then folded."""
    cased = " ".join(phrase.replace(".", " ").split()).strip(" -")
    if cased in _CASE_SENSITIVE_UNITS:
        return _CASE_SENSITIVE_UNITS[cased]
    phrase = cased.casefold()
    if not phrase:
        return frozenset()
    if len(phrase) > 30 or "".join(_UNIT_CHARS.findall(phrase)) != phrase:
        return None
    if phrase in _UNIT_ALIASES:
        return frozenset({_UNIT_ALIASES[phrase]})
    words = _UNIT_WORD.findall(phrase)
    if len(words) > 3 or any(w in _NOT_UNIT_WORDS or w in NUMBER_WORDS for w in words):
        return None
    canon: set[str] = set()
    for cased_piece, piece in zip(cased.replace("/", " / ").split(), phrase.replace("/", " / ").split(), strict=False):
        if cased_piece in _CASE_SENSITIVE_UNITS:
            canon |= _CASE_SENSITIVE_UNITS[cased_piece]
        elif piece in _UNIT_ALIASES:
            canon.add(_UNIT_ALIASES[piece])
        elif piece not in ("/", "per"):
            canon.add(piece[:-1] if len(piece) > 3 and piece.endswith("s") and not piece.endswith("ss") else piece)
    return frozenset(canon)


def units_compatible(a: frozenset[str], b: frozenset[str]) -> bool:
    """Units agree when either side states none, or one side's words include the other's."""
    return not a or not b or a <= b or b <= a


DEFAULT_REL_TOL = 1e-9


def quantities_equal(a: Quantity, b: Quantity, rel_tol: float | None = None, abs_tol: float = 0.0) -> bool:
    """Same value (within the tolerance) and compatible units.

    With no tolerance given, the default relative tolerance only absorbs float rounding ("1.1M" is
    1100000.0000000002): two different whole numbers are never equal, however large (1234567891 is not
    1234567890). A tolerance the caller gives applies to every value.
    """
    if not units_compatible(a.unit, b.unit):
        return False
    if rel_tol is None:
        if abs_tol == 0.0 and a.value.is_integer() and b.value.is_integer():
            return a.value == b.value
        rel_tol = DEFAULT_REL_TOL
    return math.isclose(a.value, b.value, rel_tol=rel_tol, abs_tol=abs_tol)


# --- number words --------------------------------------------------------------------------------

# The words and their one reading live in gaia_eval/number_words.py (shared with the rubric and the baselines).


# --- bare quantities -----------------------------------------------------------------------------

_HAS_DIGIT = re.compile(r"\d")
_NUMBER_CORE = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:'\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
_BARE_QUANTITY = re.compile(
    r"^(?:(?i:approximately|approx\.?|about|around|roughly|exactly|precisely|only|just|circa)\s+|[~\u2248]\s*)?"
    r"(?P<neg>(?i:minus|negative)\s+)?(?P<sign1>[-+\u2014])?"
    r"(?P<cur>(?i:us|au|a|c|ca|nz|hk|s|r)\$|[$\u20ac\u00a3\u00a5\u20b9\u20a9\u20bd]|"
    r"(?i:usd|eur|gbp|jpy|cny|rmb|inr|cad|aud|chf|krw|rub)(?=[\s\d]))?\s*"
    r"(?P<sign2>[-+])?"
    rf"(?P<num>{_NUMBER_CORE})"
    r"(?:(?P<den>/\d+)"
    r"|\s*[eE](?P<exp>[-+]?\d+)"
    r"|\s*[x\u00d7*\u00b7]\s*10\s*(?:\^|\*\*)\s*\{?(?P<exp2>[-+]?\d+)\}?"
    r"|\s*(?:\^|\*\*)\s*\{?(?P<pow>\d{1,3})\}?)?"
    r"(?P<ord>(?i:st|nd|rd|th)(?![^\W\d_]))?"
    r"(?:\s*-?\s*(?P<mag>[kK](?![^\W\d_])|MM?(?![^\W\d_])|(?:mn|mln|bn|bln)(?![^\W\d_])|B(?![^\W\d_])|"
    r"(?i:thousand|million|billion|trillion|hundred|dozen)(?![^\W\d_])))?"
    r"(?P<unit>\s*[^\d\s].*?)?\s*$")
_MAGNITUDES = {"k": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "mln": 1e6, "b": 1e9, "bn": 1e9, "bln": 1e9,
               "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "hundred": 100.0,
               "dozen": 12.0}
_WORDS_SPLIT = re.compile(r"[\s\-]+")
_LEADING_WORD_SIGN = re.compile(r"^(?:minus|negative)\s+", re.IGNORECASE)


_NO_UNIT: frozenset[str] = frozenset()


def _regex_quantity(text: str) -> Quantity | None:
    match = _BARE_QUANTITY.match(text)
    if match is None:
        return None
    neg, sign1, cur, sign2, num, den, exp, exp2, power, ordinal, mag, unit_text = match.groups()
    number = num.replace(",", "").replace("'", "")
    try:
        value = float(number)
        if den:
            if "." in number or int(den[1:]) == 0:
                return None
            value /= int(den[1:])
        elif exp or exp2:
            value *= 10.0 ** int(exp or exp2)
        elif power:
            value = value ** int(power)
    except OverflowError:
        return None
    if ordinal and "." in number:
        return None
    if cur and not mag and unit_text is not None and unit_text.strip() == "m":
        mag, unit_text = "m", None  # "£50m" is fifty million pounds, as a money amount is written; not metres
    if mag:
        value *= _MAGNITUDES[mag.casefold()]
    unit = _NO_UNIT
    if cur:
        unit = canonical_unit(cur) or frozenset({cur.casefold()})
    if unit_text:
        stated = canonical_unit(unit_text)
        if stated is None:
            return None
        unit = unit | stated
    if sign1 == "\u2014":  # an em dash typed as a minus sign ("\u20145")
        sign1 = "-"
    if neg or sign1 == "-" or sign2 == "-":
        value = -value if (bool(neg) + (sign1 == "-") + (sign2 == "-")) % 2 else value
    return Quantity(value, unit, text)


def _words_quantity(text: str) -> Quantity | None:
    rest = text.strip()
    negative = False
    sign = _LEADING_WORD_SIGN.match(rest)
    if sign:
        negative, rest = True, rest[sign.end():]
    cased_words = [w for w in _WORDS_SPLIT.split(rest.strip()) if w]
    parsed = parse_number_words([w.casefold() for w in cased_words])
    if parsed is None:
        return None
    value, used = parsed
    unit = canonical_unit(" ".join(cased_words[used:]))  # with its case: "ten Gb" is not "ten GB"
    if unit is None:
        return None
    return Quantity(-float(value) if negative else float(value), unit, text)


_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# "007", "02134": a leading zero makes digits a code, compared as text, not a quantity.
_IDENTIFIER = re.compile(r"0\d")


def parse_quantity(text: str) -> Quantity | None:
    """The quantity a whole (folded) span states, or None when the span is more than one bare quantity."""
    text = text.strip()
    if not text or len(text) > 80:
        return None
    if _IDENTIFIER.match(text):
        return None
    if _PLAIN_NUMBER.fullmatch(text):  # the common case, "1927" or "3.5", without the full grammar
        return Quantity(float(text), _NO_UNIT, text)
    if _HAS_DIGIT.search(text):
        return _regex_quantity(text)
    return _words_quantity(text)


# --- numbers in running text ---------------------------------------------------------------------

_NUMBER_IN_TEXT = re.compile(
    r"(?<![\w.'/])(?<![^\W\d_]-)"
    r"(?P<cur>[$\u20ac\u00a3\u00a5\u20b9]\s?)?(?P<sign>-)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d])"
    r"(?:/(?P<den>\d+)(?![\d/]))?"
    r"(?:[eE](?P<exp>[-+]?\d+)\b)?"
    r"(?:(?:st|nd|rd|th)\b)?"
    r"(?:\s?(?P<mag>[kK]\b|M\b|bn\b|B\b|(?i:thousand|million|billion|trillion)\b))?")
# Units recognised right after a number in running text: only unambiguous words ("12 in total" has no unit).
_TEXT_UNITS = frozenset(alias for alias in _UNIT_ALIASES if len(alias) > 1 and alias not in (
    "in", "is", "rs", "ha", "mi", "ft", "oz", "yd", "hr", "wk", "gal", "min", "sec", "deg", "won"))
_NUM_GROUP = _NUMBER_IN_TEXT.groupindex["num"]
_NEXT_WORD = re.compile(r"\s?(%|\u00b0\s?[cf]?|[a-z][a-z/]*)", re.IGNORECASE)
_CARDINAL_WORDS = frozenset(w for w in NUMBER_WORDS if w not in ORDINALS)
_LOWER_WORD = re.compile(r"[a-z]+")
_WORD_NUMBER = "|".join(sorted((w for w in NUMBER_WORDS if w not in ORDINALS), key=len, reverse=True))
_WORD_NUMBER_IN_TEXT = re.compile(
    rf"\b(?:{_WORD_NUMBER})(?:[\s-]+(?:and\s+a\s+half|(?:and\s+)?(?:{_WORD_NUMBER})))*\b", re.IGNORECASE)
_TIME_OF_DAY = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?(?:[ap]\.?m\.?))?|\b\d{1,2}\s?[ap]\.?m\.?(?!\w)",
                          re.IGNORECASE)


def _unit_may_follow(text: str, end: int) -> bool:
    """Whether a unit word or sign can follow a number ending at `end`: most numbers in a long answer are followed by
    a space and another number, or by punctuation, and no unit can follow those."""
    ahead = text[end:end + 2]
    return bool(ahead) and (ahead[0] in "%\u00b0" or ahead[0].isalpha() or (
        ahead[0].isspace() and ahead[1:2] != "" and (ahead[1] in "%\u00b0" or ahead[1].isalpha())))


def _mention_from_match(text: str, match: re.Match[str]) -> NumberMention | None:
    num, den, exp, mag, cur, sign = match.group("num", "den", "exp", "mag", "cur", "sign")
    number = num.replace(",", "")
    value = float(number)
    if den:
        if "." in number or int(den) == 0:
            return None
        value /= int(den)
    if exp:
        try:
            value *= 10.0 ** int(exp)
        except OverflowError:
            return None
    if mag:
        value *= _MAGNITUDES[mag.casefold()]
    unit: set[str] = set()
    if cur:
        unit |= canonical_unit(cur.strip()) or set()
    end = match.end()
    next_word = _NEXT_WORD.match(text, end) if _unit_may_follow(text, end) else None
    if next_word:
        cased = next_word.group(1)
        word = cased.casefold()
        if word in _TEXT_UNITS or word[0] in "%\u00b0" or cased in _CASE_SENSITIVE_UNITS:
            unit |= canonical_unit(cased) or set()  # with its case: "10 Gb" is not "10 GB"
            end = next_word.end()
    if sign:
        value = -value
    return NumberMention(Quantity(value, frozenset(unit), text[match.start():end]), match.start(), end)


def find_numbers(text: str, masked: Sequence[tuple[int, int]] = ()) -> list[NumberMention]:
    """Numbers mentioned in running text, in order; spans in `masked` (dates) and times of day are skipped."""
    blanks = list(masked)
    lowered = text.lower()
    if ":" in text or "am" in lowered or "pm" in lowered or "a.m" in lowered or "p.m" in lowered:
        blanks += [(m.start(), m.end()) for m in _TIME_OF_DAY.finditer(text)]
    if blanks:
        chars = list(text)
        for start, end in blanks:
            chars[start:end] = " " * (end - start)
        text = "".join(chars)
    found: list[NumberMention] = []
    if _HAS_DIGIT.search(text):
        for match in _NUMBER_IN_TEXT.finditer(text):
            start, end = match.span()
            # Fast path for the bulk of a long answer: a bare number (no currency, sign, fraction, exponent,
            # magnitude or ordinal suffix) that no unit can follow.
            bare = match.lastindex == _NUM_GROUP and match.span(_NUM_GROUP) == (start, end)
            if bare and not _unit_may_follow(text, end):
                literal = text[start:end]
                found.append(NumberMention(Quantity(float(literal.replace(",", "")), _NO_UNIT, literal), start, end))
                continue
            mention = _mention_from_match(text, match)
            if mention is not None:
                found.append(mention)
    if _CARDINAL_WORDS.isdisjoint(_LOWER_WORD.findall(lowered)):
        return found  # in text order, as finditer met them
    for match in _WORD_NUMBER_IN_TEXT.finditer(text):
        words = [w for w in _WORDS_SPLIT.split(match.group(0).casefold()) if w]
        parsed = parse_number_words(words)
        if parsed is not None:
            found.append(NumberMention(Quantity(float(parsed[0]), frozenset(), match.group(0)),
                                       match.start(), match.end()))
    found.sort(key=lambda m: m.start)
    return found


def format_number(value: float) -> str:
    """A number as a person writes it: 1927, not 1927.0; 1500000, not 1.5e+06."""
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return f"{value:.12g}"
