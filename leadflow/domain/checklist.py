"""What a German lender needs in an expat's mortgage case, and how far the case has got.

Pure: given the case's applicants and documents (their type, status, whose they are and a few
extracted facts), say for each item what was uploaded and whether it is done, waiting, rejected or
missing. Each applicant has items of their own (identity papers, payslips, statements, and a
residence permit unless they are an EU, EEA or Swiss citizen); the rest are the case's.
"""
from dataclasses import dataclass, field

from leadflow.domain.applicants import CLIENT, Person, needs_residence_permit

# The items each applicant has of their own; the others are the case's.
PERSONAL = ("identity", "residence_permit", "payslips", "bank_statements")
# Why a residence permit is not needed: a free-movement citizen, or (until the client says) unknown.
FREE, UNKNOWN = "free_movement", "citizenship_unknown"


@dataclass(frozen=True)
class Item:
    key: str
    en: str
    de: str
    types: tuple[str, ...]
    needed: int = 1


ITEMS = (
    Item("identity", "Passport or ID card", "Reisepass oder Personalausweis", ("id_document",)),
    Item("residence_permit", "Residence permit (non-EU citizens)", "Aufenthaltstitel (Nicht-EU-Bürger)",
         ("residence_permit",)),
    Item("payslips", "Last three payslips", "Letzte drei Gehaltsabrechnungen", ("payslip",), needed=3),
    Item("bank_statements", "Bank statements of the last three months", "Kontoauszüge der letzten drei Monate",
         ("bank_statement",), needed=3),
    Item("wage_tax_certificate", "Last wage tax certificate", "Letzte Lohnsteuerbescheinigung",
         ("wage_tax_certificate",)),
    Item("tax_assessment", "Last tax assessment", "Letzter Steuerbescheid", ("tax_assessment",)),
    Item("employment_contract", "Employment contract", "Arbeitsvertrag", ("employment_contract",)),
)


@dataclass(frozen=True)
class CaseDocument:
    id: str
    title: str
    status: str
    type: str | None          # detected type, else the kind the client declared
    nationality: str | None = None  # from a verified ID's machine-readable zone
    applicants: tuple[int | None, ...] = ()   # whose it is (two: joint); empty: the client's
    # Verified, but no longer what a lender takes: "stale" (aged out: the staleness sweep said so)
    # or "expires" (an ID or permit that ends before the planned payout). It counts as not there.
    replace: str | None = None

    @property
    def counts(self) -> bool:
        return self.status == "VERIFIED" and not self.replace


@dataclass
class ItemState:
    item: Item
    documents: list[CaseDocument] = field(default_factory=list)
    verified: int = 0
    state: str = "missing"   # done | waiting | rejected | missing | not_needed
    person: Person | None = None   # whose item; None: the case's
    why: str | None = None   # for not_needed: FREE or UNKNOWN

    @property
    def needed(self) -> int:
        return self.item.needed

    @property
    def key(self) -> str:
        """The item's key in the case: the client's items and the case's keep the item's own."""
        return self.item.key if self.person is None or self.person.role == CLIENT else f"{self.item.key}.{self.person.role}"

    @property
    def to_replace(self) -> list[CaseDocument]:
        return [d for d in self.documents if d.replace]


def progress(documents: list[CaseDocument], people: tuple[Person, ...] = ()) -> list[ItemState]:
    """Each applicant's items, then the case's, with what was uploaded for each and its state
    (documents newest first). Without applicants, the case is one person's."""
    people = tuple(people) or (Person(None, ""),)
    states = []
    for person in people:
        theirs = [d for d in documents if _belongs(d, person, people)]
        states += [_state(item, theirs, person) for item in ITEMS if item.key in PERSONAL]
    states += [_state(item, documents, None) for item in ITEMS if item.key not in PERSONAL]
    return states


def asks_citizenship(states: list[ItemState]) -> list[Person]:
    """The applicants whose citizenship nobody has told yet (the portal asks for it)."""
    return [s.person for s in states if s.item.key == "residence_permit" and s.why == UNKNOWN and s.person]


def _belongs(document: CaseDocument, person: Person, people: tuple[Person, ...]) -> bool:
    if len(people) == 1:
        return True
    return person.id in (document.applicants or (people[0].id,))


def _state(item: Item, documents: list[CaseDocument], person: Person | None) -> ItemState:
    mine = [d for d in documents if d.type in item.types]
    state = ItemState(item, mine, verified=sum(d.counts for d in mine), person=person)
    if state.verified >= item.needed:
        state.state = "done"
    elif item.key == "residence_permit" and not mine and not _needs_permit(person, documents):
        state.state, state.why = "not_needed", (UNKNOWN if _citizenship(person, documents) is None else FREE)
    elif any(d.status in ("PENDING", "PROCESSING", "EXTRACTING", "ACTION_REQUIRED") for d in mine):
        state.state = "waiting"
    elif mine and mine[0].status == "REJECTED":
        state.state = "rejected"
    return state


def _citizenship(person: Person | None, documents: list[CaseDocument]) -> str | None:
    """What the applicant said, else the nationality their verified ID shows."""
    told = person.citizenship if person else None
    return told or next((d.nationality for d in documents
                         if d.type == "id_document" and d.status == "VERIFIED" and d.nationality), None)


def _needs_permit(person: Person | None, documents: list[CaseDocument]) -> bool:
    # Unknown is not required: the portal asks, and the item follows the answer.
    return needs_residence_permit(_citizenship(person, documents)) is True


def missing_count(states: list[ItemState]) -> int:
    return sum(s.state in ("missing", "rejected") for s in states)
