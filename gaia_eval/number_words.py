"""Numbers written in words, read ONE way for every caller: answer matching (scoring/answers/numbers.py), the
free-text rubric (scoring/rubric/freetext.py) and the offline baselines (baselines/spans.py).

"twelve" is 12, "a dozen" 12, "two hundred and fifty" 250, "two and a half million" 2,500,000. Two numbers said
one after the other, the second from ten to ninety-nine ("twelve fifty", "nineteen eighty"), are how prices and
years are spoken: such a pair is 12.50 or 1250, never 12, so `parse_number_words` reads no single value from it
and `spelled_numbers` gives both readings.
"""

from __future__ import annotations

import re

SMALL: dict[str, int] = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
TENS: dict[str, int] = {
    w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}
SCALES: dict[str, int] = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
ORDINALS: dict[str, int] = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth".split(), 1)}
ORDINALS.update({w: 10 * i for i, w in enumerate(
    "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split(), 2)})
ORDINALS.update({"hundredth": 100, "thousandth": 1000, "millionth": 10**6})
NUMBER_WORDS = frozenset(SMALL) | frozenset(TENS) | frozenset(SCALES) | {"hundred", "dozen"} | frozenset(ORDINALS)
# One word, one value: the counts the baselines normalize ("twelve" -> 12, "a dozen" -> 12).
WORD_VALUES: dict[str, int] = {**SMALL, **TENS, "hundred": 100, "dozen": 12}


def _starts_a_pair(word: str, current: float) -> bool:
    """Whether `word` after the number `current` (one or two words below 100) makes a spoken pair."""
    return 0 < current < 100 and (word in TENS or 10 <= SMALL.get(word, -1) <= 19)


def parse_number_words(words: list[str]) -> tuple[float, int] | None:
    """Value of the longest leading run of number words, and how many words it used; None when the run is not
    one number: none at all, or a spoken pair ("twelve fifty": 12.50 or 1250, never 12; "nineteen eighty"),
    which only the context can read."""
    total: float = 0
    current: float = 0
    previous = "start"  # kind of the last word used: start, small, tens, hundred, big, half, ordinal
    used = skip = 0
    for i, word in enumerate(words):
        if skip:
            skip -= 1
            continue
        if word == "and" and previous in ("hundred", "big") and i + 1 < len(words) and words[i + 1] in NUMBER_WORDS:
            used += 1
            continue
        if word == "and" and previous in ("small", "tens") and words[i + 1:i + 3] == ["a", "half"]:
            current += 0.5  # "two and a half million"
            previous, used = "half", i + 3
            skip = 2
            continue
        if previous in ("small", "tens") and total == 0 and current < 100 and _starts_a_pair(word, current):
            return None  # "twelve fifty", "nineteen eighty", "twenty twenty": a spoken pair
        if word in ("a", "an") and previous == "start" and i + 1 < len(words) and words[i + 1] in (
                "hundred", "dozen", *SCALES):
            current = 1
            previous = "small"
        elif word in SMALL and (previous in ("start", "hundred", "big") or
                                 (previous == "tens" and 0 < SMALL[word] < 10)):
            current += SMALL[word]
            previous = "small"
        elif word in TENS and previous in ("start", "hundred", "big"):
            current += TENS[word]
            previous = "tens"
        elif word == "hundred" and previous in ("start", "small", "tens") and current % 100 == current:
            current = (current or 1) * 100
            previous = "hundred"
        elif word == "dozen" and previous in ("start", "small"):
            current = (current or 1) * 12
            previous = "hundred"
        elif word in SCALES and previous in ("small", "tens", "hundred", "half"):
            total += current * SCALES[word]
            current = 0
            previous = "big"
        elif word in ORDINALS and (previous in ("start", "hundred", "big") or
                                    (previous == "tens" and ORDINALS[word] < 10)):
            if ORDINALS[word] >= 100:
                current = (current or 1) * ORDINALS[word]
            else:
                current += ORDINALS[word]
            used = i + 1
            return total + current, used
        else:
            break
        used = i + 1
    if previous == "start":
        return None
    return total + current, used


def _decimal(whole: int, cents: int) -> str:
    return f"{whole}.{cents:02d}".rstrip("0").rstrip(".")


def spelled_numbers(text: str) -> frozenset[str]:
    """Numbers written in words ("thirty five", "two hundred", "twelve point five"), as the digit tokens the
    tokenizer gives written numbers ("35", "200", "12.5"): transcripts spell out what summaries write in digits.
    Two numbers said one after the other, the second from ten to ninety-nine ("twelve fifty", "nineteen eighty"),
    are how prices and years are spoken: they give both numbers and both readings ("12.5", "1250")."""
    found: set[str] = set()
    total = current = 0
    decimals = ""
    in_number = after_point = False
    simple = False  # the number so far is one word below 100 or a compound of them ("twelve", "fifty five")
    left: int | None = None  # the first number of a spoken pair

    def flush() -> None:
        nonlocal total, current, decimals, in_number, after_point, simple, left
        if in_number:
            value = total + current
            found.add(str(value) + (f".{decimals}" if decimals else ""))
            if left is not None and not decimals and 10 <= value <= 99:
                found.update({str(left * 100 + value), _decimal(left, value)})
        total = current = 0
        decimals, in_number, after_point, simple, left = "", False, False, False, None

    def pair_with(value: int) -> None:
        """`value` starts the second number of a spoken pair after the current one."""
        nonlocal current, in_number, simple, left
        first = current
        flush()
        current, in_number, simple, left = value, True, True, first
        found.add(str(first))

    for word in re.findall(r"[a-z]+", text.lower()):
        unit = SMALL.get(word)
        if after_point and unit is not None and unit < 10:
            decimals += str(unit)
        elif word in TENS and not after_point:
            if in_number and simple and total == 0 and 0 < current < 100:
                pair_with(TENS[word])  # "twelve fifty", "twenty twenty"
            else:
                current += TENS[word]
                in_number, simple = True, total == 0 and current < 100
        elif unit is not None and not after_point:
            if in_number and simple and current % 10 == 0 and current >= 20 and unit < 10:
                current += unit  # "fifty five"
            elif in_number and simple and 0 < current < 100 and unit >= 10:
                pair_with(unit)  # "twelve fifteen"
            elif in_number and simple and current < 100:
                flush()  # "one two": two numbers
                current, in_number, simple = unit, True, True
            else:
                current += unit
                in_number, simple = True, simple or not in_number
        elif word == "hundred" and in_number:
            current = (current or 1) * 100
            simple = False
        elif word in SCALES and in_number:
            total += (current or 1) * SCALES[word]
            current = 0
            simple = False
        elif word == "point" and in_number and not after_point:
            after_point = True
            simple = False
        elif word == "and" and in_number:
            continue  # "two hundred and fifty"
        else:
            flush()
    flush()
    return frozenset(found)




def spoken_pair_readings(text: str) -> frozenset[str]:
    """The readings of the spoken pairs in a text ("twelve fifty": "12.5" and "1250"), without the numbers its
    words name one by one ("12", "50"): a pair gives a price or a year, never either half."""
    singles = {str(WORD_VALUES[w]) for w in re.findall(r"[a-z]+", text.lower()) if w in WORD_VALUES}
    return frozenset(reading for reading in spelled_numbers(text) - singles if "." in reading or len(reading) == 4)
