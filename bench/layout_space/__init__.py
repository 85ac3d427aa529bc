"""The layout space: one parametric generator per document type, a whole layout drawn from a seed.

Where bench/synthetic holds hand-made layouts (each fixed, and each read while the readers were
tuned), here a seed draws everything an issuer decides: the words of every label (from a lexicon
of real variants, German and English), their case, umlauts or "AE/OE/UE/SS", where each value
stands (right of its label, below it, in a box, in a table column, in a summary box, across a line
break), one or two columns, rules or none, number and date styles, the address block with or
without "Herrn"/"Frau", logo, footer, page numbers, watermark, font and size, one or more pages;
and for a scan or a photo how it was taken (resolution, skew, blur, noise, JPEG quality, shadow,
perspective). Every document carries its truth: its type, the key fields as the extractor names
them, the applicant's name, and the verdict LeadFlow should reach (VERIFIED for a genuine,
acceptable document; REJECTED, with the reason, for the share drawn too old on purpose).

    from bench.layout_space import draw, plan
    doc = draw("payslip", seed=123456, rendering="scan_pdf")
    for job in plan(seed=42, documents=300): doc = draw(*job)

The same (type, seed, rendering) always gives the same bytes and truth. The space is measured on,
never tuned on: `make eval-extraction` draws a seed it has not used before and prints it.
"""
import importlib
import random
from dataclasses import dataclass, field

from bench.synthetic._fake import AS_OF  # noqa: F401 - the evaluation's clock: every document is current on it

TYPES = ("payslip", "bank_statement", "wage_tax_certificate", "tax_assessment", "employment_contract",
         "invoice", "receipt", "id_document", "residence_permit")
RENDERINGS = ("text_pdf", "scan_pdf", "photo")
VERIFIED, REJECTED = "VERIFIED", "REJECTED"


@dataclass(frozen=True)
class Generated:
    name: str                # unique file stem, e.g. "payslip_s123456_scan_pdf"
    document_type: str
    layout: str              # "payslip/space" (or the bench/synthetic layout an identity document was drawn from)
    split: str               # always "space": drawn fresh, never tuned on
    rendering: str
    data: bytes
    filename: str
    fields: dict             # the truth, in the extractor's wire format (the fields the rendering shows)
    person: str              # the applicant as LeadFlow knows them
    expected: str = VERIFIED  # the verdict a right reading leads to
    reason: str = ""         # why it should be rejected, when it should
    traits: dict = field(default_factory=dict)  # the layout's drawn choices, for reading misses by axis


@dataclass
class Drawn:
    """What a type module returns: the text PDF and its truth."""
    pdf: bytes
    fields: dict
    person: str
    traits: dict
    expected: str = VERIFIED
    reason: str = ""
    page_fields: dict | None = None  # page index -> truth of that page photographed alone (a later page)


def draw(document_type: str, seed: int, rendering: str = "text_pdf") -> Generated:
    """One document of the space; the same arguments always give the same bytes and truth."""
    if rendering not in RENDERINGS:
        raise ValueError(f"unknown rendering {rendering!r}")
    from bench.layout_space import _capture
    module = importlib.import_module(f"bench.layout_space.{_MODULES[document_type]}")
    # A string seed: random.Random hashes it with SHA-512, independent of PYTHONHASHSEED.
    rng = random.Random(f"space/{document_type}/{seed}")
    if document_type in ("id_document", "residence_permit"):
        return module.draw(document_type, rng, seed, rendering)
    drawn = module.draw(rng, single_page=rendering == "photo")
    capture = random.Random(f"space/{document_type}/{seed}/{rendering}")
    fields, traits = drawn.fields, dict(drawn.traits)
    if rendering == "text_pdf":
        data, suffix = drawn.pdf, "pdf"
    elif rendering == "scan_pdf":
        data, taken = _capture.scan(drawn.pdf, capture)
        traits["capture"] = taken
        suffix = "pdf"
    else:
        page = 0
        if drawn.page_fields:  # the module drew pages meant to be photographed alone
            page = capture.choice(sorted(drawn.page_fields))
            fields = drawn.page_fields[page]
        data, taken = _capture.photo(drawn.pdf, capture, page)
        traits["capture"] = taken
        suffix = "jpg"
    name = f"{document_type}_s{seed}_{rendering}"
    return Generated(name=name, document_type=document_type, layout=f"{document_type}/space", split="space",
                     rendering=rendering, data=data, filename=f"{name}.{suffix}",
                     fields=_declared(document_type, fields), person=drawn.person, expected=drawn.expected,
                     reason=drawn.reason, traits=traits)


def plan(seed: int, documents: int, renderings=RENDERINGS, types=TYPES, scan_share: float = 0.5) -> list[tuple]:
    """`documents` jobs (type, seed, rendering) over every type in turn, about `scan_share` of them scans or photos.

    Each document's own seed is drawn from the run's seed, so one number replays the whole run."""
    rng = random.Random(f"plan/{seed}")
    text = [r for r in renderings if r == "text_pdf"]
    images = [r for r in renderings if r != "text_pdf"]
    jobs = []
    for index in range(documents):
        kind = types[index % len(types)]
        if images and (not text or rng.random() < scan_share):
            rendering = rng.choice(images)
        else:
            rendering = text[0]
        jobs.append((kind, rng.randrange(10 ** 9), rendering))
    return jobs


def _declared(document_type: str, printed: dict) -> dict:
    """The printed fields the extractor's SCHEMAS declare for the type, in their order."""
    from leadflow.extractor.fields import REGISTRY
    field_set = REGISTRY.get(document_type)
    if field_set is None:
        return dict(printed)
    return {name: printed[name] for name in field_set.schemas if name in printed}


_MODULES = {"payslip": "payslip", "bank_statement": "bank_statement", "wage_tax_certificate": "wage_tax_certificate",
            "tax_assessment": "tax_assessment", "employment_contract": "employment_contract",
            "invoice": "invoice", "receipt": "receipt", "id_document": "identity", "residence_permit": "identity"}
