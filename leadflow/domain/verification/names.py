"""Whether the name in a client's profile is the name on an identity document's MRZ.

The MRZ writes names in A-Z only (ICAO 9303 Part 3): umlauts and ligatures transliterated
(Ä -> AE, ß -> SS, Ø -> OE, ...), other accents dropped, apostrophes removed, hyphens and
spaces as fillers, the primary identifier (surname) before "<<", and a name too long for the
line cut short. A profile is typed freely: any case and order, with accents, with or without
a middle name or a title.
"""
import re
import unicodedata

# ICAO 9303 Part 3, 6.A: the transliterations that are not simply "drop the accent".
TRANSLITERATIONS = {"Ä": "AE", "Ö": "OE", "Ü": "UE", "ß": "SS", "ẞ": "SS", "Å": "AA", "Æ": "AE",
                    "Ø": "OE", "Œ": "OE", "Þ": "TH", "Ð": "D", "Ĳ": "IJ", "Ł": "L", "Đ": "D", "Ħ": "H", "ı": "I"}
TITLES = frozenset({"DR", "PROF", "MR", "MRS", "MS", "MISS", "HERR", "FRAU", "DIPL", "ING"})
# Same width as the name field in each format: TD1's third line, and line 1 after "P<UTO".
NAME_FIELD_WIDTH = {"TD1": 30, "TD2": 31, "TD3": 39}


def tokens(name: str | None) -> list[str]:
    """A name's words as the MRZ would write them: "Jörg-Peter O'Neill" -> ["JOERG", "PETER", "ONEILL"]."""
    if not name:
        return []
    upper = "".join(TRANSLITERATIONS.get(char, TRANSLITERATIONS.get(char.upper(), char)) for char in name.upper())
    plain = "".join(c for c in unicodedata.normalize("NFKD", upper) if not unicodedata.combining(c))
    plain = re.sub(r"['’`´]", "", plain)  # O'Neill is ONEILL in an MRZ
    return [word for word in re.split(r"[^A-Z0-9]+", plain) if word]


def names_match(profile_name: str | None, surname: str | None, given_names: str | None,
                mrz_format: str | None = None) -> bool:
    """True when the profile names the document's holder.

    Every word of the profile must be one of the document's names (in any order), and at
    least one of them must be the surname. A middle name the profile leaves out is fine; a
    name the document does not carry is not. When the MRZ name field is full, its last word
    may have been cut short, and then it only has to begin the profile's word.
    """
    profile = [word for word in tokens(profile_name) if word not in TITLES]
    family, given = tokens(surname), tokens(given_names)
    document = family + given
    if not profile or not document:
        return False
    truncated = _is_truncated(family, given, mrz_format)
    last = len(document) - 1

    def same(word: str, index: int) -> bool:
        name = document[index]
        if _fold(word) == _fold(name):
            return True
        return truncated and index == last and len(name) >= 2 and (
            word.startswith(name) or _fold(word).startswith(_fold(name)))

    if not all(any(same(word, index) for index in range(len(document))) for word in profile):
        return False
    return not family or any(same(word, index) for word in profile for index in range(len(family)))


# Words that join or address the people a joint account or assessment names, not names themselves.
JOINT = frozenset({"UND", "AND", "U", "OR", "ODER", "HERRN", "HERR", "FRAU", "MR", "MRS", "MS", "EHELEUTE", "EHEPAAR"})
# What separates the people a joint account or assessment names: "Max Muster und Erika Muster".
JOINED = re.compile(r"\s+(?:und|and|u\.|&|\+)\s+|\s*[&/+]\s*", re.IGNORECASE)


def same_person(a: str | None, b: str | None) -> bool:
    """Whether two written names can be one person: order, accents, case, titles, a middle name
    one of them leaves out, an initial for a given name, a joint account naming two people."""
    left, right = name_words(a), name_words(b)
    if not left or not right:
        return False
    short, long = (left, right) if len(left) <= len(right) else (right, left)
    pool = list(long)
    for word in short:
        match = next((w for w in pool if w == word or (len(word) == 1 and w.startswith(word))
                      or (len(w) == 1 and word.startswith(w))), None)
        if match is None:
            return False
        pool.remove(match)
    # An initial alone cannot make a match: some full word must agree.
    return any(len(w) > 1 for w in short)


def people_named(name: str | None) -> list[str]:
    """The people a written name names: one, or each of a joint account's or assessment's holders
    ("Eheleute Max Muster und Erika Muster" -> ["Max Muster", "Erika Muster"])."""
    parts = [part.strip(" ,;:") for part in JOINED.split(name or "")]
    return [part for part in parts if name_words(part)]


def name_words(name: str | None) -> list[str]:
    return [_fold(w) for w in tokens(name) if w not in TITLES and w not in JOINT]


def _fold(word: str) -> str:
    """Forget how an umlaut was written: MUELLER, MULLER and Müller all fold to MULLER."""
    return word.replace("AE", "A").replace("OE", "O").replace("UE", "U")


def _is_truncated(family: list[str], given: list[str], mrz_format: str | None) -> bool:
    width = NAME_FIELD_WIDTH.get(mrz_format or "")
    if width is None:
        return False
    written = "<".join(family) + ("<<" + "<".join(given) if given else "")
    return len(written) >= width
