"""Synthetic German mortgage documents with their expected fields, in many issuers' layouts.

Since issue 39 these hand-made layouts are regression fixtures (tests/extractor imports them by
layout id) and points of the layout space: `make eval-extraction` measures `bench/layout_space`,
which draws whole layouts from a seed and reuses this package's content and rendering. Every one
of these layouts was read while the readers were tuned, held-out ones included; add no new ones.

Each document type has layouts of its own (different label words, block orders, columns,
languages, date and amount styles, fonts), split into DEVELOPMENT layouts (the field readers
may be written and tuned against them) and HELD_OUT layouts (only ever measured on; they live
in `<type>_heldout.py` modules so that nobody reads them by accident). A document is rendered
as a text PDF, a scanned PDF (no text layer) or a phone photo (JPEG).

    from bench.synthetic import generate, corpus
    doc = generate("payslip", "L2", seed=7, rendering="scan_pdf")
    for doc in corpus("held_out", per_layout=2): ...

Adding a document type is adding a module here (any name not starting with "_") whose layout
functions are decorated with `@layout(document_type, layout_id, split)`; a layout function
takes (rng, spec) and returns a Draft. Every document is current on AS_OF (2026-11-15).
"""
import importlib
import pkgutil
import random
from dataclasses import dataclass, field
from typing import Callable, Iterator

from bench.synthetic import _sheet
from bench.synthetic._fake import AS_OF  # noqa: F401 - part of the interface

DEVELOPMENT, HELD_OUT = "development", "held_out"
SPLITS = (DEVELOPMENT, HELD_OUT)
RENDERINGS = ("text_pdf", "scan_pdf", "photo")


@dataclass(frozen=True)
class Generated:
    name: str                # unique file stem, e.g. "payslip_L4_s007_scan_pdf"
    document_type: str       # the extractor's type names
    layout: str              # e.g. "payslip/L4"
    split: str               # "development" | "held_out"
    rendering: str           # "text_pdf" | "scan_pdf" | "photo"
    data: bytes
    filename: str            # with .pdf / .jpg
    fields: dict             # expected fields, in the extractor's wire format
    person: str              # the client's name as LeadFlow knows it (the applicant)


@dataclass(frozen=True)
class Spec:
    """What the caller asks of a layout beyond its seed."""
    single_page: bool = False  # a photo shows one page: statements keep their bookings to page 1


@dataclass
class Draft:
    """What a layout function returns: the text PDF and what it prints."""
    pdf: bytes
    fields: dict             # every field the layout prints, in wire format (may name fields a type's SCHEMAS lack)
    person: str
    pages: int = 1
    details: dict = field(default_factory=dict)


LAYOUTS: dict[str, dict[str, Callable]] = {}   # type -> layout id -> layout function
SPLIT: dict[str, str] = {}                      # "type/layout id" -> split


def layout(document_type: str, layout_id: str, split: str):
    """Register a layout function under its type, id and split."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}")

    def register(function: Callable) -> Callable:
        LAYOUTS.setdefault(document_type, {})[layout_id] = function
        SPLIT[f"{document_type}/{layout_id}"] = split
        return function
    return register


def generate(document_type: str, layout: str, seed: int, rendering: str = "text_pdf") -> Generated:
    """One document: the same arguments always give the same bytes and fields."""
    if rendering not in RENDERINGS:
        raise ValueError(f"unknown rendering {rendering!r}")
    layout_id = layout.split("/")[-1]
    function = LAYOUTS[document_type][layout_id]
    # A string seed: random.Random hashes it with SHA-512, independent of PYTHONHASHSEED.
    draft = function(random.Random(f"{document_type}/{layout_id}/{seed}"), Spec(single_page=rendering == "photo"))
    noise = random.Random(f"{document_type}/{layout_id}/{seed}/{rendering}")
    if rendering == "text_pdf":
        data, suffix = draft.pdf, "pdf"
    elif rendering == "scan_pdf":
        data, suffix = _sheet.scan_pdf(draft.pdf, noise), "pdf"
    else:
        data, suffix = _sheet.photo(draft.pdf, noise), "jpg"
    name = f"{document_type}_{layout_id}_s{seed:03d}_{rendering}"
    return Generated(name=name, document_type=document_type, layout=f"{document_type}/{layout_id}",
                     split=SPLIT[f"{document_type}/{layout_id}"], rendering=rendering, data=data,
                     filename=f"{name}.{suffix}", fields=expected_fields(document_type, draft.fields),
                     person=draft.person)


def corpus(split: str | None, *, per_layout: int = 2, renderings=("text_pdf", "scan_pdf"), seed: int = 0,
           types=None) -> Iterator[Generated]:
    """Every layout of the split (None: both), `per_layout` documents each, in every rendering asked for."""
    for document_type in sorted(LAYOUTS):
        if types and document_type not in types:
            continue
        for layout_id in sorted(LAYOUTS[document_type], key=_layout_order):
            if split and SPLIT[f"{document_type}/{layout_id}"] != split:
                continue
            for index in range(per_layout):
                for rendering in renderings:
                    yield generate(document_type, layout_id, seed + index, rendering)


def layouts(document_type: str, split: str | None = None) -> list[str]:
    return [layout_id for layout_id in sorted(LAYOUTS.get(document_type, {}), key=_layout_order)
            if split is None or SPLIT[f"{document_type}/{layout_id}"] == split]


def expected_fields(document_type: str, printed: dict) -> dict:
    """The printed fields the extractor's SCHEMAS declare for the type, in their order."""
    from leadflow.extractor.fields import REGISTRY  # the extractor's own field names are the truth's names
    field_set = REGISTRY.get(document_type)
    if field_set is None:
        return dict(printed)
    return {name: printed[name] for name in field_set.schemas if name in printed}


def _layout_order(layout_id: str):
    digits = "".join(c for c in layout_id if c.isdigit())
    return (int(digits) if digits else 0, layout_id)


def _load_type_modules() -> None:
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


_load_type_modules()
