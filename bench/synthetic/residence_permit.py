"""Residence permits: the German eAT card (TD1, "AR"), a national D visa sticker (MRV-B), development layouts.

Drawn with the card helpers of `id_document`; the holders are non-EU nationals, the issuing
state is Germany (D), and every permit is valid on the as-of day.
"""
import random

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic._sheet import Sheet
from bench.synthetic.id_document import CARD, Card, EU, draft, holder, placement, td1, truth, visa

VISA_STICKER = (120.0, 80.0)  # mm, ICAO MRV-B sticker on a passport page
TITLES = ("Aufenthaltserlaubnis", "Blaue Karte EU", "Niederlassungserlaubnis", "ICT-Karte")


def non_eu_holder(rng: random.Random):
    h = holder(rng)
    while h.nationality in EU:
        h = holder(rng)
    return h


@layout("residence_permit", "L1", DEVELOPMENT)
def eat_card(rng: random.Random, spec: Spec) -> Draft:
    """The German electronic residence title (eAT): AUFENTHALTSTITEL front, zone on the back."""
    h = non_eu_holder(rng)
    lines = td1("AR", "D", h)
    sheet = Sheet("helvetica", "Aufenthaltstitel")
    place = placement(rng, spec, CARD)
    if not spec.single_page:
        front = Card(sheet, CARD, **place)
        front.outline(0.9)
        front.text(20, 6, "AUFENTHALTSTITEL", 8, "Helvetica-Bold")
        front.text(62, 6, h.number, 7, "Courier-Bold")
        front.photo_box(4, 10, 20, 26)
        front.field(28, 11, "Name", h.person.family.upper())
        front.field(28, 18, "Vorname(n)", h.person.given.upper())
        front.field(28, 25, "Gültig bis", h.expiry.strftime("%d-%m-%Y"))
        front.field(28, 32, "Art des Titels", rng.choice(TITLES).upper())
        front.text(60, 50, "RESIDENCE PERMIT", 5)
        front.done()
        place = {**place, "centre": (place["centre"][0], place["centre"][1] + CARD[1] + 8)}
    back = Card(sheet, CARD, **place)
    back.outline(0.92)
    back.field(4, 6, "Geburtsort/-datum", h.birth.strftime("%d-%m-%Y"))
    back.field(4, 13, "Staatsangehörigkeit", h.nationality)
    back.field(4, 20, "Geschlecht", h.sex)
    back.field(45, 6, "Anschrift", h.person.city.upper())
    back.zone(lines, "mono")
    back.done()
    return draft(sheet, truth("AR", "D", h, "TD1"), h.person, zone=lines)


@layout("residence_permit", "L2", DEVELOPMENT)
def national_visa(rng: random.Random, spec: Spec) -> Draft:
    """A national D visa sticker (MRV-B, 36 characters a line): VISUM, type D, remarks, the zone."""
    h = non_eu_holder(rng)
    lines = visa("VD", "D", h, 36)
    sheet = Sheet("helvetica", "Visum")
    card = Card(sheet, VISA_STICKER, **placement(rng, spec, VISA_STICKER))
    card.outline(0.93, 1.5)
    card.text(30, 8, "VISUM", 12, "Helvetica-Bold")
    card.text(85, 8, h.number, 9, "Courier-Bold")
    for index, (label, value) in enumerate((
            ("GÜLTIG FÜR / VALID FOR", "DEUTSCHLAND"), ("VOM / FROM", h.issued.strftime("%d-%m-%y")),
            ("BIS / UNTIL", h.expiry.strftime("%d-%m-%y")), ("ART DES VISUMS / TYPE OF VISA", "D"),
            ("NAME, VORNAME / SURNAME, NAME", f"{h.person.family.upper()}, {h.person.given.upper()}"),
            ("ANMERKUNGEN / REMARKS", "ERWERBSTÄTIGKEIT GESTATTET"))):
        card.field(30, 14 + index * 7, label, value, 6.5)
    card.photo_box(4, 14, 22, 30)
    card.zone(lines, "mono")
    card.done()
    return draft(sheet, truth("VD", "D", h, "TD2"), h.person, zone=lines)


@layout("residence_permit", "L3", DEVELOPMENT)
def eat_card_english(rng: random.Random, spec: Spec) -> Draft:
    """An eAT photographed on its back alone, with English wording around the zone."""
    h = non_eu_holder(rng)
    lines = td1("AR", "D", h)
    sheet = Sheet("dejavu", "Residence permit")
    card = Card(sheet, CARD, **placement(rng, spec, CARD))
    card.outline(0.95)
    card.text(4, 6, "RESIDENCE PERMIT  ·  FEDERAL REPUBLIC OF GERMANY", 5.5, "Helvetica-Bold")
    card.field(4, 12, "Date of birth", h.birth.strftime("%d.%m.%Y"))
    card.field(40, 12, "Nationality", h.nationality)
    card.field(4, 19, "Remarks", "EMPLOYMENT PERMITTED")
    card.zone(lines, "mono-bold")
    card.done()
    return draft(sheet, truth("AR", "D", h, "TD1"), h.person, zone=lines)


# Added for issue 9's classifier work: permits worded unlike L1-L3, so that the classifier has to
# know a permit by other words (another state's language, the legal basis, the conditions) and by
# a card code that identity cards use too.

@layout("residence_permit", "L7", DEVELOPMENT)
def foreign_card(rng: random.Random, spec: Spec) -> Draft:
    """Another member state's residence card (Spanish TIE) in Spanish and English, a TD1 zone whose
    document code is the plain card code 'I' that identity cards use too."""
    h = non_eu_holder(rng)
    lines = td1("I", "ESP", h)
    sheet = Sheet("dejavu", "Tarjeta")
    place = placement(rng, spec, CARD)
    if not spec.single_page:
        front = Card(sheet, CARD, **place)
        front.outline(0.9)
        front.text(4, 5, "ESPAÑA  ·  TARJETA DE IDENTIDAD DE EXTRANJERO", 5, "Helvetica-Bold")
        front.text(4, 9, "PERMISO DE RESIDENCIA Y TRABAJO / RESIDENCE AND WORK", 4.5)
        front.photo_box(4, 12, 20, 26)
        front.field(28, 13, "APELLIDOS / SURNAME", h.person.family.upper())
        front.field(28, 20, "NOMBRE / NAME", h.person.given.upper())
        front.field(28, 27, "NACIONALIDAD", h.nationality)
        front.field(60, 27, "VALIDEZ", h.expiry.strftime("%d %m %Y"))
        front.field(28, 34, "N.I.E.", h.number)
        front.done()
        place = {**place, "centre": (place["centre"][0], place["centre"][1] + CARD[1] + 8)}
    back = Card(sheet, CARD, **place)
    back.outline(0.92)
    back.field(4, 6, "LUGAR DE NACIMIENTO", h.person.city.upper())
    back.field(45, 6, "FECHA DE NACIMIENTO", h.birth.strftime("%d %m %Y"))
    back.field(4, 13, "AUTORIZA A TRABAJAR", "SI")
    back.zone(lines, "mono")
    back.done()
    return draft(sheet, truth("I", "ESP", h, "TD1"), h.person, zone=lines)


@layout("residence_permit", "L8", DEVELOPMENT)
def eat_back_conditions(rng: random.Random, spec: Spec) -> Draft:
    """The back of a German eAT alone, German only: the legal basis ('§ 18b Abs. 1 AufenthG') and
    its conditions under 'Nebenbestimmungen', no title word anywhere."""
    h = non_eu_holder(rng)
    lines = td1("AR", "D", h)
    sheet = Sheet("helvetica", "Rückseite")
    card = Card(sheet, CARD, **placement(rng, spec, CARD))
    card.outline(0.94)
    card.field(4, 6, "Nebenbestimmungen", rng.choice(("Beschäftigung erlaubt", "Erwerbstätigkeit gestattet",
                                                      "Selbständige Tätigkeit gestattet")).upper())
    card.field(4, 13, "Anmerkungen", f"§ {rng.choice(('18a', '18b', '19c', '21', '9'))} AUFENTHG")
    card.field(50, 6, "Geburtstag", h.birth.strftime("%d.%m.%Y"))
    card.field(50, 13, "Staatsang.", h.nationality)
    card.zone(lines, "mono-bold")
    card.done()
    return draft(sheet, truth("AR", "D", h, "TD1"), h.person, zone=lines)
