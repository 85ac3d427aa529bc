"""ICAO 9303 machine-readable zones (TD1 ID cards, TD2, TD3 passports): finding, parsing, check digits.

Written here, not taken from a package: the `mrz` package is GPL-3.0, which this codebase does
not ship, and PassportEye (MIT) pulls scikit-image and matplotlib for its image pipeline when
all that is needed is the text rules of ICAO 9303 Part 3, which are short.
"""
import re
from dataclasses import dataclass
from datetime import date

FORMATS = {"TD1": (3, 30), "TD2": (2, 36), "TD3": (2, 44)}  # lines, characters per line
WEIGHTS = (7, 3, 1)
CANDIDATE = re.compile(r"^[A-Z0-9<]{25,48}$")
TO_DIGIT = str.maketrans({"O": "0", "Q": "0", "D": "0", "I": "1", "L": "1", "Z": "2", "S": "5", "B": "8", "G": "6"})
TO_LETTER = str.maketrans({"0": "O", "1": "I", "2": "Z", "5": "S", "8": "B", "6": "G"})


@dataclass
class MRZ:
    format: str
    document_code: str
    issuing_country: str
    document_number: str
    surname: str
    given_names: str
    nationality: str
    birth_date: str | None
    sex: str | None
    expiry_date: str | None
    checks: dict[str, bool]

    @property
    def valid(self) -> bool:
        return all(self.checks.values())


def check_digit(field: str) -> str:
    total = 0
    for index, char in enumerate(field):
        if char.isdigit():
            value = int(char)
        elif "A" <= char <= "Z":
            value = ord(char) - 55
        else:  # the filler '<' counts as zero
            value = 0
        total += value * WEIGHTS[index % 3]
    return str(total % 10)


def find_mrz(text: str) -> MRZ | None:
    """The last machine-readable zone in `text` (it sits at the bottom of the page), parsed."""
    lines = [clean(raw) for raw in text.splitlines()]
    lines = [line for line in lines if CANDIDATE.match(line)]
    for fmt, (count, width) in (("TD3", FORMATS["TD3"]), ("TD2", FORMATS["TD2"]), ("TD1", FORMATS["TD1"])):
        for end in range(len(lines), count - 1, -1):
            block = lines[end - count:end]
            # The first line always has fillers; a visa's second line may have none.
            if "<" in block[0] and all(abs(len(line) - width) <= 2 for line in block):
                parsed = parse_mrz([fit(line, width) for line in block], fmt)
                if parsed and not parsed.valid:
                    parsed = _repair(block, width, fmt) or parsed
                if parsed:
                    return parsed
    return None


def clean(raw: str) -> str:
    """Undo common OCR slips: spaces inside the zone, '«' for '<<', lower-case letters for '<'."""
    line = raw.strip().replace(" ", "").replace("«", "<<")
    if "<<" in line:
        # Fillers read as fillers mark a zone line, which holds only A-Z, 0-9 and '<': OCR's
        # stray '&', ',' or ':' there is a misread filler too. (Ordinary text has no '<<'.)
        line = re.sub(r"[^A-Za-z0-9<]", "<", line)
    line = re.sub(r"[a-z]", "<", line)  # an MRZ has no lower case: those are misread fillers
    return line.upper()


def _repair(block: list[str], width: int, fmt: str) -> MRZ | None:
    """OCR may add or drop one character in a line; try each single deletion or filler insertion
    and keep one only if every check digit then passes (a wrong repair almost never does)."""
    for index, line in enumerate(block):
        if len(line) == width + 1:
            variants = (line[:i] + line[i + 1:] for i in range(len(line)))
        elif len(line) == width - 1:
            variants = (line[:i] + "<" + line[i:] for i in range(len(line) + 1))
        else:
            continue
        for variant in variants:
            lines = [fit(v, width) for v in block[:index] + [variant] + block[index + 1:]]
            parsed = parse_mrz(lines, fmt)
            if parsed and parsed.valid:
                return parsed
    return None


def fit(line: str, width: int) -> str:
    return (line + "<" * width)[:width]


def parse_mrz(lines: list[str], fmt: str) -> MRZ | None:
    if lines[0][:1] == "1":  # OCR reads the document code I as the digit one (classify.py reads it so too)
        lines = ["I" + lines[0][1:], *lines[1:]]
    if fmt == "TD1":
        l1, l2, l3 = lines
        number, number_check = l1[5:14], l1[14]
        birth, birth_check, sex = l2[0:6], l2[6], l2[7]
        expiry, expiry_check, nationality = l2[8:14], l2[14], l2[15:18]
        names = l3
        composite = l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29]
        composite_check = l2[29]
        head = l1
    else:
        l1, l2 = lines
        width = len(l1)
        number, number_check = l2[0:9], l2[9]
        nationality = l2[10:13]
        birth, birth_check, sex = l2[13:19], l2[19], l2[20]
        expiry, expiry_check = l2[21:27], l2[27]
        names = l1[5:]
        if fmt == "TD3":
            composite = l2[0:10] + l2[13:20] + l2[21:43]
            composite_check = l2[43]
        else:
            composite = l2[0:10] + l2[13:20] + l2[21:35]
            composite_check = l2[35]
        head = l1
        if width not in (36, 44):
            return None
    if head[0] not in "PIACV":
        return None
    birth, expiry = birth.translate(TO_DIGIT), expiry.translate(TO_DIGIT)
    checks = {
        "document_number": check_digit(number) == number_check.translate(TO_DIGIT),
        "birth_date": check_digit(birth) == birth_check.translate(TO_DIGIT),
        "expiry_date": check_digit(expiry) == expiry_check.translate(TO_DIGIT),
    }
    if head[0] != "V":  # visas (MRV-A, MRV-B) carry no composite check digit
        checks["composite"] = check_digit(composite) == composite_check.translate(TO_DIGIT)
    # OCR reads long runs of the filler '<' as K; no name ends in three K's.
    names = re.sub(r"K{3,}$", "", re.sub(r"<{2,}K{3,}.*$", "", names)) if "KKK" in names else names
    surname, _, given = names.partition("<<")
    return MRZ(
        format=fmt,
        document_code=head[0:2].replace("<", ""),
        issuing_country=head[2:5].translate(TO_LETTER).replace("<", ""),
        document_number=number.replace("<", ""),
        surname=surname.replace("<", " ").strip(),
        given_names=re.sub(r"<+", " ", given).strip(),
        nationality=nationality.translate(TO_LETTER).replace("<", ""),
        birth_date=_date(birth, future=False),
        sex={"M": "M", "F": "F"}.get(sex, None),
        expiry_date=_date(expiry, future=True),
        checks=checks,
    )


def _date(yymmdd: str, *, future: bool) -> str | None:
    if not yymmdd.isdigit():
        return None
    yy, mm, dd = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:6])
    this_year = date.today().year % 100
    # Two-digit years: a birth date is never in the future; an expiry is at most ~20 years ahead.
    century = 1900 if (yy > this_year if not future else yy > this_year + 20) else 2000
    try:
        return date(century + yy, mm, dd).isoformat()
    except ValueError:
        return None
