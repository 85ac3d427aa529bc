"""Passports and ID cards, held-out layouts: only ever measured on, never read while writing the MRZ reader."""
import random

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic._sheet import Sheet
from bench.synthetic.id_document import CARD, EU, PASSPORT_PAGE, Card, draft, holder, placement, td1, td2, td3, truth


@layout("id_document", "L4", HELD_OUT)
def passport_bilingual(rng: random.Random, spec: Spec) -> Draft:
    """A passport page with German/English labels, the photo on the right, a Courier zone with a personal number."""
    h = holder(rng)
    lines = td3("P", h.nationality, h, personal=f"{rng.randint(10 ** 7, 10 ** 8 - 1)}")
    sheet = Sheet("times", "Reisepass")
    card = Card(sheet, PASSPORT_PAGE, **placement(rng, spec, PASSPORT_PAGE))
    card.outline(0.9, 3)
    card.text(6, 8, "REISEPASS / PASSPORT", 9, "Times-Bold")
    card.text(80, 8, h.nationality, 9, "Times-Bold")
    rows = (("Name / Surname", h.person.family.upper()), ("Vornamen / Given names", h.person.given.upper()),
            ("Staatsangehörigkeit / Nationality", h.nationality),
            ("Geburtstag / Date of birth", h.birth.strftime("%d.%m.%Y")), ("Geschlecht / Sex", h.sex),
            ("Gültig bis / Date of expiry", h.expiry.strftime("%d.%m.%Y")), ("Pass-Nr. / Passport No.", h.number))
    for index, (label, value) in enumerate(rows):
        card.field(6, 14 + index * 6.2, label, value, 6.8)
    card.photo_box(88, 14, 30, 38)
    card.zone(lines, "Courier-Bold", bottom=4)
    card.done()
    return draft(sheet, truth("P", h.nationality, h, "TD3"), h.person, zone=lines)


@layout("id_document", "L5", HELD_OUT)
def id_card_back_only(rng: random.Random, spec: Spec) -> Draft:
    """The back of an EU ID card alone: address and authority above a bold zone."""
    h = holder(rng, nationality=rng.choice(sorted(EU)))
    lines = td1("ID", h.nationality, h)
    sheet = Sheet("dejavu", "ID card")
    card = Card(sheet, CARD, **placement(rng, spec, CARD))
    card.outline(0.88)
    card.field(4, 6, "Domicile / Address", f"{h.person.street}, {h.person.city}".upper(), 5.5)
    card.field(4, 13, "Authority", "MINISTRY OF THE INTERIOR", 5.5)
    card.field(55, 13, "Date of issue", h.issued.strftime("%d.%m.%Y"), 5.5)
    card.zone(lines, "mono-bold", bottom=2.5)
    card.done()
    return draft(sheet, truth("ID", h.nationality, h, "TD1"), h.person, zone=lines)


@layout("id_document", "L6", HELD_OUT)
def travel_card_td2(rng: random.Random, spec: Spec) -> Draft:
    """A TD2 card with labels on the right of the photo and a Courier zone."""
    h = holder(rng)
    size = (105.0, 74.0)
    lines = td2("IP", h.nationality, h)
    sheet = Sheet("helvetica", "Identity card")
    card = Card(sheet, size, **placement(rng, spec, size))
    card.outline(0.96, 2)
    card.photo_box(5, 8, 26, 34)
    card.text(36, 8, "NATIONAL IDENTITY CARD", 7.5, "Helvetica-Bold")
    for index, (label, value) in enumerate((("SURNAME", h.person.family.upper()),
                                            ("GIVEN NAMES", h.person.given.upper()),
                                            ("BORN", h.birth.strftime("%d %b %Y").upper()),
                                            ("EXPIRES", h.expiry.strftime("%d %b %Y").upper()))):
        card.field(36, 13 + index * 7, label, value, 6.5)
    card.zone(lines, "Courier-Bold")
    card.done()
    return draft(sheet, truth("IP", h.nationality, h, "TD2"), h.person, zone=lines)
