"""Invented content for synthetic documents: people, employers, banks, addresses, figures, and how issuers print them.

Every name, company, account and number here is made up. Accounts are real in form only: IBANs
carry valid check digits on invented bank codes.
"""
import random
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

AS_OF = date(2026, 11, 15)  # the day tests pin the clock to; every document is current then

# Expats of many origins, written as they would type their name into LeadFlow's profile.
PEOPLE = (
    ("Rahul", "Sharma", ""), ("Olena", "Kovalenko", ""), ("María José", "García López", ""),
    ("Wei", "Zhang", "Dr."), ("Jean-Luc", "Dubois", ""), ("Aisha", "Okafor", ""), ("Mehmet", "Yilmaz", ""),
    ("Priya", "Nair", ""), ("João", "Pereira", ""), ("Anna", "Kowalska", ""), ("Siobhán", "O'Connor", ""),
    ("Kenji", "Tanaka", ""), ("Fatima", "Al-Hassan", ""), ("Lucas", "Oliveira Santos", ""),
    ("Chloé", "Martin", ""), ("Ahmed", "Haddad", "Dr."), ("Ingrid", "Svensson", ""), ("Tomás", "Novák", ""),
    ("Lan", "Nguyen", ""), ("Sofia", "Rossi", ""), ("Daniel", "Cohen", ""), ("Emma", "van den Berg", ""),
    ("Arjun", "Mehta", ""), ("Carlos", "Mendoza", ""), ("Yuki", "Sato", ""), ("Björn", "Andersson", ""),
    ("Zeynep", "Demir", ""), ("Ivan", "Petrov", ""), ("Amara", "Nwosu", ""), ("Hyun-woo", "Kim", ""),
    ("Gabriela", "Dos Santos", ""), ("Omar", "Farouk", ""), ("Natalia", "Wiśniewska", ""),
    ("Liam", "Murphy", ""), ("Ana Lucía", "Fernández", ""), ("Rohan", "Iyer", "Dr."),
)
# Names whose letters every built-in PDF font (WinAnsi) can draw; DejaVu layouts may use all.
LATIN1_PEOPLE = tuple(p for p in PEOPLE if all(ord(c) < 256 for c in "".join(p)))

EMPLOYERS = (
    "Nordlicht Software GmbH", "Rheinwerk Logistik AG", "Isar Analytics GmbH", "Hanseatic Medtech SE",
    "Spreebogen Consulting GmbH & Co. KG", "Alpenblick Versicherung AG", "Elbtal Energie GmbH",
    "Neckarsulm Robotics GmbH", "Weserbogen Pharma AG", "Moselstein Bau GmbH", "Taunus Fintech GmbH",
    "Bodensee Mobility SE", "Havelland Foods GmbH", "Ruhrgrund Engineering GmbH", "Lahnblick Games GmbH",
    "Fichtelberg Textil AG", "Saalekreis Chemie GmbH", "Donauwelle Media GmbH",
)
BANKS = (  # name, bank code (BLZ, invented), BIC
    ("Musterstadt Sparkasse", "10050033", "MUSPDEB1XXX"), ("Nordbank Direkt AG", "20041155", "NODKDEHHXXX"),
    ("Volksbank Rhein-Lahn eG", "57092800", "GENODE51DIE"), ("Bayerische Handelsbank AG", "70020270", "BYHADEMMXXX"),
    ("Hansa Kreditbank", "21050170", "HAKBDEFFXXX"), ("Stadtsparkasse Lindenau", "36050105", "SPLIDE3EXXX"),
    ("Allgäuer Volksbank eG", "73369933", "GENODEF1SFO"), ("Digitalbank Berlin AG", "10011001", "DIBEDEB2XXX"),
)
STREETS = ("Hauptstraße", "Bahnhofstraße", "Lindenallee", "Goethestraße", "Schillerplatz", "Am Hafen",
           "Friedrichstraße", "Kastanienweg", "Rosenheimer Straße", "Uhlandstraße", "Marktplatz",
           "Berliner Allee", "Prinzregentenstraße", "Elbchaussee", "Königsallee", "Türkenstraße")
CITIES = (("10115", "Berlin"), ("80331", "München"), ("20095", "Hamburg"), ("60311", "Frankfurt am Main"),
          ("50667", "Köln"), ("70173", "Stuttgart"), ("40213", "Düsseldorf"), ("04109", "Leipzig"),
          ("01067", "Dresden"), ("90402", "Nürnberg"), ("30159", "Hannover"), ("28195", "Bremen"),
          ("69117", "Heidelberg"), ("76133", "Karlsruhe"), ("55116", "Mainz"), ("93047", "Regensburg"))
TAX_OFFICES = ("Finanzamt München", "Finanzamt Berlin-Mitte/Tiergarten", "Finanzamt Hamburg-Nord",
               "Finanzamt Frankfurt am Main III", "Finanzamt Köln-Altstadt", "Finanzamt Stuttgart II",
               "Finanzamt Düsseldorf-Süd", "Finanzamt Leipzig I", "Finanzamt Nürnberg-Zentral",
               "Finanzamt Hannover-Land I")
SHOPS = ("REWE Markt", "EDEKA Center", "Lidl", "dm-drogerie markt", "DB Fernverkehr", "Stadtwerke",
         "Vodafone GmbH", "Telekom Deutschland", "Amazon EU S.a.r.l.", "IKEA Deutschland", "Aral Tankstelle",
         "BVG Abo", "Allianz Versicherung", "Netflix International", "Apotheke am Markt", "Rundfunkbeitrag")
VENDORS = ("Schreinerei Holzmann GmbH", "Elektro Blitz & Sohn", "Umzugsservice Kranich GmbH",
           "Malerbetrieb Farbenfroh", "IT-Service Kaiser", "Sanitär Quelle GmbH", "Gartenbau Grünwald",
           "Notariat Dr. Feldmann", "Architekturbüro Linde & Partner", "Küchenstudio Schneider")

MONTHS_DE = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
             "November", "Dezember")
MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Person:
    given: str
    family: str
    title: str
    street: str
    city: str  # "80331 München"

    @property
    def name(self) -> str:
        """As the client's profile holds it: "Dr. Wei Zhang"."""
        return " ".join(part for part in (self.title, self.given, self.family) if part)

    @property
    def plain(self) -> str:
        return f"{self.given} {self.family}"

    @property
    def reversed(self) -> str:
        return f"{self.family}, {self.given}"


@dataclass(frozen=True)
class Company:
    name: str
    street: str
    city: str


def person(rng: random.Random, latin1: bool = True) -> Person:
    given, family, title = rng.choice(LATIN1_PEOPLE if latin1 else PEOPLE)
    return Person(given, family, title, *_address(rng))


def company(rng: random.Random, names=EMPLOYERS) -> Company:
    return Company(rng.choice(names), *_address(rng))


def _address(rng: random.Random) -> tuple[str, str]:
    postcode, city = rng.choice(CITIES)
    return f"{rng.choice(STREETS)} {rng.randint(1, 140)}", f"{postcode} {city}"


def iban(rng: random.Random, bank_code: str | None = None) -> str:
    """A German IBAN with valid check digits (ISO 13616: mod 97 of BBAN + 'DE00' as digits is 1)."""
    bank_code = bank_code or rng.choice(BANKS)[1]
    bban = bank_code + f"{rng.randrange(10 ** 9, 10 ** 10):010d}"
    check = 98 - int(bban + "131400") % 97  # D=13, E=14
    return f"DE{check:02d}{bban}"


def iban_spaced(value: str) -> str:
    return " ".join(value[i:i + 4] for i in range(0, len(value), 4))


def money(value) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def tax_number(rng: random.Random) -> str:
    return rng.choice((f"{rng.randint(100, 199)}/{rng.randint(100, 999)}/{rng.randint(10000, 99999)}",
                       f"{rng.randint(10, 99)}/{rng.randint(100, 999)}/{rng.randint(10000, 99999)}",
                       f"{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(10000, 99999)}"))


# --- German payroll, roughly as 2026 payroll software computes it -----------------------------

@dataclass(frozen=True)
class Payroll:
    gross: Decimal
    wage_tax: Decimal
    solidarity: Decimal
    church_tax: Decimal
    health: Decimal
    care: Decimal
    pension: Decimal
    unemployment: Decimal
    net: Decimal
    net_deductions: tuple[tuple[str, Decimal], ...]  # after net pay: company car, bike lease, savings plan
    payout: Decimal
    tax_class: int

    @property
    def social(self) -> Decimal:
        return self.health + self.care + self.pension + self.unemployment

    @property
    def taxes(self) -> Decimal:
        return self.wage_tax + self.solidarity + self.church_tax


def payroll(rng: random.Random, gross: Decimal | None = None, with_net_deductions: bool | None = None) -> Payroll:
    gross = gross or money(rng.randrange(320000, 960000) / 100)
    tax_class = rng.choice((1, 1, 1, 3, 4, 4, 5))
    rate = {1: 0.17, 3: 0.10, 4: 0.17, 5: 0.29}[tax_class] + float(gross - 3000) / 80000
    wage_tax = money(gross * Decimal(str(round(rate, 4))))
    solidarity = money(wage_tax * Decimal("0.055")) if wage_tax > 1500 else Decimal("0.00")
    church_tax = money(wage_tax * Decimal("0.08")) if rng.random() < 0.3 else Decimal("0.00")
    health_base = min(gross, Decimal("5812.50"))  # 2026 ceilings, near enough
    pension_base = min(gross, Decimal("8450.00"))
    health = money(health_base * Decimal("0.0875"))
    care = money(health_base * Decimal("0.018"))
    pension = money(pension_base * Decimal("0.093"))
    unemployment = money(pension_base * Decimal("0.013"))
    net = gross - wage_tax - solidarity - church_tax - health - care - pension - unemployment
    if with_net_deductions is None:
        with_net_deductions = rng.random() < 0.6
    deductions = []
    if with_net_deductions:
        for label in rng.sample(("VWL Sparplan", "Jobrad Leasing", "Kantine", "Firmenwagen geldw. Vorteil",
                                 "Jobticket Eigenanteil"), rng.randint(1, 2)):
            deductions.append((label, money(rng.randrange(2000, 32000) / 100)))
    payout = net - sum((amount for _, amount in deductions), Decimal("0"))
    return Payroll(gross, wage_tax, solidarity, church_tax, health, care, pension, unemployment, net,
                   tuple(deductions), payout, tax_class)


# --- printing styles ---------------------------------------------------------------------------

def amount(value, style: str = "de") -> str:
    """How an issuer prints an amount.

    de "1.234,56"   en "1,234.56"   de_euro "1.234,56 €"   eur_de "EUR 1.234,56"
    de_minus "1.234,56-" (negatives with a trailing minus, as German payroll prints deductions)
    plain "1234,56"
    """
    value = money(value)
    negative = value < 0
    whole, cents = f"{abs(value):.2f}".split(".")
    grouped = f"{int(whole):,}"
    if style == "en":
        text = f"{grouped}.{cents}"
        return f"-{text}" if negative else text
    if style == "plain":
        text = f"{whole},{cents}"
    else:
        text = f"{grouped.replace(',', '.')},{cents}"
    if style == "de_minus":
        return f"{text}-" if negative else text
    sign = "-" if negative else ""
    if style == "de_euro":
        return f"{sign}{text} €"
    if style == "eur_de":
        return f"EUR {sign}{text}"
    return f"{sign}{text}"


def day(value: date, style: str = "dmy") -> str:
    """dmy "01.10.2026", long_de "1. Oktober 2026", long_en "1 October 2026", iso "2026-10-01", short "01.10.26"."""
    if style == "long_de":
        return f"{value.day}. {MONTHS_DE[value.month - 1]} {value.year}"
    if style == "long_en":
        return f"{value.day} {MONTHS_EN[value.month - 1]} {value.year}"
    if style == "iso":
        return value.isoformat()
    if style == "short":
        return value.strftime("%d.%m.%y")
    return value.strftime("%d.%m.%Y")


def month(value: date, style: str = "de") -> str:
    """de "Oktober 2026", en "October 2026", slash "10/2026", iso "2026-10", dot "10.2026", upper "OKTOBER 2026"."""
    if style == "en":
        return f"{MONTHS_EN[value.month - 1]} {value.year}"
    if style == "slash":
        return f"{value.month:02d}/{value.year}"
    if style == "iso":
        return f"{value.year}-{value.month:02d}"
    if style == "dot":
        return f"{value.month:02d}.{value.year}"
    if style == "upper":
        return f"{MONTHS_DE[value.month - 1].upper()} {value.year}"
    return f"{MONTHS_DE[value.month - 1]} {value.year}"


def pay_month(rng: random.Random) -> date:
    """A pay month current on AS_OF: August to October 2026."""
    return date(2026, rng.choice((8, 9, 10)), 1)


def month_last(value: date) -> date:
    following = date(value.year + value.month // 12, value.month % 12 + 1, 1)
    return date.fromordinal(following.toordinal() - 1)


# Given names of the women in PEOPLE: a letter's address block opens with "Frau" or "Herrn".
WOMEN = frozenset(("Olena", "María José", "Aisha", "Priya", "Anna", "Siobhán", "Fatima", "Chloé", "Ingrid", "Lan",
                   "Sofia", "Emma", "Yuki", "Zeynep", "Amara", "Gabriela", "Natalia", "Ana Lucía"))


def salutation(who: Person, case: str = "accusative") -> str:
    """"Frau" or "Herrn" above an address (accusative), "Frau" or "Herr" in running text (nominative)."""
    if who.given in WOMEN:
        return "Frau"
    return "Herrn" if case == "accusative" else "Herr"


def window(who: Person, title: bool = True) -> tuple[str, ...]:
    """A window envelope's address block: salutation, name (with a doctor's title), street, city."""
    name = who.name if title else who.plain
    return (salutation(who), name, who.street, who.city)
