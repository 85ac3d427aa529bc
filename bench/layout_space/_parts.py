"""Parts many documents share: the address block, the sender line, a company's footer, how a name is printed."""
import random

from bench.layout_space._style import Style
from bench.synthetic import _fake as fake


def name_as_printed(rng: random.Random, who: fake.Person, style: Style) -> str:
    """The person's name as an issuer's software prints it."""
    form = rng.choice(("plain", "plain", "titled", "reversed", "upper"))
    if form == "reversed":
        text = who.reversed
    elif form == "titled":
        text = who.name
    else:
        text = who.plain
    return text.upper() if form == "upper" or style.case == "upper" and rng.random() < 0.5 else text


def recipient(rng: random.Random, who: fake.Person, style: Style) -> list[str]:
    """A window envelope's block, with "Herrn"/"Frau" (or "Mr"/"Ms") above or before the name for some."""
    name = who.name if rng.random() < 0.5 else who.plain
    lines = [name, who.street, who.city]
    if style.salutation:
        word = fake.salutation(who) if style.language != "en" else ("Ms" if who.given in fake.WOMEN else "Mr")
        if rng.random() < 0.7:
            lines.insert(0, word)
        else:
            lines[0] = f"{word} {name}"
    if style.case == "upper" and rng.random() < 0.4:
        lines = [line.upper() for line in lines]
    return lines


def sender(company: fake.Company) -> str:
    return f"{company.name} · {company.street} · {company.city}"


def footer(rng: random.Random, company: fake.Company, avoid: fake.Person | None = None) -> list[str]:
    """Registry, managing director, the company's own bank account: a second IBAN that is not the client's."""
    bank = rng.choice(fake.BANKS)
    court = rng.choice(("München", "Berlin-Charlottenburg", "Hamburg", "Köln", "Frankfurt am Main"))
    boss = fake.person(rng)
    while avoid is not None and boss.family == avoid.family:
        boss = fake.person(rng)
    return [f"{company.name} · Sitz {company.city.split(' ', 1)[1]} · Amtsgericht {court} HRB {rng.randint(10000, 299999)}",
            f"Geschäftsführung: {boss.plain} · USt-IdNr. DE{rng.randint(100000000, 999999999)}",
            f"{bank[0]} · IBAN {fake.iban_spaced(fake.iban(rng, bank[1]))} · BIC {bank[2]}"]
