"""Forms of one name or word that a grader reads as the same, for the prose reading (prose.py).

On the word side: a regnal or serial number written as a digit or a Roman numeral ("Queen Mary 2" / "Queen Mary
II"), a plural in -ies ("Pygmies" / "Pygmy"), a gold word that lost a letter ("Nots County", "Gtterdmmerung"). On
the gold side, the shorter readings of a gold answer a careful grader also accepts: the name without its title when a
full name is left ("King Charles I" -> "Charles I"), without "Republic of" ("The Republic of Upper Volta"), without
the place or note written after it ("Gulfstream Park, Florida", "Augusta National Golf Club in Augusta, Georgia",
"Hollywood Park L.A", "Nairobi Errata: ..."), a title without its artist ("Video Killed The Radio Star by Buggles"),
spaced letters joined ("J K L" -> "JKL"), a country's initials spelt out ("USA" -> "United States"), a Roman one
typed as a lower-case L ("King Charles l"), and a shared surname written once ("Malcolm & Donald Campbell" is
Malcolm Campbell and Donald Campbell).

Each form keeps what tells two things apart: a title is only dropped when a first name and a surname (or a name
and its numeral) are left, a place only when a name of two or more capitalised words is left before it.
"""

from __future__ import annotations

import re

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11,
          "xii": 12, "xiii": 13, "xiv": 14, "xv": 15, "xvi": 16, "xvii": 17, "xviii": 18, "xix": 19, "xx": 20}


def same_numeral(answer_word: str, expected_word: str) -> bool:
    """A Roman numeral and its digits ("ii" / "2"). An answer's lone "i" is the pronoun, not one."""
    if expected_word in _ROMAN:
        return answer_word == str(_ROMAN[expected_word])
    return len(answer_word) > 1 and answer_word in _ROMAN and expected_word == str(_ROMAN[answer_word])


_SHORTEST_LATIN_GROUP = 7  # letters: "Bryophyta", "Chordata"; shorter words in -a are names ("Angola")


def same_plural(answer_word: str, expected_word: str) -> bool:
    """A plural in -ies and its singular in -y ("pygmies" / "pygmy"), either way round; and a Latin group name in
    -a said as its English plural ("Bryophyta" / "bryophytes", "Chordata" / "chordates")."""
    def stem(word: str) -> str:
        return word[:-3] + "y" if len(word) > 4 and word.endswith("ies") else word
    if len(expected_word) >= _SHORTEST_LATIN_GROUP and expected_word.endswith("a") and (
            answer_word == expected_word[:-1] + "es"):
        return True
    return len(expected_word) >= 4 and stem(answer_word) == stem(expected_word)


def roman_numeral(word: str) -> bool:
    return word in _ROMAN


def is_title(word: str) -> bool:
    """A title before a name ("Sir", "King", "Mr."), casefolded or not."""
    return word.casefold().rstrip(".") in _TITLES


_VOWELS = frozenset("aeiouy")
_LONGEST_DROPPED = 2  # vowels a gold word may have lost ("Marsellaise", "Gtterdmmerung": its umlauts lost)
_SHORTEST_MISSPELT = 7  # letters: shorter words lose a vowel into another word ("carton" / "cartoon")


def same_but_dropped(answer_word: str, expected_word: str) -> bool:
    """A gold word that lost a letter or two in typing or in its encoding: up to two vowels ("Marsellaise" for
    "Marseillaise", "Gtterdmmerung" for "Gotterdammerung"), or one of a doubled consonant ("Nots" for "Notts";
    not "carton" for "cartoon")."""
    extra = len(answer_word) - len(expected_word)
    if not 0 < extra <= _LONGEST_DROPPED or answer_word[0] != expected_word[:1]:
        return False
    if extra == 1 and len(expected_word) >= 4:
        for k in range(1, len(answer_word)):
            if (answer_word[k] == answer_word[k - 1] and answer_word[k] not in _VOWELS
                    and answer_word[:k] + answer_word[k + 1:] == expected_word):
                return True  # "Notts" written "Nots"
    if len(expected_word) < _SHORTEST_MISSPELT:
        return False
    k = 0
    for letter in answer_word:
        if k < len(expected_word) and letter == expected_word[k]:
            k += 1
        elif letter not in _VOWELS:
            return False
    return k == len(expected_word)


# --- shorter readings of a gold answer ------------------------------------------------------------

_TITLES = frozenset({
    "king", "queen", "prince", "princess", "sir", "dame", "lord", "lady", "saint", "st", "senator", "president",
    "captain", "pope", "emperor", "empress", "general", "admiral", "dr", "doctor", "professor", "prof", "mr",
    "mrs", "ms", "sultan", "tsar", "czar", "duke", "duchess", "count", "countess", "baron", "baroness",
})
_NAME_WORD = re.compile(r"^(?:[A-Z][\w'.-]*|of|the|de|da|von|van|and|&)$")
_CAPITALISED = re.compile(r"^[A-Z]")
_STATE_OF = re.compile(r"^(?:the\s+)?(?:republic|kingdom|commonwealth|principality|federation|sultanate|emirate|"
                       r"grand duchy)\s+of\s+(?:the\s+)?(?=[A-Z])", re.IGNORECASE)
_NOTE = re.compile(r"\s+(?:errata|erratum|note|nb|n\.b\.)\s*:", re.IGNORECASE)
_PLACE_AFTER = re.compile(r"^(?P<head>.+?)\s+(?:in|at|near)\s+(?P<place>[A-Z][^()]*)$")
_DOTTED_ABBREVIATION_AFTER = re.compile(r"^(?P<head>.+?)\s+(?:[A-Z]\.){1,3}[A-Z]?\.?$")
# The short names of a few countries a gold list writes where answers write the name ("USA" -> "the United States").
# Only this way round: an answer's "us" is mostly the pronoun.
_ABBREVIATIONS = {
    "usa": ("United States", "America"), "us": ("United States",), "uk": ("United Kingdom", "Britain"),
    "ussr": ("Soviet Union",), "uae": ("United Arab Emirates",), "gb": ("Great Britain",), "nyc": ("New York City",),
}
_SPACED_LETTERS = re.compile(r"^(?:[A-Za-z]\s+){1,5}[A-Za-z]$")
_LOWER_L_NUMERAL = re.compile(r"\b[A-Z][a-z]+ (l{1,3})$")
_CONNECTORS = frozenset({"of", "the", "de", "da", "von", "van", "and", "&"})
_SHARED_SURNAME = re.compile(
    r"^(?P<first>[A-Z][a-z]+)\s*(?:&|and)\s*(?P<second>[A-Z][a-z]+)\s+(?P<surname>[A-Z][a-z]+)$")


def _is_name(text: str, least: int = 2) -> bool:
    """Capitalised words (joined by "of", "the", ...), at least `least` of them."""
    words = text.split()
    return (len([w for w in words if _CAPITALISED.match(w)]) >= least and all(_NAME_WORD.match(w) for w in words)
            and bool(_CAPITALISED.match(words[0])))


def _is_place(text: str) -> bool:
    """A place written after a name: capitalised parts of one to three words, separated by commas."""
    parts = [part.strip() for part in text.split(",")]
    return all(part and len(part.split()) <= 3 and _is_name(part, 1) for part in parts)


def shorter_readings(expected: str) -> list[str]:
    """The readings of one gold text a careful grader also accepts, beside the text itself."""
    found: list[str] = []
    text = expected.strip()
    note = _NOTE.search(text)
    if note is not None and note.start() > 0:
        text = text[:note.start()].strip()
        found.append(text)
    numeral = _LOWER_L_NUMERAL.search(text)
    if numeral is not None:
        text = text[:numeral.start(1)] + "I" * len(numeral.group(1))
        found.append(text)
    state = _STATE_OF.match(text)
    if state is not None:
        found.append(text[state.end():])
    words = text.split()
    if (len(words) >= 2 and words[0].casefold().rstrip(".") in _TITLES and _CAPITALISED.match(words[1])
            and words[1].casefold() not in _CONNECTORS):  # "Duke of Cambridge" is no name after a title
        rest = words[1:]
        if len(rest) >= 2 and (_is_name(" ".join(rest)) or rest[-1].casefold() in _ROMAN):
            found.append(" ".join(rest))
    head, _, tail = text.partition(",")
    if tail and _is_name(head) and _is_place(tail):
        found.append(head)
    title, by, _ = text.partition(" by ")
    if by and _is_name(title.strip('"')):
        found.append(title.strip('"'))  # "Video Killed The Radio Star by Buggles": the title names the song
    for pattern in (_PLACE_AFTER, _DOTTED_ABBREVIATION_AFTER):
        match = pattern.match(text)
        if match is not None and _is_name(match.group("head")) and (
                "place" not in match.groupdict() or _is_place(match.group("place"))):
            found.append(match.group("head"))
    found.extend(_ABBREVIATIONS.get(text.replace(".", "").casefold(), ()))
    if _SPACED_LETTERS.match(text):
        found.append("".join(text.split()))
    return [reading for reading in found if reading and reading != expected]


def with_surname_shared(expected: str) -> str:
    """ "Malcolm & Donald Campbell" -> "Malcolm Campbell and Donald Campbell": the surname written once is both
    people's; any other text is returned as it is."""
    match = _SHARED_SURNAME.match(expected.strip())
    if match is None:
        return expected
    first, second, surname = match.group("first", "second", "surname")
    return f"{first} {surname} and {second} {surname}"
