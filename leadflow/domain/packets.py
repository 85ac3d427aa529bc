"""Packets (issue 40): one upload holding several documents, split into parts, each part a document
of its own. The rules, pure: what a proposed split must look like, when it waits for a person, the
corrections a person may make (each gives a new list of parts), which children a new split redoes,
and who may correct one."""
from dataclasses import asdict, dataclass, replace

from leadflow.domain.audience import Role, Viewer
from leadflow.domain.document_types import N_
from leadflow.domain.document_types import TYPES as _TYPES

DOCUMENT_TYPES = tuple(_TYPES)

# A packet is a document row whose kind says so; its reading is a split, not an extraction.
PACKET_KIND = "packet"
# Job modes a worker runs for an upload's first reading: a document's, or a packet's split. Both
# count against the client's daily page allowance; a person's rerun does not.
FIRST_READINGS = ("first", "split")
UNKNOWN = "unknown"

# Why a split waits for a person (the packet's rejection code's note, and the review queue's reason).
UNSURE = "packet_unsure"
PART_TOO_LONG = "packet_part_too_long"

# A job's `output_spec.cause` when a person's correction of the split reads a document again: its
# pages were charged when the packet's documents were first read, and are not charged again.
RESPLIT = "resplit"

# Who corrects a split: the brokerage's staff (the case's advisor among them), and platform reviewers.
CORRECTORS = frozenset({Role.ADVISOR, Role.BROKERAGE_ADMIN, Role.PLATFORM_ADMIN})


class SplitProblem(ValueError):
    """A split (proposed by the reader or asked by a person) that cannot stand; `code` names why.
    `msgid` is an English message id (through the catalogs where a person reads it), `values`
    fill its %(name)s places; `message` is the English sentence."""

    def __init__(self, code: str, msgid: str, **values):
        self.code, self.msgid, self.values = code, msgid, values
        self.message = msgid % values if values else msgid
        super().__init__(self.message)


@dataclass(frozen=True)
class Part:
    """One document of a packet: its pages (from 1, both ends included) and its type. `sure`: the
    reader was sure of its edges and type, or a person decided them (`decided`)."""
    first: int
    last: int
    document_type: str
    confidence: float = 1.0
    boundary_confidence: float = 1.0
    sure: bool = True
    decided: bool = False

    @property
    def pages(self) -> int:
        return self.last - self.first + 1

    def as_dict(self) -> dict:
        return asdict(self)

    def same_document(self, other: "Part") -> bool:
        """The same pages read as the same type: a child of this part need not be read again."""
        return (self.first, self.last, self.document_type) == (other.first, other.last, other.document_type)


def parts_from_wire(raw, pages: int) -> list[Part]:
    """The reader's proposed parts (a callback's `data.parts`), checked: they cover pages 1..`pages`
    in order, without gaps or overlaps. Raises SplitProblem."""
    if not isinstance(raw, list) or not raw:
        raise SplitProblem("malformed", N_("The parts must be a list of at least one part."))
    parts = []
    for item in raw:
        if not isinstance(item, dict):
            raise SplitProblem("malformed", N_("Each part must be an object with its first and last page."))
        try:
            document_type = str(item.get("document_type") or UNKNOWN)
            part = Part(int(item["first"]), int(item["last"]),
                        document_type if document_type in DOCUMENT_TYPES else UNKNOWN,
                        float(item.get("confidence") or 0.0), float(item.get("boundary_confidence") or 0.0),
                        bool(item.get("sure")) and document_type in DOCUMENT_TYPES)
        except (KeyError, TypeError, ValueError) as exc:
            raise SplitProblem("malformed", N_("A part lacks its first or last page.")) from exc
        parts.append(part)
    check_cover(parts, pages)
    return parts


def parts_from_rows(rows) -> list[Part]:
    """Parts as a packet row keeps them (`packets.parts`, dicts)."""
    return [Part(**{k: v for k, v in row.items() if k in Part.__dataclass_fields__}) for row in rows or []]


def check_cover(parts: list[Part], pages: int) -> None:
    """Raise SplitProblem unless the parts cover pages 1..`pages` in order, each at least one page."""
    expected = 1
    for part in parts:
        if part.first != expected or part.last < part.first:
            raise _not_covering(pages)
        expected = part.last + 1
    if expected != pages + 1:
        raise _not_covering(pages)


def waits_for_a_person(parts: list[Part], max_document_pages: int) -> str | None:
    """Why this split must wait for a person, or None when it may be taken as it is: a part the
    reader was unsure of (an edge or its type), or a part longer than a document may be."""
    if any(part.pages > max_document_pages for part in parts):
        return PART_TOO_LONG
    if len(parts) > 1 and not all(part.sure for part in parts):
        return UNSURE
    # One part is a document like any other upload: its own reading asks a person if need be.
    return None


def check_limits(parts: list[Part], max_document_pages: int) -> None:
    """A person's split is refused when a part is longer than a document may be."""
    for part in parts:
        if part.pages > max_document_pages:
            raise SplitProblem("part_too_long", N_("Pages %(first)s to %(last)s are %(count)s pages; a document "
                                                   "may have at most %(most)s."),
                               first=part.first, last=part.last, count=part.pages, most=max_document_pages)


# -- corrections: each takes the current parts and gives the new ones, every part a person's ---------

def move_boundary(parts: list[Part], index: int, first: int) -> list[Part]:
    """Part `index` (from 0, not the first) starts at page `first` instead: the part before it
    grows or shrinks to meet it. Neither may end up empty."""
    _index(parts, index, at_least=1)
    before, part = parts[index - 1], parts[index]
    if not before.first < first <= part.last:
        raise SplitProblem("boundary", N_("Part %(part)s can start on a page from %(first)s to %(last)s."),
                           part=index + 1, first=before.first + 1, last=part.last)
    if first == part.first:
        raise SplitProblem("unchanged", N_("Part %(part)s starts on page %(page)s already."), part=index + 1,
                           page=first)
    changed = [replace(before, last=first - 1), replace(part, first=first)]
    return _decided(parts[:index - 1] + changed + parts[index + 1:], changed)


def merge(parts: list[Part], index: int) -> list[Part]:
    """Parts `index` and `index + 1` are one document, of the type of the first of them."""
    _index(parts, index)
    _index(parts, index + 1)
    merged = replace(parts[index], last=parts[index + 1].last)
    return _decided(parts[:index] + [merged] + parts[index + 2:], [merged])


def split_at(parts: list[Part], index: int, page: int, document_type: str | None = None) -> list[Part]:
    """Part `index` is two documents, the second starting at `page` (of `document_type`, else the
    same type as the first)."""
    _index(parts, index)
    part = parts[index]
    if not part.first < page <= part.last:
        raise SplitProblem("boundary", N_("Part %(part)s can be split at a page from %(first)s to %(last)s."),
                           part=index + 1, first=part.first + 1, last=part.last)
    second_type = _type(document_type) if document_type else part.document_type
    changed = [replace(part, last=page - 1), replace(part, first=page, document_type=second_type)]
    return _decided(parts[:index] + changed + parts[index + 1:], changed)


def change_type(parts: list[Part], index: int, document_type: str) -> list[Part]:
    """Part `index` is a document of `document_type`."""
    _index(parts, index)
    if parts[index].document_type == _type(document_type) and parts[index].decided:
        raise SplitProblem("unchanged", N_("Part %(part)s has the type %(type)s already."), part=index + 1,
                           type=document_type)
    changed = [replace(parts[index], document_type=_type(document_type))]
    return _decided(parts[:index] + changed + parts[index + 1:], changed)


def confirmed(parts: list[Part]) -> list[Part]:
    """The reader's parts as a person confirms them: every part decided."""
    for part in parts:
        if part.document_type == UNKNOWN:
            raise SplitProblem("type_unknown", N_("Pages %(first)s to %(last)s need a type before the split is "
                                                  "confirmed."), first=part.first, last=part.last)
    return [replace(part, sure=True, decided=True) for part in parts]


@dataclass(frozen=True)
class Plan:
    """What a new split does to a packet's children: `keep` (child part number -> its part, the
    same pages and type: not read again), `redo` (child part number -> its new part, read again), `retire` (children whose pages
    went to another part), `add` (new parts, children to make)."""
    keep: dict
    redo: dict
    retire: tuple
    add: tuple


def plan(children: dict[int, Part], parts: list[Part]) -> Plan:
    """Match a new split against the children there are (part number -> the part it was made from).

    A part with the same pages and type as a child keeps that child; a part overlapping children
    that are not kept is given to the one sharing most of its pages (lowest number on a tie), which
    is read again; children left without a part are retired; parts left without a child are new."""
    keep, redo, add = {}, {}, []
    free = dict(children)
    leftover = []
    for part in parts:
        same = next((number for number, child in free.items() if child.same_document(part)), None)
        if same is not None:
            free.pop(same)
            keep[same] = part
        else:
            leftover.append(part)
    for part in leftover:
        overlaps = sorted(((min(part.last, child.last) - max(part.first, child.first) + 1, -number)
                           for number, child in free.items()), reverse=True)
        if overlaps and overlaps[0][0] > 0:
            number = -overlaps[0][1]
            redo[number] = part
            free.pop(number)
        else:
            add.append(part)
    return Plan(keep, redo, tuple(sorted(free)), tuple(add))


def decided_type(rows, part_number: int | None) -> str | None:
    """The type a person decided for a packet's document (the part numbered `part_number` of a
    packet's kept parts; None: the packet held one document, its only part), or None when no
    person decided it. Every job of that document carries it, a retry's too."""
    rows = rows or []
    if part_number is None:
        found = rows[0] if len(rows) == 1 else None
    else:
        found = next((row for row in rows if isinstance(row, dict) and row.get("number") == part_number), None)
    if not isinstance(found, dict) or not found.get("decided") or found.get("document_type") in (None, UNKNOWN):
        return None
    return found["document_type"]


def charged_before(output_spec: dict | None) -> bool:
    """Whether a job reads pages that were charged already (a correction's reread): it holds no
    credits and is charged nothing."""
    return (output_spec or {}).get("cause") == RESPLIT


def may_correct(viewer: Viewer, document_brokerage_id: int) -> bool:
    """Staff of the packet's brokerage (its advisors) and platform reviewers correct a split; a
    client does not, nor anyone of another brokerage."""
    if viewer.role == Role.PLATFORM_ADMIN:
        return True
    return viewer.role in CORRECTORS and viewer.brokerage_id == document_brokerage_id


def _index(parts: list[Part], index: int, at_least: int = 0) -> None:
    if not isinstance(index, int) or not at_least <= index < len(parts):
        raise SplitProblem("part", N_("There is no part %(part)s to change."),
                           part=index + 1 if isinstance(index, int) else str(index))


def _type(document_type) -> str:
    if document_type not in DOCUMENT_TYPES:
        raise SplitProblem("document_type", N_("The document type must be one of: %(types)s."),
                           types=", ".join(DOCUMENT_TYPES))
    return document_type


def _not_covering(pages: int) -> SplitProblem:
    return SplitProblem("pages", N_("The parts must cover pages 1 to %(pages)s in order, every page once."),
                        pages=pages)


def _decided(parts: list[Part], changed: list[Part]) -> list[Part]:
    """Every part a person has now looked at is sure; the changed ones are theirs."""
    changed_ids = {id(part) for part in changed}
    return [replace(part, sure=True, decided=part.decided or id(part) in changed_ids) for part in parts]
