"""ICAO 9303 machine-readable zones (TD1 ID cards, TD2, TD3 passports): finding, parsing, check
digits, and reading a zone from a photo that the page's OCR missed (turned, off level, small).

Written here, not taken from a package: the `mrz` package is GPL-3.0, which this codebase does
not ship, and PassportEye (MIT) pulls scikit-image and matplotlib for its image pipeline when
the text rules of ICAO 9303 Part 3 are short and Pillow can find, level and enlarge the band.
"""
import io
import itertools
import math
import os
import re
import subprocess
from dataclasses import dataclass, replace
from functools import cached_property
from datetime import date

from PIL import Image, ImageChops, ImageFilter, ImageOps

from leadflow.extractor import ocr
from leadflow.extractor.errors import InternalError

FORMATS = {"TD1": (3, 30), "TD2": (2, 36), "TD3": (2, 44)}  # lines, characters per line
WEIGHTS = (7, 3, 1)
CANDIDATE = re.compile(r"^[A-Z0-9<]{25,48}$")
TO_DIGIT = str.maketrans({"O": "0", "Q": "0", "D": "0", "U": "0", "I": "1", "L": "1", "Z": "2", "S": "5", "B": "8",
                          "G": "6", "A": "4"})
TO_LETTER = str.maketrans({"0": "O", "1": "I", "2": "Z", "5": "S", "8": "B", "6": "G"})
# ICAO 9303 Part 3 state codes: ISO 3166-1 alpha-3, Germany's "D", and the codes ICAO adds (UTO is
# the specimen state). OCR misreads a letter of a code as a look-alike; a code that names no state
# is repaired only to the one state a look-alike swap yields.
STATES = frozenset("""
ABW AFG AGO AIA ALA ALB AND ARE ARG ARM ASM ATA ATF ATG AUS AUT AZE BDI BEL BEN BES BFA BGD BGR BHR BHS BIH BLM
BLR BLZ BMU BOL BRA BRB BRN BTN BVT BWA CAF CAN CCK CHE CHL CHN CIV CMR COD COG COK COL COM CPV CRI CUB CUW CXR
CYM CYP CZE DEU DJI DMA DNK DOM DZA ECU EGY ERI ESH ESP EST ETH FIN FJI FLK FRA FRO FSM GAB GBR GEO GGY GHA GIB
GIN GLP GMB GNB GNQ GRC GRD GRL GTM GUF GUM GUY HKG HMD HND HRV HTI HUN IDN IMN IND IOT IRL IRN IRQ ISL ISR ITA
JAM JEY JOR JPN KAZ KEN KGZ KHM KIR KNA KOR KWT LAO LBN LBR LBY LCA LIE LKA LSO LTU LUX LVA MAC MAF MAR MCO MDA
MDG MDV MEX MHL MKD MLI MLT MMR MNE MNG MNP MOZ MRT MSR MTQ MUS MWI MYS MYT NAM NCL NER NFK NGA NIC NIU NLD NOR
NPL NRU NZL OMN PAK PAN PCN PER PHL PLW PNG POL PRI PRK PRT PRY PSE PYF QAT REU ROU RUS RWA SAU SDN SEN SGP SGS
SHN SJM SLB SLE SLV SMR SOM SPM SRB SSD STP SUR SVK SVN SWE SWZ SXM SYC SYR TCA TCD TGO THA TJK TKL TKM TLS TON
TTO TUN TUR TUV TWN TZA UGA UKR UMI URY USA UZB VAT VCT VEN VGB VIR VNM VUT WLF WSM YEM ZAF ZMB ZWE
D EUE GBD GBN GBO GBP GBS RKS UNA UNK UNO UTO XBA XIM XCC XCE XCO XDC XEC XES XMP XOM XPO XXA XXB XXC XXX
""".split())
LOOK_ALIKES = {"0": "DOQ", "O": "DQ", "Q": "O", "1": "I", "I": "L", "L": "I", "5": "S", "8": "B", "2": "Z",
               "6": "G", "K": "X", "X": "K", "C": "G", "G": "C"}


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
    lines: tuple[str, ...] = ()  # the zone as read, each line at its format's width
    names_misfit: bool = False  # the name line as read had the wrong length: a name may be misread
    # Another read of the zone on the page differs in the document number, and its characters
    # combine into more than one number passing every check digit: the number cannot be told.
    number_disputed: bool = False
    repaired: bool = False  # one look-alike put right: the only change that makes every check pass

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
    raws = text.splitlines()
    best, reads = _best_zone(raws)
    pieces = [zone_piece(raw) for raw in raws]
    if pieces != raws:  # a zone beside other print: its lines alone may read where the joined ones did not
        other, other_reads = _best_zone(pieces)
        if other and (best is None or other[0] > best[0]):
            best, reads = other, other_reads
    if best is None:
        return None
    printed = _printed_numbers(text, best[1])
    zone = _with_other_reads(best[1], reads, printed)
    if not zone.valid:
        zone = _one_look_alike(zone) or zone
    return _within_alphabet(zone)


def _best_zone(raws: list[str]) -> tuple[tuple | None, list]:
    """(rank, zone) of the zone passing most checks with the least padding, the last on the page first,
    and every zone as read."""
    pairs = [(clean(raw), raw) for raw in raws]
    pairs = [(line, raw) for line, raw in pairs if CANDIDATE.match(line)]
    lines = [line for line, _ in pairs]
    best = None  # the zone passing most checks with the least padding; the last on the page first
    reads = []  # every zone as read, unrepaired: other reads of the same zone are evidence
    for fmt, (count, width) in (("TD3", FORMATS["TD3"]), ("TD2", FORMATS["TD2"]), ("TD1", FORMATS["TD1"])):
        for end in range(len(lines), count - 1, -1):
            block = lines[end - count:end]
            # The first line always has fillers; a visa's second line may have none.
            if "<" in block[0] and all(_fits(line, width) for line in block):
                fitted = [fit(line, width) for line in block]
                parsed = parse_mrz(fitted, fmt)
                if parsed:
                    reads.append(parsed)
                if parsed and not parsed.valid:
                    parsed = _repair(block, width, fmt) or _look_alike_repair(fitted, fmt) or parsed
                elif parsed and _outside_alphabet(fitted, fmt):
                    # Passing as read, yet with a letter its state's numbers never carry: "KW35YROOL"
                    # passes as "KW35YR00L" does (O and 0 at weights 7 and 3 sum alike mod 10).
                    parsed = _look_alike_repair(fitted, fmt) or parsed
                if parsed:
                    name_line = block[2] if fmt == "TD1" else block[0]
                    raw_names = pairs[end - count + (2 if fmt == "TD1" else 0)][1]
                    # A name line longer than its format, or short without ending in fillers,
                    # gained or lost a character inside the names, where no check digit looks;
                    # and a line whose fillers OCR read as small letters ("YUEI<<<<e<<eiceecccc")
                    # was read too poorly to trust its names' letters either ("BATO" for "SATO").
                    parsed = replace(parsed, names_misfit=len(name_line) > width or (
                        len(name_line) < width and not name_line.endswith("<"))
                        or len(re.findall(r"[a-z]", raw_names)) >= MISREAD_FILLERS)
                # Ties go to the block whose lines needed the least padding to their format (a
                # visa's 36-character zone also fits a passport's 44 when padded).
                rank = (*_score(parsed), -sum(abs(len(line) - width) for line in block)) if parsed else None
                if parsed and (best is None or rank > best[0]):
                    best = (rank, parsed)
    return best, reads


MISREAD_FILLERS = 3  # small letters on a zone's names line: fillers OCR misread, not one stray mark


def zone_piece(raw: str) -> str:
    """The line, or the one piece of it between column gaps that alone looks like a zone line: a copy
    of both sides of a card puts the back's zone beside the front's print, and the text layer joins
    them at a column gap ("ITA  C<ITACA21888LW6<<<<<<<<<<<<<<<")."""
    pieces = [piece for piece in re.split(r"\s{2,}", raw.strip()) if piece]
    if len(pieces) < 2:
        return raw
    zone = [piece for piece in pieces if CANDIDATE.match(piece.replace(" ", "")) and "<<" in piece]
    return zone[0] if len(zone) == 1 else raw


def zone_like(line: str) -> bool:
    """Whether a line of the text is (a piece of) the zone as OCR read it, however noisy: a filler
    ('<', or '«' for two) that printed text never has, or 25 characters or more nearly all of the
    zone's alphabet with a digit among them. A name read there is the zone's own reading, so it
    can never confirm the zone (a stray '¢' after the fillers must not make the line "print")."""
    compact = line.replace(" ", "")
    if any(mark in compact for mark in ZONE_MARKS):
        return True
    if len(compact) < CANDIDATE_MIN:
        return False
    share = sum(char in MRZ_ALPHABET for char in compact) / len(compact)
    return share >= ZONE_SHARE and any(char.isdigit() for char in compact)


def visual_text(text: str) -> str:
    """The text without any line of the zone: the visual part of the page, which prints the names
    and dates a second time."""
    return "\n".join(line for line in text.splitlines() if not zone_like(line))


ZONE_MARKS = ("<", "«", "‹")
CANDIDATE_MIN = 25  # characters of a zone line, at least (CANDIDATE)
ZONE_SHARE = 0.85


def _fits(line: str, width: int) -> bool:
    # OCR may shorten a closing run of fillers ('<<<<<<<<' read as '<<<<<'); padding restores it.
    return abs(len(line) - width) <= 2 or (line.endswith("<<") and width - 14 <= len(line) < width)


EDGE_MARK = re.compile(r"(?<=<)\s+[^\w\s<«]{1,3}$|^[^\w\s<«]{1,3}\s+(?=[A-Z0-9<])")


def clean(raw: str) -> str:
    """Undo common OCR slips: spaces inside the zone, '«' for '<<', lower-case letters for '<'."""
    # A mark standing apart beyond the fillers (" )", " >", "| "): the card's edge or a shadow, outside
    # the zone; inside the line it would become a filler and make the names line too long.
    line = EDGE_MARK.sub("", raw.strip()).replace(" ", "").replace("«", "<<")
    if "<<" in line:
        # Fillers read as fillers mark a zone line, which holds only A-Z, 0-9 and '<': OCR's
        # stray '&', ',' or ':' there is a misread filler too. (Ordinary text has no '<<'.)
        line = re.sub(r"[^A-Za-z0-9<]", "<", line)
    line = re.sub(r"[a-z]", "<", line)  # an MRZ has no lower case: those are misread fillers
    return line.upper()


def _repair(block: list[str], width: int, fmt: str) -> MRZ | None:
    """OCR may add or drop one character in a line; try each single deletion or filler insertion
    and keep one only if every check digit then passes, and no other repair of the zone passes
    with other values: with thirty places to try, a wrong one passes now and then ("TSAYF5STN3"
    with either S dropped), and then the check digits cannot say which is the number."""
    passing = {}
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
                passing.setdefault((parsed.document_number, parsed.birth_date, parsed.expiry_date), parsed)
    return next(iter(passing.values())) if len(passing) == 1 else None


# OCR's look-alikes in a zone's monospace print (OCR-B, and the DejaVu and Courier faces cheaper
# cards use): what a character read may have been printed as. Pairs whose ICAO values are equal
# mod 10 (0/U, 1/L, 6/G, 8/S, 5/Z) stand here too: a check digit cannot tell them apart, so a
# repair that could as well have chosen the other one is no repair (see `_look_alike_repair`).
MISREAD_AS = {"0": "ODQU", "O": "0DQU", "D": "0O", "Q": "0O", "U": "0OJ", "1": "IL", "I": "1L", "L": "1I",
              "2": "Z", "Z": "25", "5": "SZ", "S": "58", "8": "BS", "B": "8", "6": "G", "G": "6", "4": "A", "A": "4"}
DIGITS = frozenset("0123456789")
ALPHANUMERIC = DIGITS | frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
# Germany's passports and identity cards (codes P and I, state D) number their documents with the
# digits and 17 consonants only, none of A B D E I O Q S U that are read as digits (PassV Anlage 11,
# PAuswG § 2 Abs. 8; BSI TR-03104's alphabet). Other states' formats are not known here.
GERMAN_NUMBERS = DIGITS | frozenset("CFGHJKLMNPRTVWXYZ")
# Where the document number stands (line, start, end).
NUMBER_SPAN = {"TD1": (0, 5, 14), "TD2": (1, 0, 9), "TD3": (1, 0, 9)}
MAX_COMBINATIONS = 64  # combinations of candidate characters tried for one zone, at most


def _outside_alphabet(lines: list[str], fmt: str) -> bool:
    """Whether the document number holds a character its state's alphabet lacks."""
    index, start, end = NUMBER_SPAN[fmt]
    alphabet = _number_alphabet(lines)
    return any(char not in alphabet and char != "<" for char in lines[index][start:end])


def _number_alphabet(lines: list[str]) -> frozenset:
    head = lines[0]
    # The electronic residence permit (eAT, code AR) comes from the same press and is numbered alike.
    if head[:1] in "PIA" and head[2:5] in ("D<<", "D"):
        return GERMAN_NUMBERS
    return ALPHANUMERIC


def _look_alike_repair(lines: list[str], fmt: str) -> MRZ | None:
    """The zone with its look-alikes put right where the zone itself shows a character was misread:
    a letter in a digit-only place that has two digit readings (S: 5 or 8), or a letter in a German
    document number that its alphabet lacks (O: 0 there). Taken only when exactly one combination
    of the candidates makes every check digit pass, composite included.

    Nowhere else: a check digit weighs a character by its value mod 10 and a number's errors pass
    one time in ten, so trying look-alikes at every place of a number that fails makes a passing
    wrong number about as often as the right one (simulated: 29% of zones with one slip outside
    the look-alike table, 0 to 10 of 10 with two slips); and 0 and U, 1 and L, 6 and G pass alike."""
    if parse_mrz(lines, fmt) is None:
        return None
    index, start, end = NUMBER_SPAN[fmt]
    alphabet = _number_alphabet(lines)
    candidates: list[list[tuple[int, int, str]]] = []
    for position in range(start, end):
        char = lines[index][position]
        if char not in alphabet and char != "<":
            others = [other for other in MISREAD_AS.get(char, "") if other in alphabet]
            candidates.append([(index, position, other) for other in others])
    for line, begin, stop in _numeric_spans(lines, fmt):
        for position in range(begin, stop):
            char = lines[line][position]
            readings = {char.translate(TO_DIGIT)} | {other for other in MISREAD_AS.get(char, "") if other in DIGITS}
            if not char.isdigit() and char != "<" and len(readings) > 1:
                candidates.append([(line, position, other) for other in sorted(readings)])
    if not candidates or any(not options for options in candidates):
        return None
    if math.prod(map(len, candidates)) > MAX_COMBINATIONS:
        return None
    passing = {}
    for trial in itertools.product(*candidates):
        changed = [list(line) for line in lines]
        for line, position, other in trial:
            changed[line][position] = other
        parsed = parse_mrz(["".join(line) for line in changed], fmt)
        if parsed is not None and parsed.valid:
            passing[parsed.document_number, parsed.birth_date, parsed.expiry_date] = parsed
    if len(passing) != 1:
        return None
    return replace(passing.popitem()[1], repaired=True)


def _printed_numbers(text: str, zone: MRZ) -> list[str]:
    """The document number as the page prints it outside the zone (a passport's "Passport No.", the
    front of a German card): words as long as the zone's number that differ from it only by
    look-alikes, at most three of them. Another print of the same number, read by another pass of
    OCR in another font: where it reads a character otherwise, that is evidence, as another read
    of the zone is."""
    number = zone.document_number
    if len(number) < 6 or not zone.lines:
        return []
    index, start, end = NUMBER_SPAN[zone.format]
    if zone.lines[index][start:end] != number:
        return []  # a short number padded with fillers: no word on the page lines up with it
    found = []
    for raw in text.splitlines():
        if CANDIDATE.match(clean(raw)) or _fillers_read(raw):
            continue  # a zone line
        for word in re.findall(r"(?<![A-Za-z0-9])[A-Z0-9]{%d}(?![A-Za-z0-9])" % len(number), raw):
            slips = [(a, b) for a, b in zip(word, number) if a != b]
            # The print's own slips need not be look-alikes of the zone's (another font, another
            # OCR pass): one or two places of any kind, or up to three look-alikes. The same word
            # counts too: a second, independent read of the number (see `_with_other_reads`).
            if len(slips) <= 2 or (len(slips) <= 3 and all(
                    a in MISREAD_AS.get(b, "") or b in MISREAD_AS.get(a, "") for a, b in slips)):
                found.append(word)
    return found


def _with_other_reads(best: MRZ, reads: list[MRZ], printed: list[str] = ()) -> MRZ:
    """`best`, judged by the page's other reads of the same zone (the page's own pass and the band's
    re-read) and by the number printed elsewhere on the page: where they read the document number
    or its check digit differently, every combination of the characters read is tried (only those:
    no look-alike no read showed). One number passing every check is the number, however the reads
    slipped; two or more mean the check digit cannot tell them apart (6 read as G, of one value),
    and the number is disputed. A read with garbled names is no evidence against a clean one: it
    misread more."""
    index, start, end = NUMBER_SPAN[best.format]
    same = [best.lines]
    for read in reads:
        if read is best or read.format != best.format or not read.lines:
            continue
        if _doubtful_names(read) and not _doubtful_names(best):
            continue
        lines = [_aligned(line, to) for line, to in zip(read.lines, best.lines)]
        if _same_zone(lines, best.lines):
            same.append(lines)
    for word in printed:
        lines = list(best.lines)
        lines[index] = lines[index][:start] + word + lines[index][end:]
        same.append(lines)
    options = [sorted({lines[index][p] for lines in same}) for p in range(start, end + 1)]
    # A reading with a letter the state's numbers never carry is no option beside one that fits.
    alphabet = _number_alphabet(list(best.lines)) | {"<"}
    options[:-1] = [[c for c in chars if c in alphabet] or chars for chars in options[:-1]]
    if all(len(chars) == 1 for chars in options):
        return best
    if math.prod(map(len, options)) > MAX_COMBINATIONS:
        return replace(best, number_disputed=True)
    passing = {}
    for chars in itertools.product(*options):
        lines = list(best.lines)
        lines[index] = lines[index][:start] + "".join(chars) + lines[index][end + 1:]
        parsed = parse_mrz(lines, best.format)
        if parsed is not None and parsed.valid:
            passing[parsed.document_number] = parsed
    if len(passing) > 1:
        # Numbers the check digits cannot tell apart (1 and L, 6 and G weigh alike): the one the
        # visual print reads letter for letter is read the same way twice, by independent means.
        confirmed = [number for number in passing if number in printed]
        if len(confirmed) != 1:
            return replace(best, number_disputed=True)
        found = passing[confirmed[0]]
        return best if found.document_number == best.document_number else replace(
            found, names_misfit=best.names_misfit, repaired=True)
    if len(passing) == 1 and not best.valid:
        found = passing.popitem()[1]
        return replace(found, names_misfit=best.names_misfit, repaired=True)
    return best


# The look-alikes OCR makes of a zone's print often enough to try on a failing number: one of them,
# at one place (the fewest slips that explain the failing check digit). Pairs of equal value mod 10
# (G/6, L/1, U/0, S/8, Z/5) are left out: the check digit cannot tell them apart; so is I, which is
# as often a misread L as a misread 1, of one value.
ONE_SLIP = {"O": "0", "0": "O", "D": "0", "Q": "0", "1": "I", "S": "5", "5": "S", "B": "8",
            "8": "B", "Z": "2", "2": "Z", "T": "7", "7": "T"}


def _one_look_alike(zone: MRZ) -> MRZ | None:
    """The zone with one look-alike of its document number put right, when only the number (and
    the composite, which weighs the number) fails, and exactly one such change makes every check
    digit pass. A number's slip outside this table can make a wrong change pass by chance (one
    time in ten for each place tried): such a number is marked repaired, read at lower confidence,
    and no rule rejects on a document number."""
    if not zone.lines or zone.checks["birth_date"] is False or zone.checks["expiry_date"] is False:
        return None
    index, start, end = NUMBER_SPAN[zone.format]
    alphabet = _number_alphabet(list(zone.lines))
    passing = {}
    for position in range(start, end):
        line = zone.lines[index]
        other = ONE_SLIP.get(line[position])
        if other is None or other not in alphabet:
            continue
        lines = list(zone.lines)
        lines[index] = line[:position] + other + line[position + 1:]
        parsed = parse_mrz(lines, zone.format)
        if parsed is not None and parsed.valid:
            passing[parsed.document_number] = parsed
    if len(passing) != 1:
        return None
    return replace(passing.popitem()[1], names_misfit=zone.names_misfit, repaired=True)


def _within_alphabet(zone: MRZ) -> MRZ:
    """A number passing its check digit with a character its state never prints ("TT9OVI6TR" on a
    German permit) passed by chance: it is no reading of the number, and is marked disputed."""
    if zone.lines and zone.valid and _outside_alphabet(list(zone.lines), zone.format):
        return replace(zone, number_disputed=True)
    return zone


def _aligned(line: str, to: str) -> str:
    """`line` shifted by up to two characters (OCR's stray mark before a zone line, a dropped
    character) to where most of its characters match `to`'s."""
    def shifted(by: int) -> str:
        return fit(line[by:], len(to)) if by >= 0 else fit("<" * -by + line, len(to))
    return max((shifted(by) for by in (0, 1, -1, 2, -2)), key=lambda s: sum(a == b for a, b in zip(s, to)))


def _same_zone(lines: list[str], best: tuple[str, ...]) -> bool:
    """Whether `lines` are a read of the same zone as `best`: mostly the same characters."""
    pairs = [(a, b) for x, y in zip(lines, best) for a, b in zip(x, y)]
    return sum(a == b for a, b in pairs) >= 0.8 * max(1, len(pairs))


def fit(line: str, width: int) -> str:
    return (line + "<" * width)[:width]


def parse_mrz(lines: list[str], fmt: str) -> MRZ | None:
    if lines[0][:1] == "1":  # OCR reads the document code I as the digit one (classify.py reads it so too)
        lines = ["I" + lines[0][1:], *lines[1:]]
    # Dates and check digits hold digits only (ICAO 9303 Part 3): a letter there is OCR's look-alike
    # of a digit, in the composite too (its check digit weighs the fields' check digits).
    lines = _digits_where_numeric(lines, fmt)
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
    # Names hold letters only: a digit there is OCR's O, I, B, S, Z or G (not in the number fields,
    # where both are possible and the check digits decide).
    names = names.translate(TO_LETTER)
    # OCR reads long runs of the filler '<' as K; no name ends in three K's.
    names = re.sub(r"K{3,}$", "", re.sub(r"<{2,}K{3,}.*$", "", names)) if "KKK" in names else names
    surname, _, given = names.partition("<<")
    return MRZ(
        format=fmt,
        document_code=head[0:2].replace("<", ""),
        issuing_country=_state(head[2:5]),
        document_number=number.replace("<", ""),
        surname=surname.replace("<", " ").strip(),
        given_names=re.sub(r"<+", " ", given).strip(),
        nationality=_state(nationality),
        birth_date=_date(birth, future=False),
        sex={"M": "M", "F": "F"}.get(sex, None),
        expiry_date=_date(expiry, future=True),
        checks=checks,
        lines=tuple(lines),
    )


# Where a zone holds digits only (line, start, end): dates and check digits.
NUMERIC = {"TD1": ((0, 14, 15), (1, 0, 7), (1, 8, 15), (1, 29, 30)),
           "TD2": ((1, 9, 10), (1, 13, 20), (1, 21, 28), (1, 35, 36)),
           "TD3": ((1, 9, 10), (1, 13, 20), (1, 21, 28), (1, 42, 44))}


def _numeric_spans(lines: list[str], fmt: str) -> tuple:
    spans = NUMERIC.get(fmt, ())
    return spans[:-1] if lines[0][:1] == "V" else spans  # a visa's line ends in optional data, not in check digits


def _digits_where_numeric(lines: list[str], fmt: str) -> list[str]:
    lines = list(lines)
    for index, start, end in _numeric_spans(lines, fmt):
        if index < len(lines):
            line = lines[index]
            lines[index] = line[:start] + line[start:end].translate(TO_DIGIT) + line[end:]
    return lines


def _state(code: str) -> str:
    """A state code as printed, or the one state a single look-alike swap makes of a code that names none."""
    plain = code.translate(TO_LETTER).replace("<", "")
    if plain in STATES or not plain:
        return plain
    fixes = {variant for i, char in enumerate(code) for other in LOOK_ALIKES.get(char, "")
             if (variant := (code[:i] + other + code[i + 1:]).replace("<", "")) in STATES}
    return fixes.pop() if len(fixes) == 1 else plain


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


# --- reading a zone from a photo -----------------------------------------------------------------
# A phone photo of a passport or card arrives turned (90/180/270 degrees, or a few degrees off),
# skewed or small, and the page's ordinary OCR then reads no zone or one that fails its check
# digits. The zone is then looked for in the picture itself: turned upright and level by the
# angle at which its text lines stand out most, enlarged until a character is tall enough for
# Tesseract, its band of long even lines cut out and read with the MRZ alphabet only.

MRZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"
MAX_ZONE_RUNS = 4  # extra Tesseract runs an ID page may cost (each ~0.3-1 s on one core)
ANALYSIS_WIDTH = 600  # pixels: enough to see text lines, cheap to turn a hundred times
ZONE_CHAR_HEIGHT = 28  # pixels per text line in the band handed to Tesseract
STRETCH = 1.5  # the second read widens the band: fillers drawn apart are not merged into one
MAX_ZONE_PIXELS = 2_500_000  # an enlarged image costs Tesseract time in proportion
# Words on an ID page that make a zone worth looking for even when OCR read no zone line.
ID_WORDS = re.compile(r"passport|reisepass|passeport|ausweis|identity|identit|aufenthalt|residence|"
                      r"visum|nationalit|staatsangeh|surname|given name|date of birth|geburt",
                      re.IGNORECASE)
# Words of a till slip or a bill, never printed on a passport or card.
TILL_WORDS = re.compile(r"\b(total|summe|mwst|vat|receipt|kassenbon|quittung|rechnung|invoice|zu zahlen|gesamt"
                        r"|betrag|r[üu]ckgeld|gegeben)\b", re.IGNORECASE)


def zone_text(image, text: str, first_page: bool = True, tsv: str = "") -> str:
    """The page's OCR `text`, with the zone read from `image` appended when the text's own zone is
    missing or fails its check digits and the picture yields a better one. On a later page of a
    document only a zone or an ID's words make the search worth it: a short closing page of a
    letter reads as little as a turned photo does.

    `tsv`: the page pass's word boxes (Tesseract's TSV). Where that pass read the zone's lines,
    their boxes say where the band is and that the picture stands upright: the band is cut from
    them and read again (at most two runs), with no search of the picture for angles and bands."""
    found = find_mrz(text)
    if found is not None and found.valid and not _doubtful_names(found):
        return text
    if not _worth_looking(text, found, debris=first_page):
        return text
    # Only a zone read the right way up places the band: '>>' or debris is a turned picture.
    band = _band_from_tsv(tsv) if tsv and found is not None and _fillers_read(text, upright=True) else None
    if band is not None:
        better = read_zone(image, found, band=band)
    else:
        better = read_zone(image, found)
    if better is None or better.lines == (found.lines if found else None):
        return text
    return text.rstrip("\n") + "\n\n" + "\n".join(better.lines)


def read_zone(image, start: MRZ | None = None, runs: int = MAX_ZONE_RUNS, band=None) -> MRZ | None:
    """The best zone in a photo within `runs` Tesseract runs, or None when none beats `start`.

    Reads stop at the first zone whose check digits all pass and whose names read cleanly. The
    check digits cover numbers and dates, not names: OCR reads runs of the filler '<' as K, C or
    E, and a read of the band stretched sideways keeps the fillers apart; its names are taken
    when the two reads agree on every real name part. `band`: where the page's own pass read the
    zone (see `_band_from_tsv`); only that band is read, as is and stretched."""
    grey = ImageOps.exif_transpose(image).convert("L") if band is None else image.convert("L")
    reads = [start] if start is not None else []
    texts = ["\n".join(start.lines)] if start is not None else []
    if band is not None:
        attempts = _KnownBand(grey, band)
        plan = [attempts.band, attempts.stretched_band]
    else:
        attempts = _Attempts(grey, upright=start is not None)
        plan = [attempts.band, attempts.stretched_band, attempts.flipped_band, attempts.page]
    for _ in range(runs):
        # Any read that passes every check with clean names ends the search: the page's own read
        # may pass its checks with doubtful names, and a clean read then lends them its names.
        if not plan or any(read.valid and not _doubtful_names(read) for read in reads):
            break
        make = plan.pop(0)
        if band is None and make == attempts.stretched_band and not reads and attempts.flipped_band in plan:
            # Nothing read upright: the other turn is likelier than another scale.
            plan.remove(attempts.flipped_band)
            plan.insert(0, make)
            make = attempts.flipped_band
        picture = make()
        if picture is None:
            continue
        texts.append(ocr_zone(picture))
        zone = find_mrz(texts[-1])
        if zone is not None:
            reads.append(zone)
    if not any(zone.valid for zone in reads):
        mixed = _mixed(texts)
        if mixed is not None:
            reads.append(mixed)
    if not reads:
        return None
    # Of reads passing as many checks the earliest (the page's own first): two reads that both pass
    # yet differ have one wrong by chance, and the page's own read came first. Names may still come
    # from a cleaner read.
    # A read with clean names beats one as valid with garbled names: the garbled one misread more,
    # and two misread characters can pass a check digit together.
    best = _with_cleanest_names(max(reads, key=lambda read: (*_score(read), not _doubtful_names(read))), reads)
    best = _with_known_states(best, reads)
    return None if best is start else best


def _fillers_read(text: str, upright: bool = False) -> bool:
    """Whether OCR read a zone line as one: a long line with a run of the filler '<' ('«' is two
    of them; '>>' a run seen upside down, unless `upright`). Prose never has one; its lower-case
    letters turn into fillers only in `clean`, which is why a parsed zone alone proves nothing."""
    for raw in text.splitlines():
        line = raw.replace(" ", "").replace("«", "<<")
        if len(line) >= 20 and ("<<" in line or (">>" in line and not upright)):
            return True
    return False


def _band_from_tsv(tsv: str) -> tuple[int, int, int, int, float, bool] | None:
    """The box (in the page image's pixels) and line height of the zone lines the page's own pass
    read: its TSV lines holding a run of fillers, and the lines next to them that are as long (a
    zone's number line may hold none). None when that pass read no zone line."""
    lines: dict[tuple, list] = {}
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        try:
            key = tuple(int(c) for c in cols[1:5])
            left, top, width, height = (int(c) for c in cols[6:10])
        except ValueError:
            continue
        lines.setdefault(key, []).append((cols[11].strip(), left, top, left + width, top + height))
    boxes = []
    for words in lines.values():
        text = "".join(w[0] for w in words)
        boxes.append((min(w[1] for w in words), min(w[2] for w in words), max(w[3] for w in words),
                      max(w[4] for w in words), _fillers_read(text, upright=True)))
    zone = [box for box in boxes if box[4]]
    if not zone:
        return None
    height = sorted(box[3] - box[1] for box in zone)[len(zone) // 2]
    width = max(box[2] - box[0] for box in zone)
    top, bottom = min(box[1] for box in zone), max(box[3] for box in zone)
    # Lines just above or below as long as a zone line (within three line heights) belong to it.
    for box in sorted(boxes, key=lambda b: b[1]):
        near = box[1] - bottom <= 3 * height and top - box[3] <= 3 * height
        if not box[4] and near and box[2] - box[0] >= 0.7 * width and 0.6 < (box[3] - box[1]) / height < 1.6:
            zone.append(box)
            top, bottom = min(top, box[1]), max(bottom, box[3])
    x0, x1 = min(box[0] for box in zone), max(box[2] for box in zone)
    return (x0, top, x1, bottom, float(height), False)


class _KnownBand:
    """The band the page's own pass read zone lines in: upright, its place known."""

    def __init__(self, grey, band):
        self.grey, self.band_box = grey, band

    def band(self):
        return self._band

    @cached_property
    def _band(self):
        # Made once: the stretched read widens the same picture (levelling it again cost as much).
        crop = self.grey.crop(_pad(self.band_box, self.grey))
        # A photo a degree or two off level: long zone lines run into each other unless levelled
        # (cheap here: the crop is a band, not the page).
        angle = text_angle(crop, near_level=True)
        if abs(angle) >= 0.5:
            crop = crop.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
        return _enlarged(crop, self.band_box, ZONE_CHAR_HEIGHT)

    def stretched_band(self):
        picture = self.band()
        return picture.resize((round(picture.width * STRETCH), picture.height), Image.LANCZOS)



def _mixed(texts: list[str]) -> MRZ | None:
    """A zone put together line by line from several reads of it, when no single read passes:
    each read slips somewhere else, and the check digits tell which combination is right."""
    for fmt, (count, width) in FORMATS.items():
        options: list[list[str]] = [[] for _ in range(count)]
        for text in texts:
            lines = [line for line in (clean(raw) for raw in text.splitlines())
                     if CANDIDATE.match(line) and _fits(line, width)]
            for index, line in enumerate(lines[-count:] if len(lines) >= count else []):
                if line not in options[index]:
                    options[index].append(line)
        if not all(options):
            continue
        for block in itertools.product(*options):
            parsed = parse_mrz([fit(line, width) for line in block], fmt)
            if parsed is not None and not parsed.valid:
                parsed = _repair(list(block), width, fmt)
            if parsed is not None and parsed.valid:
                return parsed
    return None


def ocr_zone(image) -> str:
    """Tesseract over a zone band, with the MRZ alphabet only and no dictionary: '<' stays '<'."""
    binary = ocr.tesseract_path()
    if not binary:
        raise InternalError("tesseract is not installed (Debian: tesseract-ocr tesseract-ocr-eng)")
    pgm = io.BytesIO()
    # Greyscale PGM, as ocr.ocr_page hands over: PNG's compression of a wide band cost up to a
    # second, more than Tesseract's own reading of it.
    image.convert("L").save(pgm, format="PPM")
    command = [binary, "stdin", "stdout", "-l", "eng", "--psm", "6",
               "-c", f"tessedit_char_whitelist={MRZ_ALPHABET}", "-c", "load_system_dawg=0",
               "-c", "load_freq_dawg=0"]
    try:
        done = subprocess.run(command, input=pgm.getvalue(), capture_output=True, check=False,
                              timeout=ocr.OCR_TIMEOUT_SECONDS, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    except (subprocess.TimeoutExpired, OSError):
        return ""  # a retry that cannot run leaves the page's own reading standing
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""


def text_angle(grey, near_level: bool = False) -> float:
    """The turn (degrees, counter-clockwise as PIL's rotate) that makes the text lines level:
    the angle at which the rows' ink profile is most uneven (lines and gaps sharply apart).
    Level and upside down look alike here; which of the two is right, the check digits decide.
    `near_level`: the text is known to stand within a few degrees of level (OCR read its lines)."""
    ink = _ink(grey, ANALYSIS_WIDTH)
    # The paper's or the card's own edges near the picture's border are long straight lines that
    # would outweigh the text; the middle of the picture holds the text that matters.
    ink = ink.crop((ink.width * 8 // 100, ink.height * 8 // 100, ink.width * 92 // 100, ink.height * 92 // 100))
    return text_angles(grey, near_level, ink)[0]


def text_angles(grey, near_level: bool = False, ink=None) -> list[float]:
    """`text_angle`, then the level of the strongest other set of lines (6 degrees or more apart,
    quarter turns aside): a photographed sheet's edges, turned otherwise than a card lying on it,
    can stand out more than the card's few text lines, and then the card's level is the other one."""
    if ink is None:
        ink = _ink(grey, ANALYSIS_WIDTH)
        ink = ink.crop((ink.width * 8 // 100, ink.height * 8 // 100, ink.width * 92 // 100, ink.height * 92 // 100))
    # Each angle's contrast is measured once: the fine steps round a coarse angle include it, and
    # the steps round two coarse angles six degrees apart meet.
    contrast: dict[float, float] = {}

    def measured(angle: float) -> float:
        if angle not in contrast:
            contrast[angle] = _row_contrast(ink, angle)
        return contrast[angle]

    if near_level:
        coarse = [0]
    else:
        coarse_angles = list(range(-90, 90, 3))
        ranked = sorted(coarse_angles, key=lambda a: -measured(a))
        apart = [a for a in ranked[1:] if min(abs(a - ranked[0]) % 90, 90 - abs(a - ranked[0]) % 90) >= 6]
        coarse = ranked[:1] + apart[:1]
    return [max((c + step / 2 for step in range(-6, 7)), key=measured) for c in coarse]


def _worth_looking(text: str, found: MRZ | None, debris: bool = True) -> bool:
    """Whether the page looks like an ID, passport or permit page: zone lines read as such, a zone
    whose check digits mostly pass, an ID's words on a short page, or (page 1) a turned photo's
    debris. A zone parsed out of prose (whose lower case `clean` turns into fillers) passes none."""
    if _fillers_read(text) or (found is not None and sum(found.checks.values()) >= 2):
        return True
    words = len(re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", text))
    if words >= 60:
        return False  # a page of prose and figures that OCR read well: a payslip, not a card
    if ID_WORDS.search(text):
        return True
    if not debris:
        return False
    # Debris: a turned photo reads as a few stray letters. A short till slip also has few words,
    # but its prices and date read well, or at least its till words do (a photographed slip's
    # small price column may not).
    if TILL_WORDS.search(text):
        return False
    return words < 25 and len(re.findall(r"\d[.,]\d\d\b", text)) < 2


def _score(zone: MRZ) -> tuple[int, int]:
    return sum(zone.checks.values()), -len(zone.checks)


def _ink(grey, width: int):
    """Dark strokes on a lighter ground as white-on-black, at `width` pixels across (never more
    than the picture has): the local background (a blur) minus the image, so uneven light and
    tinted card prints drop out."""
    scale = width / grey.width
    small = grey.resize((width, max(1, round(grey.height * scale))), Image.BILINEAR) if scale < 1 else grey
    background = small.filter(ImageFilter.GaussianBlur(max(4, small.width // 60)))
    strokes = ImageChops.subtract(background, small).point(lambda v: 255 if v > 24 else 0)
    # Dark areas (a desk around the page, a photo on the card) are not strokes: a block of 6x6
    # pixels nearly all dark is an area, and is taken away (a box resize: rank filters cost seconds).
    blocks = (max(1, strokes.width // 6), max(1, strokes.height // 6))
    areas = strokes.resize(blocks, Image.BOX).point(lambda v: 255 if v > 200 else 0)
    return ImageChops.subtract(strokes, areas.resize(strokes.size, Image.NEAREST))


def _row_contrast(ink, angle: float) -> float:
    turned = ink.rotate(angle, resample=Image.NEAREST, expand=True, fillcolor=0)
    rows = turned.resize((1, turned.height), Image.BOX)
    if rows.height < 2:
        return 0.0
    # Each row against the next, counted by difference in C: the same sum of squares as a loop
    # over the rows in Python (a sixth of the angle search's time).
    steps = ImageChops.difference(rows.crop((0, 0, 1, rows.height - 1)), rows.crop((0, 1, 1, rows.height)))
    return sum(count * step * step for step, count in enumerate(steps.histogram())) / rows.height


class _Attempts:
    """Pictures to read a zone from, each made only when asked for (each costs a Tesseract run)."""

    def __init__(self, grey, upright: bool = False):
        # `upright`: the page's own OCR read zone lines, so the picture stands the right way up
        # within a few degrees: no quarter or half turns to try, only the level to refine (a
        # tenth of the search's cost, and no Tesseract run on an upside-down band).
        angles = text_angles(grey, near_level=upright)
        # Characters stacked in a turned line make rows alternate too: the angle found may be a
        # quarter turn off. The four turns are told apart by where a band of long lines shows.
        # A long zone line on a small card merges with its neighbour when the level is a degree
        # off (the page's edges can pull the angle): then a degree or two either way is tried,
        # and then the level of the picture's other set of lines (no Tesseract run is spent here).
        def turned(angle: float) -> list:
            turns = []
            for quarter in (0,) if upright else (0, 90):
                level = grey.rotate(angle + quarter, resample=Image.BICUBIC, expand=True, fillcolor=255)
                for image in (level,) if upright else (level, level.rotate(180, expand=True)):
                    turns.append((image, _zone_band(image)))
            return turns

        # Separate zone lines at either level first: a single line of print a few degrees off
        # level also looks like lines run together, and must not win over the real zone.
        tried, turns = [], None
        for angle in angles:  # the other level is looked at only when the best one shows no zone lines
            tried.append(turned(angle))
            if any(band and not band[5] for _, band in tried[-1]):
                turns = tried[-1]
                break
        turns = turns or next((turns for turns in tried if any(band for _, band in turns)), None)
        for angle, tilt in ((angle, tilt) for angle in angles for tilt in (1.5, -1.5)):
            if turns:
                break
            candidate = turned(angle + tilt)
            turns = candidate if any(band for _, band in candidate) else None
        turns = turns or tried[0]  # no band anywhere: the best level's turns, for the whole-page read
        # The zone prints at the foot of a passport page or card: a turn with a band, the band
        # lowest, first; the level picture without a band is the last resort.
        ranked = sorted(turns, key=_band_rank)
        self.first = ranked[0]
        self.second = next((turn for turn in ranked[1:] if turn[1]), (ranked[-1][0], None))
        self.level = turns[0][0]

    def band(self):
        return self._band

    @cached_property
    def _band(self):
        # Made once: the stretched read widens the same picture.
        image, band = self.first
        return _enlarged(image.crop(_pad(band, image)), band, ZONE_CHAR_HEIGHT) if band else None

    def stretched_band(self):
        picture = self.band()
        if picture is None:
            return None
        return picture.resize((round(picture.width * STRETCH), picture.height), Image.LANCZOS)

    def flipped_band(self):
        image, band = self.second
        return _enlarged(image.crop(_pad(band, image)), band, ZONE_CHAR_HEIGHT) if band else None

    def page(self):
        return _enlarged(self.first[0] if self.first[1] else self.level, None, ZONE_CHAR_HEIGHT)


def _band_rank(turn) -> tuple:
    """Sort key for a turn of the picture: separate zone lines before merged ones, the lowest band
    first (the zone prints at the foot), of merged ones the longest; no band last."""
    image, band = turn
    if not band:
        return (2, 0)
    if band[5]:
        return (1, -(band[2] - band[0]) / image.width)
    return (0, -band[3] / image.height)


# A given name this long, with a letter OCR reads for the filler '<' (C, K, E) inside it, may be two
# names run together ('VENKATA<LAKSHMI' read 'VENKATACLAKSHMI'): no check digit tells.
MERGED_NAMES = re.compile(r"(?=[A-Z]{12,}$)[A-Z]{4,}[CKE][A-Z]{4,}")


def _doubtful_names(zone: MRZ) -> bool:
    """Letters where only fillers belong (after the names, between single fillers) or a stray
    one-letter name: OCR misread '<' in this zone, so its names may hold misread fillers too."""
    if zone.names_misfit:
        return True
    field = _names_field(zone)
    tail = re.sub(r"^[A-Z<]*?<<[A-Z]+(?:<[A-Z]+)*", "", field)
    return bool(re.search(r"[A-Z]", tail)) or any(len(part) == 1 for part in zone.given_names.split())


def names_doubtful(zone: MRZ) -> bool:
    """Whether the names of a zone may hold OCR's slips (no check digit covers them). Two names run
    together count only here, for the names' confidence: they cost no further Tesseract runs."""
    return _doubtful_names(zone) or any(MERGED_NAMES.fullmatch(part) for part in zone.given_names.split())


def _with_cleanest_names(best: MRZ, reads: list[MRZ]) -> MRZ:
    """`best`, with the names of another read of the same zone when that one reads cleanly and
    each of its name parts appears in `best`'s names (a misread filler only adds letters)."""
    if not _doubtful_names(best):
        return best
    squeezed = (best.surname + best.given_names).replace(" ", "")
    for other in reads:
        if other is best or other.format != best.format or _doubtful_names(other):
            continue
        parts = (other.surname + " " + other.given_names).split()
        same_surname = other.surname == best.surname or best.names_misfit  # a misfit may garble it
        if same_surname and parts and all(part in squeezed for part in parts):
            lines = list(best.lines)
            if best.format == "TD1":
                lines[2] = other.lines[2]
            else:
                lines[0] = lines[0][:5] + other.lines[0][5:]
            return replace(best, surname=other.surname, given_names=other.given_names, lines=tuple(lines),
                           names_misfit=False)
    return best


# Where the state codes stand (line, start, end): no check digit covers them.
STATE_SPANS = {"TD1": {"issuing_country": (0, 2, 5), "nationality": (1, 15, 18)},
               "TD2": {"issuing_country": (0, 2, 5), "nationality": (1, 10, 13)},
               "TD3": {"issuing_country": (0, 2, 5), "nationality": (1, 10, 13)}}


def _with_known_states(best: MRZ, reads: list[MRZ]) -> MRZ:
    """`best`, with a state code that names no state taken from another read of the zone that has one."""
    lines = list(best.lines)
    for name, (index, start, end) in STATE_SPANS.get(best.format, {}).items():
        if getattr(best, name) in STATES:
            continue
        for other in reads:
            if other.format == best.format and other.lines and getattr(other, name) in STATES:
                lines[index] = lines[index][:start] + other.lines[index][start:end] + lines[index][end:]
                break
    if lines == list(best.lines):
        return best
    patched = parse_mrz(lines, best.format)
    return patched if patched is not None and _score(patched) >= _score(best) else best


def _names_field(zone: MRZ) -> str:
    if not zone.lines:
        return ""
    return zone.lines[2] if zone.format == "TD1" else zone.lines[0][5:]



def _zone_band(image) -> tuple[int, int, int, int, float, bool] | None:
    """The box (in `image` pixels) and line height of the lowest group of two or three long, evenly inked text
    lines of one height: where a machine-readable zone prints."""
    scale = min(1.0, 1200 / image.width)
    ink = _ink(image, round(image.width * scale))
    lines = _text_lines(ink)
    long = [line for line in lines if line[4] >= 12]  # length / height: a zone line is 20-30 heights long
    chains: list[list[tuple]] = []
    for line in long:
        previous = chains[-1][-1] if chains else None
        height = previous[3] - previous[1] if previous else 0
        if previous and line[1] - previous[3] <= 2.5 * height and 0.6 < (line[3] - line[1]) / height < 1.6:
            chains[-1].append(line)
        else:
            chains.append([line])
    chains = [chain for chain in chains if len(chain) >= 2]
    if not chains:
        return _merged_band(lines, scale)
    best = chains[-1][-3:]
    x0, y0 = min(l[0] for l in best), min(l[1] for l in best)
    x1, y1 = max(l[2] for l in best), max(l[3] for l in best)
    line_height = sum(l[3] - l[1] for l in best) / len(best)
    return (round(x0 / scale), round(y0 / scale), round(x1 / scale), round(y1 / scale), line_height / scale, False)


def _merged_band(lines, scale: float) -> tuple[int, int, int, int, float, bool] | None:
    """A zone whose lines ran into one another (a level a little off, a small card): one run of
    ink as tall as two or three lines of its own character pitch. Monospace capitals stand about
    1.2 pitches tall; the pitch is the run's length over a zone line's 30-44 characters."""
    for x0, y0, x1, y1, _, density in reversed(lines):
        cap = (x1 - x0) / 36 * 1.2
        # Characters ink a fifth or more of their lines' box; a page edge or shadow far less.
        if x1 - x0 >= 20 * (y1 - y0) / 3 and 1.6 <= (y1 - y0) / cap <= 4.5 and density >= 0.15:
            return (round(x0 / scale), round(y0 / scale), round(x1 / scale), round(y1 / scale), cap / scale, True)
    return None


def _text_lines(ink) -> list[tuple[int, int, int, int, float, float]]:
    """Lines of ink as (x0, y0, x1, y1, length in heights, share inked) for their longest run of characters."""
    width, height = ink.size
    data = ink.tobytes()
    counts = [data[y * width:(y + 1) * width].count(255) for y in range(height)]
    # Lines set close together never leave an empty row between them, only a thin one.
    ranked = sorted(counts)
    busy = ranked[int(0.9 * (height - 1))]
    # A photo's paper and desk edges, turned a little, ink a few pixels of every row: the quiet
    # quarter of the rows (gaps and margins on any document) says how much, and text must beat it.
    quiet = ranked[int(0.25 * (height - 1))]
    floor = max(2, width // 100, busy // 5, 2 * quiet)
    lines = []
    for y0, y1 in _runs(counts, floor):
        # Stray ink beside the text (a page edge, a shadow) can fill the gaps between two lines:
        # within a run, rows far below its own typical count still part it.
        typical = sorted(counts[y0:y1])[(y1 - y0) // 2]
        lines += [(y0 + a, y0 + b) for a, b in _runs(counts[y0:y1], max(floor, typical * 45 // 100))]
    out = []
    for y0, y1 in lines:
        h = y1 - y0
        columns = list(ink.crop((0, y0, width, y1)).resize((width, 1), Image.BOX).tobytes())
        inked = [x for x, v in enumerate(columns) if v > 8]
        if not inked:
            continue
        best = (inked[0], inked[0])
        run_start = previous = inked[0]
        for x in inked[1:] + [10 ** 9]:
            if x - previous > 0.8 * h:  # a gap wider than a character: a word space or a column
                if previous - run_start > best[1] - best[0]:
                    best = (run_start, previous)
                run_start = x
            previous = x
        filled = sum(1 for x in inked if best[0] <= x <= best[1]) / max(1, best[1] - best[0] + 1)
        if filled > 0.95:
            continue  # a rule, an edge or a shadow: characters leave gaps between them
        density = sum(columns[best[0]:best[1] + 1]) / (255 * max(1, best[1] - best[0] + 1))
        out.append((best[0], y0, best[1] + 1, y1, (best[1] - best[0]) / h, density))
    return out


def _runs(counts: list[int], floor: int) -> list[tuple[int, int]]:
    """Stretches of at least three consecutive rows whose count reaches `floor`."""
    runs, start = [], None
    for y, count in enumerate(counts + [0]):
        if count >= floor and start is None:
            start = y
        elif count < floor and start is not None:
            if y - start >= 3:
                runs.append((start, y))
            start = None
    return runs


def _pad(band, image) -> tuple[int, int, int, int]:
    x0, y0, x1, y1, line_height = band[:5]
    margin = round(line_height)
    # Two lines found may be two of a card's three: the first sometimes merges with print above it.
    above = round(2.2 * line_height) if (y1 - y0) < 4 * line_height else margin
    return (max(0, x0 - margin), max(0, y0 - above), min(image.width, x1 + margin), min(image.height, y1 + margin))


def _enlarged(image, band, char_height: int):
    """Scale so a zone line is about `char_height` pixels tall (a whole page: about 2x)."""
    if band:
        factor = char_height / max(1.0, band[4])
    else:
        factor = max(1.0, 1400 / image.width)
    factor = min(factor, (MAX_ZONE_PIXELS / max(1, image.width * image.height)) ** 0.5)
    if abs(factor - 1) < 0.1:
        return image
    return image.resize((max(1, round(image.width * factor)), max(1, round(image.height * factor))), Image.LANCZOS)
