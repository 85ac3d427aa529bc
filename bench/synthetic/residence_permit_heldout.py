"""Residence permits, held-out layouts: only ever measured on, never read while writing the MRZ reader."""
import random

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic._sheet import Sheet
from bench.synthetic.id_document import CARD, Card, draft, placement, td1, truth, visa
from bench.synthetic.residence_permit import non_eu_holder

PASSPORT_VISA_PAGE = (125.0, 88.0)


@layout("residence_permit", "L4", HELD_OUT)
def eat_back_courier(rng: random.Random, spec: Spec) -> Draft:
    """The back of an eAT with its remarks in German and English and a Courier zone."""
    h = non_eu_holder(rng)
    lines = td1("AR", "D", h)
    sheet = Sheet("times", "Aufenthaltstitel")
    card = Card(sheet, CARD, **placement(rng, spec, CARD))
    card.outline(0.9)
    card.text(4, 6, "ANMERKUNGEN / REMARKS", 5, "Times-Bold")
    card.text(4, 10, "BESCHÄFTIGUNG GESTATTET", 6, "Times-Roman")
    card.text(4, 14, f"WOHNORT {h.person.city.upper()}", 6, "Times-Roman")
    card.zone(lines, "Courier-Bold")
    card.done()
    return draft(sheet, truth("AR", "D", h, "TD1"), h.person, zone=lines)


@layout("residence_permit", "L5", HELD_OUT)
def schengen_visa_mrva(rng: random.Random, spec: Spec) -> Draft:
    """A visa on a full passport page (MRV-A, 44 characters a line), labels in three languages."""
    h = non_eu_holder(rng)
    lines = visa("VD", "D", h, 44)
    sheet = Sheet("dejavu", "Visum")
    card = Card(sheet, PASSPORT_VISA_PAGE, **placement(rng, spec, PASSPORT_VISA_PAGE))
    card.outline(0.94, 1)
    card.text(40, 9, "V I S U M", 13, "Helvetica-Bold")
    for index, (label, value) in enumerate((
            ("GÜLTIG FÜR / VALID FOR / VALABLE POUR", "BUNDESREPUBLIK DEUTSCHLAND"),
            ("VOM / FROM / DU", h.issued.strftime("%d.%m.%Y")), ("BIS / UNTIL / AU", h.expiry.strftime("%d.%m.%Y")),
            ("NAME, VORNAME / SURNAME, NAME", f"{h.person.family.upper()} {h.person.given.upper()}"),
            ("PASS-NR. / PASSPORT NUMBER", h.number))):
        card.field(32, 16 + index * 8, label, value, 6.5)
    card.photo_box(4, 16, 24, 32)
    card.zone(lines, "mono")
    card.done()
    return draft(sheet, truth("VD", "D", h, "TD3"), h.person, zone=lines)


@layout("residence_permit", "L6", HELD_OUT)
def eat_front_and_back(rng: random.Random, spec: Spec) -> Draft:
    """An eAT with a Blue Card remark, front and back side by side on the copy, a bold zone."""
    h = non_eu_holder(rng)
    lines = td1("AR", "D", h)
    sheet = Sheet("helvetica", "Blaue Karte EU")
    place = placement(rng, spec, CARD)
    if not spec.single_page:
        front = Card(sheet, CARD, **{**place, "centre": (58, place["centre"][1])})
        front.outline(0.9)
        front.text(4, 6, "AUFENTHALTSTITEL  ·  BLAUE KARTE EU", 6, "Helvetica-Bold")
        front.photo_box(4, 10, 20, 26)
        front.field(28, 11, "NAME", f"{h.person.family.upper()}, {h.person.given.upper()}")
        front.field(28, 19, "GÜLTIG BIS", h.expiry.strftime("%d.%m.%Y"))
        front.done()
        place = {**place, "centre": (152, place["centre"][1])}
    back = Card(sheet, CARD, **place)
    back.outline(0.93)
    back.field(4, 6, "STAATSANGEHÖRIGKEIT", h.nationality)
    back.field(44, 6, "GEBURTSTAG", h.birth.strftime("%d.%m.%Y"))
    back.zone(lines, "mono-bold")
    back.done()
    return draft(sheet, truth("AR", "D", h, "TD1"), h.person, zone=lines)
