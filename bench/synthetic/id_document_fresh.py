"""Identity documents, fresh development layouts (added 2026-12-02, a fifth round): an Italian, Dutch or
Polish national identity card (TD1, the copy shows both sides side by side) and an Indian, Brazilian or
Turkish passport (TD3) with given names of several words and, for Turkey, a personal number in the
zone's optional field.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.

Both reuse id_document.py's zone and card drawing. What a phone sees is harder than there: the card
tilted away from the camera (drawn sheared, as a perspective foreshortens it), small in the frame, or
in low contrast (pale ink on a grey-green card under dim light); a copy is sometimes a pale one too.
Document numbers shorter than nine characters fill the zone's number field with '<', which the
truth leaves out.
"""
import random
from dataclasses import replace
from datetime import date

from reportlab.lib.units import mm

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.id_document import (CARD, PASSPORT_PAGE, Card, check_digit, draft, holder, names_field,
                                         truth, td3, yymmdd)

# Invented citizens of the countries whose papers these layouts draw: (given names, family name, sex).
CITIZENS = {
    "ITA": (("Giulia Maria", "Esposito", "F"), ("Marco", "De Luca", "M"), ("Francesca", "Bianchi", "F"),
            ("Lorenzo Giovanni", "Marchetti", "M")),
    "NLD": (("Johanna Maria", "van der Meer", "F"), ("Pieter", "de Vries", "M"), ("Sanne", "Bakker", "F"),
            ("Daan Willem", "Visser", "M")),
    "POL": (("Katarzyna", "Zielińska", "F"), ("Łukasz Piotr", "Wójcik", "M"), ("Agnieszka Maria", "Lewandowska", "F"),
            ("Tomasz", "Kamiński", "M")),
    "IND": (("Venkata Lakshmi", "Reddy", "F"), ("Mohammed Faizal", "Khan", "M"), ("Anjali", "Krishnamurthy", "F"),
            ("Sai Kiran Kumar", "Gudivada", "M")),
    "BRA": (("Ana Carolina", "Ribeiro da Silva", "F"), ("João Pedro", "Albuquerque Souza", "M"),
            ("Maria Eduarda", "Costa Ferreira", "F"), ("Rafael", "Nascimento", "M")),
    "TUR": (("Ayşe Nur", "Çelik", "F"), ("Mehmet Emin", "Karaoğlu", "M"), ("Zeynep Betül", "Arslan", "F"),
            ("Emre Can", "Öztürk", "M")),
}
MONTHS_NL = ("JAN", "FEB", "MAA", "APR", "MEI", "JUN", "JUL", "AUG", "SEP", "OKT", "NOV", "DEC")
MONTHS_PT = ("JAN", "FEV", "MAR", "ABR", "MAI", "JUN", "JUL", "AGO", "SET", "OUT", "NOV", "DEZ")
MONTHS_EN = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
BIRTH_PLACES = {"ITA": ("ROMA (RM)", "NAPOLI (NA)", "TORINO (TO)"), "NLD": ("Utrecht", "Rotterdam", "Groningen"),
                "POL": ("KRAKÓW", "WROCŁAW", "POZNAŃ"), "IND": ("HYDERABAD, TELANGANA", "CHENNAI, TAMIL NADU", "PUNE"),
                "BRA": ("SÃO PAULO/SP", "RECIFE/PE", "CURITIBA/PR"), "TUR": ("İSTANBUL", "ANKARA", "İZMİR")}


class TiltedCard(Card):
    """A card as id_document.Card draws it, also sheared (a card tilted away from the camera) and
    printed in an ink of any grey (a low-contrast photo or a pale copy)."""

    def __init__(self, sheet: Sheet, size, centre, angle: float = 0.0, scale: float = 1.0, shear: float = 0.0,
                 ink: float = 0.0):
        self.sheet, self.canvas, self.size, self.ink = sheet, sheet.canvas, size, ink
        self.canvas.saveState()
        self.canvas.translate(centre[0] * mm, (297.0 - centre[1]) * mm)
        self.canvas.rotate(angle)
        self.canvas.skew(shear, 0)
        self.canvas.scale(scale, scale * (1 - abs(shear) / 90))
        self.canvas.translate(-size[0] / 2 * mm, size[1] / 2 * mm)

    def text(self, x: float, y: float, value: str, size: float = 6.0, font: str = "DejaVuSans",
             gray: float = 0.0) -> None:
        super().text(x, y, value, size, font, gray=max(gray, self.ink))

    def text_right(self, x: float, y: float, value: str, size: float = 6.0, font: str = "DejaVuSans") -> None:
        self.canvas.setFillGray(self.ink)
        super().text_right(x, y, value, size, font)
        self.canvas.setFillGray(0)

    def photo_box(self, x: float, y: float, w: float, h: float) -> None:
        """A portrait: a grey ground, a darker head and shoulders, as a printed photo shows."""
        super().photo_box(x, y, w, h)
        self.canvas.setFillGray(max(0.45, self.ink))
        self.canvas.circle((x + w / 2) * mm, -(y + h * 0.4) * mm, w * 0.24 * mm, fill=1, stroke=0)
        self.canvas.ellipse((x + w * 0.12) * mm, -(y + h) * mm, (x + w * 0.88) * mm, -(y + h * 0.68) * mm,
                            fill=1, stroke=0)
        self.canvas.setFillGray(0)


def hard_placement(rng: random.Random, spec: Spec, size) -> dict:
    """id_document.placement's copy, or a harder photo: any turn, tilted, often small, often dim."""
    if not spec.single_page:
        pale = rng.random() < 0.3  # a pale photocopy
        return {"centre": (105.0, 30 + size[1] / 2), "angle": 0.0, "scale": 1.0, "shear": 0.0,
                "ink": rng.uniform(0.3, 0.42) if pale else 0.0}
    angle = rng.choice((0, 90, 180, 270)) + rng.uniform(-12, 12)
    scale = rng.uniform(0.6, 0.85) if rng.random() < 0.5 else rng.uniform(1.3, 1.9)
    scale = min(scale, 180 / max(size))
    return {"centre": (rng.uniform(90, 120), rng.uniform(120, 175)), "angle": angle, "scale": scale,
            "shear": rng.uniform(-14, 14), "ink": rng.uniform(0.25, 0.4) if rng.random() < 0.5 else 0.0}


def citizen(rng: random.Random, country: str):
    given, family, sex = rng.choice(CITIZENS[country])
    street, city = fake._address(rng)
    return fake.Person(given, family, "", street, city), sex


def td1_optional(code: str, country: str, h, optional1: str = "", optional2: str = "") -> list[str]:
    """TD1 with the optional data fields filled: line 1 after the number's check digit, line 2 before
    the composite check digit."""
    line1 = f"{code:<<2}{country:<<3}{h.number}{check_digit(h.number)}{optional1}".ljust(30, "<")[:30]
    line2 = (f"{yymmdd(h.birth)}{check_digit(yymmdd(h.birth))}{h.sex}{yymmdd(h.expiry)}"
             f"{check_digit(yymmdd(h.expiry))}{h.nationality:<<3}{optional2}").ljust(29, "<")[:29]
    composite = line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29]
    return [line1, line2 + check_digit(composite), names_field(h.person.family, h.person.given, 30)]


def _digits(rng: random.Random, count: int) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(count))


def _letters(rng: random.Random, count: int, alphabet: str = "ABCDEFGHJKLMNPRSTUVWXYZ") -> str:
    return "".join(rng.choice(alphabet) for _ in range(count))


@layout("id_document", "L7", DEVELOPMENT)
def eu_card_td1(rng: random.Random, spec: Spec) -> Draft:
    """An Italian CIE ('C<ITA', number 'CA12345BC', labels 'COGNOME / SURNAME', dates 12.03.1985, the
    place of birth with the date), a Dutch card ('I<NLD', number 'IX7R2K4P1', the BSN as 'Persoonsnummer'
    in line 1's optional field, dates '12 MAA/MAR 1985') or a Polish one ('IDPOL', number 'ZRA123456',
    the PESEL in the optional field, 'PŁEĆ / SEX' K or M): on a copy the front and the back side by
    side, as a photo only the back."""
    country = rng.choice(("ITA", "NLD", "POL"))
    person, sex = citizen(rng, country)
    h = replace(holder(rng, nationality=country), person=person, sex=sex)
    code, optional1 = {"ITA": ("C", ""), "NLD": ("I", ""), "POL": ("ID", "")}[country]
    if country == "ITA":
        number = f"CA{_digits(rng, 5)}{_letters(rng, 2)}"
    elif country == "NLD":
        number = _letters(rng, 2) + "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(6)) + \
            str(rng.randint(0, 9))
        optional1 = _digits(rng, 9)  # the BSN
    else:
        number = f"{_letters(rng, 3)}{_digits(rng, 6)}"
        optional1 = h.birth.strftime("%y%m%d") + _digits(rng, 5)  # the PESEL (no month shift: born before 2000)
    h = replace(h, number=number)
    lines = td1_optional(code, country, h, optional1)
    sheet = Sheet("dejavu", "Carta d'identità" if country == "ITA" else "Identity card")
    bold = "DejaVuSans-Bold"
    place = hard_placement(rng, spec, CARD)

    def dated(value: date) -> str:
        if country == "NLD":
            return f"{value.day:02d} {MONTHS_NL[value.month - 1]}/{MONTHS_EN[value.month - 1]} {value.year}"
        return value.strftime("%d.%m.%Y")

    if not spec.single_page:
        front = TiltedCard(sheet, CARD, **{**place, "centre": (56.0, 60.0)})
        front.outline(0.88)
        title = {"ITA": "REPUBBLICA ITALIANA · CARTA DI IDENTITÀ", "NLD": "KONINKRIJK DER NEDERLANDEN",
                 "POL": "RZECZPOSPOLITA POLSKA · DOWÓD OSOBISTY"}[country]
        front.text(4, 5, title, 5, bold)
        front.photo_box(4, 9, 21, 27)
        labels = {"ITA": (("COGNOME / SURNAME", person.family.upper()), ("NOME / NAME", person.given.upper()),
                          ("LUOGO E DATA DI NASCITA / PLACE AND DATE OF BIRTH",
                           f"{rng.choice(BIRTH_PLACES['ITA'])} {dated(h.birth)}"),
                          ("SESSO / SEX", sex), ("CITTADINANZA / NATIONALITY", "ITA"),
                          ("SCADENZA / EXPIRY", dated(h.expiry))),
                  "NLD": (("Naam / Surname", person.family), ("Voornamen / Given names", person.given),
                          ("Geboortedatum / Date of birth", dated(h.birth)),
                          ("Geslacht / Sex", "V/F" if sex == "F" else "M/M"),
                          ("Nationaliteit / Nationality", "Nederlandse"),
                          ("Geldig tot / Date of expiry", dated(h.expiry))),
                  "POL": (("NAZWISKO / SURNAME", person.family.upper()), ("IMIONA / GIVEN NAMES", person.given.upper()),
                          ("DATA URODZENIA / DATE OF BIRTH", dated(h.birth)),
                          ("PŁEĆ / SEX", "K" if sex == "F" else "M"), ("OBYWATELSTWO / NATIONALITY", "POLSKIE"),
                          ("TERMIN WAŻNOŚCI / EXPIRY DATE", dated(h.expiry)))}[country]
        for index, (label, value) in enumerate(labels):
            front.text(28, 10 + index * 6.6, label, 3.6, gray=0.35)
            front.text(28, 12.8 + index * 6.6, value, 6.2, bold)
        front.text_right(81, 5, number, 6.5, bold)
        if country == "NLD":
            front.text(4, 41, "Persoonsnummer / Personal No.", 3.6, gray=0.35)
            front.text(4, 44, f"{optional1[:4]}.{optional1[4:6]}.{optional1[6:]}", 6, bold)
        front.done()
        place = {**place, "centre": (152.0, 60.0)}
    back = TiltedCard(sheet, CARD, **place)
    back.outline(0.9)
    if country == "ITA":
        back.text(4, 6, f"INDIRIZZO DI RESIDENZA / RESIDENCE: {person.street.upper()}, {person.city.upper()} (DE)", 3.8)
        back.text(4, 10, f"EMISSIONE / ISSUING: {h.issued.strftime('%d.%m.%Y')}  COMUNE DI "
                         f"{rng.choice(('ROMA', 'MILANO', 'BOLOGNA'))}", 3.8)
    elif country == "NLD":
        back.text(4, 6, f"Afgiftedatum / Date of issue {dated(h.issued)}  Burgemeester van {rng.choice(('Utrecht', 'Leiden'))}", 3.8)
    else:
        back.text(4, 6, f"DATA WYDANIA / DATE OF ISSUE {dated(h.issued)}  ORGAN WYDAJĄCY: PREZYDENT MIASTA "
                        f"{rng.choice(('KRAKOWA', 'POZNANIA'))}", 3.8)
    back.zone(lines, rng.choice(("mono", "mono-bold")))
    back.done()
    return draft(sheet, truth(code, country, h, "TD1"), person, zone=lines)


@layout("id_document", "L8", DEVELOPMENT)
def non_eu_passport_td3(rng: random.Random, spec: Spec) -> Draft:
    """An Indian ('P<IND', number 'Z1234567' of eight characters, 'Given Name(s)' of two or three words,
    dates 12/03/1985, place of birth and file number), a Brazilian ('P<BRA', 'FX123456', labels
    'SOBRENOME / SURNAME', dates '12 MAR/MAR 1985') or a Turkish passport ('P<TUR', 'U12345678', the
    11-digit T.C. Kimlik No. in the zone's optional field and as 'Kişisel No / Personal No', labels in
    Turkish, English and French, sex 'K / F' or 'E / M'): the data page only, photo on the left."""
    country = rng.choice(("IND", "BRA", "TUR"))
    person, sex = citizen(rng, country)
    h = replace(holder(rng, nationality=country), person=person, sex=sex)
    personal = ""
    if country == "IND":
        number = f"{_letters(rng, 1)}{_digits(rng, 7)}"
    elif country == "BRA":
        number = f"{_letters(rng, 2)}{_digits(rng, 6)}"
    else:
        number = f"U{_digits(rng, 8)}"
        personal = str(rng.randint(1, 9)) + _digits(rng, 10)
    h = replace(h, number=number)
    lines = td3("P", country, replace(h, number=number.ljust(9, "<")), personal=personal)
    sheet = Sheet("dejavu", "Passport")
    bold = "DejaVuSans-Bold"
    card = TiltedCard(sheet, PASSPORT_PAGE, **hard_placement(rng, spec, PASSPORT_PAGE))
    card.outline(0.93, 2)

    def dated(value: date) -> str:
        if country == "IND":
            return value.strftime("%d/%m/%Y")
        if country == "BRA":
            return f"{value.day:02d} {MONTHS_PT[value.month - 1]}/{MONTHS_EN[value.month - 1]} {value.year}"
        return value.strftime("%d.%m.%Y")

    title = {"IND": "REPUBLIC OF INDIA", "BRA": "REPÚBLICA FEDERATIVA DO BRASIL",
             "TUR": "TÜRKİYE CUMHURİYETİ / REPUBLIC OF TÜRKİYE"}[country]
    card.text(5, 6, title, 6.5, bold)
    card.photo_box(5, 12, 28, 36)
    if country == "IND":
        fields = (("Type", "P"), ("Country Code", "IND"), ("Passport No.", number), ("Surname", person.family.upper()),
                  ("Given Name(s)", person.given.upper()), ("Nationality", "INDIAN"),
                  ("Sex", sex), ("Date of Birth", dated(h.birth)),
                  ("Place of Birth", rng.choice(BIRTH_PLACES["IND"])), ("Place of Issue", rng.choice(("HYDERABAD", "CHENNAI", "FRANKFURT"))),
                  ("Date of Issue", dated(h.issued)), ("Date of Expiry", dated(h.expiry)))
    elif country == "BRA":
        fields = (("TIPO / TYPE", "P"), ("PAÍS EMISSOR / ISSUING COUNTRY", "BRA"), ("PASSAPORTE Nº / PASSPORT No.", number),
                  ("SOBRENOME / SURNAME", person.family.upper()), ("NOME / GIVEN NAMES", person.given.upper()),
                  ("NACIONALIDADE / NATIONALITY", "BRASILEIRO(A)"), ("SEXO / SEX", sex),
                  ("DATA DE NASCIMENTO / DATE OF BIRTH", dated(h.birth)),
                  ("NATURALIDADE / PLACE OF BIRTH", rng.choice(BIRTH_PLACES["BRA"])),
                  ("DATA DE EXPEDIÇÃO / DATE OF ISSUE", dated(h.issued)),
                  ("VÁLIDO ATÉ / DATE OF EXPIRY", dated(h.expiry)), ("AUTORIDADE / AUTHORITY", "DPF"))
    else:
        fields = (("Tipi / Type / Type", "P"), ("Ülke kodu / Country code", "TUR"), ("Pasaport No / Passport No", number),
                  ("Soyadı / Surname / Nom", person.family.upper()),
                  ("Adı / Given name(s) / Prénom(s)", person.given.upper()),
                  ("Uyruğu / Nationality / Nationalité", "T.C."),
                  ("Cinsiyeti / Sex / Sexe", "K / F" if sex == "F" else "E / M"),
                  ("Doğum tarihi / Date of birth", dated(h.birth)), ("Doğum yeri / Place of birth", rng.choice(BIRTH_PLACES["TUR"])),
                  ("Kişisel No / Personal No", personal), ("Veriliş tarihi / Date of issue", dated(h.issued)),
                  ("Geçerlilik tarihi / Date of expiry", dated(h.expiry)))
    for index, (label, value) in enumerate(fields):
        x = 37 if index < 6 else 82
        y = 12 + (index % 6) * 6.4
        card.text(x, y, label, 3.4, gray=0.35)
        card.text(x, y + 3, value, 5.8, bold)
    card.zone(lines, rng.choice(("mono", "mono-bold", "Courier-Bold")))
    card.done()
    return draft(sheet, truth("P", country, h, "TD3"), person, zone=lines)
