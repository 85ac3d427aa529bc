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
