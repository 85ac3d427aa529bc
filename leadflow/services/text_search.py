"""A dashboard search's text: which documents it matches, and how a page of them is read at ten
million documents (services/views.document_page asks; design.md, "The dashboard at ten million
documents").

A document matches when its title or file name holds the text, or its client's name holds or
resembles it. The matching clients are read first, once (clients_named); then the newest rows
the other filters leave are walked (newest_matches) and, when they hold less than a page of
matches, the trigram and owner indexes answer (indexed_matches).
"""
from sqlalchemy import Boolean, Integer, String, and_, any_, bindparam, false, func, or_, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.expression import ColumnElement
from sqlalchemy.sql.visitors import InternalTraversal

from leadflow import scoping
from leadflow.domain.audience import Role, Viewer
from leadflow.models import Document, User
from leadflow.services import counts
from leadflow.services.search import escape_like

# How many of the newest documents a search reads for its page before it asks the trigram
# indexes instead (newest_matches): about the square root of (a large brokerage's documents
# × a page), so that neither way reads much more than the other at its worst.
SEARCH_WINDOW = 15_000


def clients_named(session, viewer: Viewer, q: str) -> list[int]:
    """The ids of the clients the viewer may see whose name holds the search text or resembles it
    (search_condition), read once per search. The names' trigram index starts with the brokerage
    (`ix_users_brokerage_name_trgm`, btree_gin), so only the viewer's brokerage's names are
    fetched: a surname shared by 27,000 clients of all brokerages is 5,400 rows of the largest
    one, not 27,000 read and then kept to it. Both tries of a search use the list: a client's
    documents are then found by the owner index alone."""
    clients = (select(User) if viewer.brokerage_id is None  # a platform admin: every brokerage's
               else scoping.in_brokerage(User, viewer.brokerage_id))
    named = clients.with_only_columns(User.id).where(
        User.role == Role.CLIENT.value,
        or_(User.name.ilike(f"%{escape_like(q)}%", escape="\\"), resembles(q, User.name)))
    return list(session.scalars(named))


def newest_matches(session, viewer: Viewer, others, q: str, limit: int, owners: list[int]) -> list[Document] | None:
    """A search's page read from the newest SEARCH_WINDOW documents its other filters leave
    (`others`: those documents, newest first), or None when fewer than `limit` of them match.

    Two plans answer a search, and PostgreSQL cannot tell which is cheaper (how many documents
    match is what it cannot estimate): walking the documents newest first until a page matches
    is quick for a common word and reads the whole brokerage for a rare one; the trigram indexes
    are quick for a rare word and fetch and sort every match of a common one (a surname shared
    by thousands of clients). So the walk goes first, bounded: if the newest SEARCH_WINDOW rows
    hold a page of matches, every match after them is older, so those are the page (and when the
    viewer's documents number no more than SEARCH_WINDOW, the window held them all); otherwise
    matches are rare enough (under `limit` in SEARCH_WINDOW) for the indexes."""
    newest = aliased(Document, others.limit(SEARCH_WINDOW).subquery())
    matching = search_condition(q, newest, walking=True, owners=owners, array=_postgresql(session))
    rows = list(session.scalars(select(newest).where(matching)
                                .order_by(newest.created_at.desc(), newest.id.desc()).limit(limit)))
    if len(rows) >= limit or sum(counts.for_brokerage(session, viewer.brokerage_id).values()) <= SEARCH_WINDOW:
        return rows
    return None


def indexed_matches(session, others, q: str, limit: int, owners: list[int]) -> list[Document]:
    """A search's page from the trigram and owner indexes: every match (fewer than a page among
    the newest SEARCH_WINDOW rows, so rare or old), then the newest of them. On PostgreSQL the
    matches are a MATERIALIZED WITH: left to itself the planner, which cannot tell how many
    match, walked the brokerage's documents newest first for a text whose matches were all
    older (a common file name of last year: 960,000 rows read, 8 s at ten million)."""
    matches = others.where(search_condition(q, owners=owners, array=_postgresql(session))).order_by(None).cte("matches")
    if _postgresql(session):
        matches = matches.prefix_with("MATERIALIZED")
    found = aliased(Document, matches)
    return list(session.scalars(select(found).order_by(found.created_at.desc(), found.id.desc()).limit(limit)))


def search_condition(q: str, documents=Document, walking: bool = False, owners: list[int] | None = None,
                     array: bool = False):
    """A document matches the search text when its title or file name holds it (literally, any
    case), or when its client's name holds it or, on PostgreSQL, resembles it: a misspelt name.

    Two forms of the same test. For the trigram indexes: ILIKE, and the matching clients as an
    array, so that PostgreSQL reads the owner index for them and ORs the three index scans (the
    clients are looked for among every brokerage's: scoping the names by brokerage would let
    PostgreSQL read a large brokerage's every client instead of the name index, and another
    brokerage's client owns none of the viewer's documents). `walking` (rows read one by one, as
    _newest_matches does): lower() LIKE lower(), which is what ILIKE does on a UTF-8 database at
    half its cost, and the matching clients as a set hashed once. (Reading each row's client by
    id instead cost more: at ten million, 15,000 lookups for a rare name.)

    Punctuation alone ("_", "-") names no file: file names are looked at only for a search with
    a letter or digit in it (nearly every file name holds an underscore or a dot).

    `owners`: the matching clients' ids, read already (clients_named); a list, which PostgreSQL
    hashes for the walk and reads the owner index with otherwise. `array` (PostgreSQL): sent as one
    array: an IN list was one bound value per client (5,400 for a surname), each built, sent and
    planned; the array is planned as a constant (the search is planned for its values), so it is
    hashed just the same."""
    pattern = f"%{escape_like(q)}%"
    columns = [documents.title, documents.filename] if any(c.isalnum() for c in q) else [documents.title]
    if owners is not None:
        owned = [_among(documents.owner_id, owners, array)] if owners else []
        if walking:
            lowered = func.lower(pattern)
            return or_(*[func.lower(column).like(lowered, escape="\\") for column in columns], *owned)
        return or_(*[column.ilike(pattern, escape="\\") for column in columns], *owned)
    named = select(User.id).where(User.role == Role.CLIENT.value,
                                  or_(User.name.ilike(pattern, escape="\\"), resembles(q, User.name)))
    if walking:
        lowered = func.lower(pattern)
        return or_(*[func.lower(column).like(lowered, escape="\\") for column in columns],
                   documents.owner_id.in_(named))
    return or_(*[column.ilike(pattern, escape="\\") for column in columns],
               _OwnerAmong(documents.owner_id, named.scalar_subquery()))


def resembles(q: str, name):
    """On PostgreSQL, a name resembles a search of several words (a person's name) when each word
    resembles a word of the name (pg_trgm's word similarity, `word <% name`, at
    factory.RESEMBLANCE_THRESHOLD): "Jonas Andresen" finds Jonas Andersen and not Sofia Andersen.
    Word by word, not the whole name at once: the index then intersects one list of names per
    word, where a whole-name similarity reads every Andersen to find one Jonas. A single word is
    matched as written only: alone, a word that loose would resemble a tenth of all names."""
    words = q.split()
    if len(words) < 2:
        return false()
    return and_(*[or_(_Resembles(word, name), *[name.ilike(f"%{escape_like(swapped)}%", escape="\\")
                                                for swapped in _swapped(word)])
                  for word in words])


def _swapped(word: str) -> list[str]:
    """A word of three or four letters with each pair of neighbouring letters swapped: the
    commonest slip of a hurried typist, which word similarity cannot see in a word so short
    ("Stao" shares one trigram of five with "Sato", 0.2, under the threshold; a longer word keeps
    enough, "Andresen" 0.38 of "Andersen"). A lower threshold for short words would find them,
    and with them every name holding a word that starts with the same letter; a swapped pair is
    looked for as written. Shorter words have no trigram to look them up by."""
    if not 3 <= len(word) <= 4:
        return []
    variants = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
    return sorted(variants - {word})


class _Resembles(ColumnElement):
    """`word <% column` on PostgreSQL; never elsewhere."""
    type = Boolean()
    inherit_cache = True
    _traverse_internals = [("text", InternalTraversal.dp_clauseelement), ("column", InternalTraversal.dp_clauseelement)]

    def __init__(self, text: str, column):
        self.text = bindparam("resembles", text, unique=True, type_=String())
        self.column = column


@compiles(_Resembles, "postgresql")
def _resembles_postgresql(element, compiler, **kw):
    percent = "%%" if compiler.dialect.paramstyle in ("format", "pyformat") else "%"  # psycopg's % escaped
    return f"({compiler.process(element.text, **kw)} <{percent} {compiler.process(element.column, **kw)})"


@compiles(_Resembles)
def _resembles_elsewhere(element, compiler, **kw):
    return "(1 = 0)"


class _OwnerAmong(ColumnElement):
    """`owner_id = ANY(ARRAY(subquery))` on PostgreSQL (an index condition); `IN (subquery)` elsewhere."""
    type = Boolean()
    inherit_cache = True
    _traverse_internals = [("column", InternalTraversal.dp_clauseelement), ("subquery", InternalTraversal.dp_clauseelement)]

    def __init__(self, column, subquery):
        self.column = column
        self.subquery = subquery


@compiles(_OwnerAmong, "postgresql")
def _owner_among_postgresql(element, compiler, **kw):
    return f"({compiler.process(element.column, **kw)} = ANY(ARRAY{compiler.process(element.subquery, **kw)}))"


@compiles(_OwnerAmong)
def _owner_among_elsewhere(element, compiler, **kw):
    return compiler.process(element.column.in_(element.subquery), **kw)



def _among(column, ids: list[int], array: bool):
    """`column = ANY(:ids)`, the ids as one array, or `column IN (...)`."""
    return column == any_(bindparam("owners", ids, type_=ARRAY(Integer()))) if array else column.in_(ids)


def _postgresql(session) -> bool:
    return session.get_bind().dialect.name == "postgresql"
