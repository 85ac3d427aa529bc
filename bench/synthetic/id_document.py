"""Passports and ID cards with a correct machine-readable zone (ICAO 9303 TD1, TD2, TD3), development layouts.

Also the card drawing and MRZ helpers that the residence permit modules use. The zone's check
digits are computed here, independently of the extractor. A text PDF or a scan shows the card
upright on an A4 copy, as a photocopy would; a photo shows it as a phone sees it: turned by a
quarter, a half or three quarters, a few degrees off level, and often small in the picture.
"""
import random
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from bench.synthetic import AS_OF, DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import DEJAVU, PAGE_H, Sheet

CARD = (85.6, 54.0)  # ID-1 card, mm
PASSPORT_PAGE = (125.0, 88.0)  # ID-3 data page, mm
# Where the persons come from: (ICAO code, English country name); EU citizens carry ID cards.
COUNTRIES = {"Sharma": "IND", "Kovalenko": "UKR", "García López": "ESP", "Zhang": "CHN", "Dubois": "FRA",
             "Okafor": "NGA", "Yilmaz": "TUR", "Nair": "IND", "Pereira": "PRT", "Kowalska": "POL",
             "O'Connor": "IRL", "Tanaka": "JPN", "Al-Hassan": "SYR", "Oliveira Santos": "BRA", "Martin": "FRA",
             "Haddad": "LBN", "Svensson": "SWE", "Novák": "CZE", "Nguyen": "VNM", "Rossi": "ITA", "Cohen": "ISR",
             "van den Berg": "NLD", "Mehta": "IND", "Mendoza": "MEX", "Sato": "JPN", "Andersson": "SWE",
             "Demir": "TUR", "Petrov": "BGR", "Nwosu": "NGA", "Kim": "KOR", "Dos Santos": "BRA", "Farouk": "EGY",
             "Wiśniewska": "POL", "Murphy": "IRL", "Fernández": "ARG", "Iyer": "IND"}
EU = {"ESP", "FRA", "PRT", "POL", "IRL", "SWE", "CZE", "ITA", "NLD", "BGR"}
TRANSLITERATIONS = {"Ä": "AE", "Ö": "OE", "Ü": "UE", "ß": "SS", "Å": "AA", "Æ": "AE", "Ø": "OE", "Œ": "OE"}
NUMBER_CHARS = "CFGHJKLMNPRTVWXYZ0123456789"  # German document numbers avoid letters that look like digits
MRZ_FONTS = {"mono": ("DejaVuSansMono", "DejaVuSansMono.ttf"), "mono-bold": ("DejaVuSansMono-Bold",
                                                                            "DejaVuSansMono-Bold.ttf")}


# --- the zone ----------------------------------------------------------------------------------

def check_digit(field: str) -> str:
    """ICAO 9303 Part 3, 4.9: weights 7, 3, 1; A-Z count 10-35, the filler 0."""
    total = 0
    for index, char in enumerate(field):
        value = int(char) if char.isdigit() else (ord(char) - 55 if char.isalpha() else 0)
        total += value * (7, 3, 1)[index % 3]
    return str(total % 10)


def mrz_name(text: str) -> str:
    """A name as the zone writes it: upper case A-Z, umlauts spelt out, accents dropped, other marks '<'."""
    upper = "".join(TRANSLITERATIONS.get(c, c) for c in text.upper())
    plain = "".join(c for c in unicodedata.normalize("NFKD", upper) if not unicodedata.combining(c))
    plain = plain.replace("'", "").replace("Ł", "L")
    return "".join(c if "A" <= c <= "Z" else "<" for c in plain)


def names_field(family: str, given: str, width: int) -> str:
    return (mrz_name(family) + "<<" + mrz_name(given) + "<" * width)[:width]


def yymmdd(value: date) -> str:
    return value.strftime("%y%m%d")


@dataclass(frozen=True)
class Holder:
    person: object  # _fake.Person
    nationality: str
    birth: date
    sex: str
    number: str
    expiry: date
    issued: date


def holder(rng: random.Random, nationality: str | None = None) -> Holder:
    person = fake.person(rng)
    nationality = nationality or COUNTRIES.get(person.family, "IND")
    birth = date(rng.randint(1965, 2001), rng.randint(1, 12), rng.randint(1, 28))
    years = rng.choice((5, 6, 10))
    # Issued before the as-of day, valid well after it: a document current on AS_OF.
    issued = AS_OF - timedelta(days=rng.randint(60, 365 * (years - 1)))
    expiry = date(issued.year + years, issued.month, min(issued.day, 28)) - timedelta(days=1)
    if expiry <= AS_OF:
        expiry = AS_OF + timedelta(days=rng.randint(200, 2000))
    number = "".join(rng.choice(NUMBER_CHARS) for _ in range(9))
    return Holder(person, nationality, birth, rng.choice("MF"), number, expiry, issued)


def td1(code: str, country: str, h: Holder) -> list[str]:
    line1 = f"{code:<<2}{country:<<3}{h.number}{check_digit(h.number)}".ljust(30, "<")
    line2 = (f"{yymmdd(h.birth)}{check_digit(yymmdd(h.birth))}{h.sex}{yymmdd(h.expiry)}"
             f"{check_digit(yymmdd(h.expiry))}{h.nationality:<<3}").ljust(29, "<")
    composite = line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29]
    return [line1, line2 + check_digit(composite), names_field(h.person.family, h.person.given, 30)]


def td2(code: str, country: str, h: Holder) -> list[str]:
    line1 = f"{code:<<2}{country:<<3}" + names_field(h.person.family, h.person.given, 31)
    line2 = (f"{h.number}{check_digit(h.number)}{h.nationality:<<3}{yymmdd(h.birth)}{check_digit(yymmdd(h.birth))}"
             f"{h.sex}{yymmdd(h.expiry)}{check_digit(yymmdd(h.expiry))}").ljust(35, "<")
    composite = line2[0:10] + line2[13:20] + line2[21:35]
    return [line1, line2 + check_digit(composite)]


def td3(code: str, country: str, h: Holder, personal: str = "") -> list[str]:
    line1 = f"{code:<<2}{country:<<3}" + names_field(h.person.family, h.person.given, 39)
    optional = personal.ljust(14, "<")[:14]
    line2 = (f"{h.number}{check_digit(h.number)}{h.nationality:<<3}{yymmdd(h.birth)}{check_digit(yymmdd(h.birth))}"
             f"{h.sex}{yymmdd(h.expiry)}{check_digit(yymmdd(h.expiry))}{optional}{check_digit(optional)}")
    composite = line2[0:10] + line2[13:20] + line2[21:43]
    return [line1, line2 + check_digit(composite)]


def visa(code: str, country: str, h: Holder, width: int) -> list[str]:
    """MRV-A (44) or MRV-B (36): like TD3/TD2, without a composite check digit."""
    line1 = f"{code:<<2}{country:<<3}" + names_field(h.person.family, h.person.given, width - 5)
    line2 = (f"{h.number}{check_digit(h.number)}{h.nationality:<<3}{yymmdd(h.birth)}{check_digit(yymmdd(h.birth))}"
             f"{h.sex}{yymmdd(h.expiry)}{check_digit(yymmdd(h.expiry))}").ljust(width, "<")
    return [line1, line2]


def truth(code: str, country: str, h: Holder, fmt: str) -> dict:
    """The fields as the extractor writes them (names with single spaces, ISO dates)."""
    return {"document_code": code.rstrip("<"), "issuing_country": country, "document_number": h.number,
            "surname": mrz_name(h.person.family).replace("<", " ").strip(),
            "given_names": " ".join(part for part in mrz_name(h.person.given).split("<") if part),
            "nationality": h.nationality, "birth_date": h.birth.isoformat(), "sex": h.sex,
            "expiry_date": h.expiry.isoformat(), "mrz_format": fmt, "mrz_valid": True}


# --- drawing a card ------------------------------------------------------------------------------

class Card:
    """A card or passport page drawn on an A4 sheet at any position, turn and scale; x and y in mm
    from the card's own top-left corner."""

    def __init__(self, sheet: Sheet, size: tuple[float, float], centre: tuple[float, float], angle: float = 0.0,
                 scale: float = 1.0):
        self.sheet, self.canvas, self.size = sheet, sheet.canvas, size
        self.canvas.saveState()
        self.canvas.translate(centre[0] * mm, (PAGE_H - centre[1]) * mm)
        self.canvas.rotate(angle)
        self.canvas.scale(scale, scale)
        self.canvas.translate(-size[0] / 2 * mm, size[1] / 2 * mm)

    def outline(self, shade: float = 0.93, radius: float = 3.0) -> None:
        self.canvas.setFillGray(shade)
        self.canvas.setLineWidth(0.6)
        self.canvas.roundRect(0, -self.size[1] * mm, self.size[0] * mm, self.size[1] * mm, radius * mm, fill=1)
        self.canvas.setFillGray(0)

    def photo_box(self, x: float, y: float, w: float, h: float) -> None:
        self.canvas.setFillGray(0.75)
        self.canvas.rect(x * mm, -(y + h) * mm, w * mm, h * mm, fill=1, stroke=0)
        self.canvas.setFillGray(0)

    def text(self, x: float, y: float, value: str, size: float = 6.0, font: str = "Helvetica",
             gray: float = 0.0) -> None:
        self.canvas.setFillGray(gray)
        self.canvas.setFont(font, size)
        self.canvas.drawString(x * mm, -y * mm, value)
        self.canvas.setFillGray(0)

    def text_right(self, x: float, y: float, value: str, size: float = 6.0, font: str = "Helvetica") -> None:
        self.canvas.setFont(font, size)
        self.canvas.drawRightString(x * mm, -y * mm, value)

    def field(self, x: float, y: float, label: str, value: str, size: float = 7.0) -> None:
        """A small grey label with its value under it, as on every modern card."""
        self.text(x, y, label, 4.2, gray=0.35)
        self.text(x, y + size * 0.42, value, size, "Helvetica-Bold")

    def zone(self, lines: list[str], font: str = "mono", bottom: float = 3.0) -> None:
        """The zone across the card's foot, sized so each line fills the width as OCR-B would."""
        name, path = MRZ_FONTS.get(font, (font, None))  # a TrueType file, or a built-in font (Courier-Bold)
        if path and name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(DEJAVU / path)))
        width = self.size[0] - 8
        size = width * mm / pdfmetrics.stringWidth(lines[0], name, 1)
        leading = size * 1.25 / mm
        y = self.size[1] - bottom - leading * (len(lines) - 1)
        for line in lines:
            self.text(4, y, line, size, name)
            y += leading

    def done(self) -> None:
        self.canvas.restoreState()


def placement(rng: random.Random, spec: Spec, size: tuple[float, float]) -> dict:
    """Upright at the top of an A4 copy; as a photo, turned, a little off level and often small."""
    if not spec.single_page:
        return {"centre": (105.0, 30 + size[1] / 2), "angle": 0.0, "scale": 1.0}
    angle = rng.choice((0, 90, 180, 270)) + rng.uniform(-8, 8)
    # Mostly filling the frame; one photo in three taken from afar, the card small in it.
    scale = rng.uniform(0.8, 1.1) if rng.random() < 0.33 else rng.uniform(1.5, 2.1)
    scale = min(scale, 190 / max(size))  # the card stays on the page, however it is turned
    return {"centre": (rng.uniform(100, 110), rng.uniform(140, 160)), "angle": angle, "scale": scale}


def draft(sheet: Sheet, fields: dict, person: object, **details) -> Draft:
    return Draft(pdf=sheet.pdf(), fields=fields, person=person.name, details=details)


# --- development layouts -------------------------------------------------------------------------

@layout("id_document", "L1", DEVELOPMENT)
def passport_td3(rng: random.Random, spec: Spec) -> Draft:
    """A passport's data page: trilingual labels in columns beside the photo, a TD3 zone."""
    h = holder(rng)
    lines = td3("P", h.nationality, h, personal=str(rng.randint(10 ** 9, 10 ** 10 - 1)) if rng.random() < 0.5 else "")
    sheet = Sheet("helvetica", "Passport")
    card = Card(sheet, PASSPORT_PAGE, **placement(rng, spec, PASSPORT_PAGE))
    card.outline(0.95, 2)
    card.text(5, 7, "PASSPORT / PASSEPORT", 8, "Helvetica-Bold")
    card.photo_box(5, 12, 30, 38)
    for index, (label, value) in enumerate((
            ("Type / Type", "P"), ("Surname / Nom", h.person.family.upper()),
            ("Given names / Prénoms", h.person.given.upper()), ("Nationality / Nationalité", h.nationality),
            ("Date of birth / Date de naissance", h.birth.strftime("%d %b %Y").upper()),
            ("Sex / Sexe", h.sex), ("Date of expiry / Date d'expiration", h.expiry.strftime("%d %b %Y").upper()))):
        card.field(40, 13 + index * 6.5, label, value, 6.5)
    card.field(90, 13, "Passport No. / No. du passeport", h.number, 6.5)
    card.zone(lines, "mono")
    card.done()
    return draft(sheet, truth("P", h.nationality, h, "TD3"), h.person, zone=lines)


@layout("id_document", "L2", DEVELOPMENT)
def id_card_td1(rng: random.Random, spec: Spec) -> Draft:
    """An EU national identity card, front and back side by side on the copy; the zone on the back."""
    h = holder(rng, nationality=rng.choice(sorted(EU)))
    lines = td1("ID" if rng.random() < 0.5 else "I", h.nationality, h)
    code = lines[0][:2].rstrip("<")
    sheet = Sheet("helvetica", "Identity card")
    place = placement(rng, spec, CARD)
    if not spec.single_page:  # a copy shows both sides; a photo shows the back, where the zone is
        front = Card(sheet, CARD, **place)
        front.outline(0.9)
        front.text(4, 6, "IDENTITY CARD", 7, "Helvetica-Bold")
        front.photo_box(4, 10, 22, 28)
        front.field(30, 11, "Surname", h.person.family.upper())
        front.field(30, 19, "Given names", h.person.given.upper())
        front.field(30, 27, "Date of birth", h.birth.strftime("%d.%m.%Y"))
        front.field(30, 35, "Nationality", h.nationality)
        front.field(62, 35, "Expiry", h.expiry.strftime("%d.%m.%Y"))
        front.field(62, 6, "No.", h.number, 6)
        front.done()
        place = {**place, "centre": (place["centre"][0], place["centre"][1] + CARD[1] + 8)}
    back = Card(sheet, CARD, **place)
    back.outline(0.92)
    back.text(4, 8, "Address: " + h.person.street + ", " + h.person.city, 5.5)
    back.zone(lines, "mono")
    back.done()
    return draft(sheet, truth(code, h.nationality, h, "TD1"), h.person, zone=lines)


@layout("id_document", "L3", DEVELOPMENT)
def id_card_td2(rng: random.Random, spec: Spec) -> Draft:
    """An older TD2-sized identity card: labels left of their values, a two-line zone."""
    h = holder(rng)
    size = (105.0, 74.0)
    lines = td2("I", h.nationality, h)
    sheet = Sheet("dejavu", "Identity card")
    card = Card(sheet, size, **placement(rng, spec, size))
    card.outline(0.94)
    card.text(5, 7, f"IDENTITY CARD  {h.nationality}", 8, "Helvetica-Bold")
    for index, (label, value) in enumerate((("Name", h.person.family.upper()), ("Vorname", h.person.given.upper()),
                                            ("Geburtsdatum", h.birth.strftime("%d.%m.%Y")), ("Geschlecht", h.sex),
                                            ("Gültig bis", h.expiry.strftime("%d.%m.%Y")), ("Nr.", h.number))):
        card.text(6, 15 + index * 6, label, 5.5, gray=0.3)
        card.text(30, 15 + index * 6, value, 7, "Helvetica-Bold")
    card.photo_box(75, 12, 24, 30)
    card.zone(lines, "mono-bold")
    card.done()
    return draft(sheet, truth("I", h.nationality, h, "TD2"), h.person, zone=lines)
