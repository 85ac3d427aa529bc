"""What a German lender needs in an expat's mortgage case, and how far the case has got.

Pure: given the case's documents (their type, status and a few extracted facts), say for each
item what was uploaded and whether it is done, waiting, rejected or missing.
"""
from dataclasses import dataclass, field

# EU and EEA states and Switzerland, as ICAO 9303 codes: their citizens need no residence
# permit to live and work in Germany.
FREE_MOVEMENT = frozenset({
    "AUT", "BEL", "BGR", "HRV", "CYP", "CZE", "DNK", "EST", "FIN", "FRA", "D", "DEU", "GRC", "HUN",
    "IRL", "ITA", "LVA", "LTU", "LUX", "MLT", "NLD", "POL", "PRT", "ROU", "SVK", "SVN", "ESP", "SWE",
    "ISL", "LIE", "NOR", "CHE",
})


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

    @property
    def needed(self) -> int:
        return self.item.needed

    @property
    def to_replace(self) -> list[CaseDocument]:
        return [d for d in self.documents if d.replace]


def progress(documents: list[CaseDocument]) -> list[ItemState]:
    """Each checklist item with what was uploaded for it and its state (documents newest first)."""
    nationality = next((d.nationality for d in documents
                        if d.type == "id_document" and d.status == "VERIFIED" and d.nationality), None)
    states = []
    for item in ITEMS:
        mine = [d for d in documents if d.type in item.types]
        state = ItemState(item, mine, verified=sum(d.counts for d in mine))
        if state.verified >= item.needed:
            state.state = "done"
        elif item.key == "residence_permit" and nationality in FREE_MOVEMENT and not mine:
            state.state = "not_needed"
        elif any(d.status in ("PENDING", "PROCESSING", "EXTRACTING", "ACTION_REQUIRED") for d in mine):
            state.state = "waiting"
        elif mine and mine[0].status == "REJECTED":
            state.state = "rejected"
        states.append(state)
    return states


def missing_count(states: list[ItemState]) -> int:
    return sum(s.state in ("missing", "rejected") for s in states)
