"""What every template may call: labels for types and fields, the names on a document's row, the
role predicates that show or hide an action (the services enforce the same predicates), and the
filters that put codes into words and dates into the page's format (leadflow.words).

Registered app-wide, not on one blueprint: a row renders for socket pushes too, outside any
screen's request.
"""
from datetime import date

from flask import g, url_for
from flask_babel import get_locale, gettext

from leadflow import words
from leadflow.domain import audience, document_types
from leadflow.domain.lifecycle import is_system_failure
from leadflow.domain.packets import PACKET_KIND
from leadflow.domain.verification import DOCUMENT_TYPES, unreadable_fields
from leadflow.extensions import db
from leadflow.models import Document
from leadflow.services import review as review_service
from leadflow.services import views
from leadflow.services.search import Cursor
from leadflow.web import i18n
from leadflow.web.review import FIELD_PREFIX

def register(app) -> None:
    app.context_processor(helpers)
    app.jinja_env.filters.update(FILTERS)


# The example a date input shows (the page's own format of a day whose numbers cannot be confused).
EXAMPLE_DAY = date(2027, 3, 31)


def helpers() -> dict:
    return {
        # labels
        "type_label": type_label, "field_label": field_label, "DOCUMENT_TYPES": DOCUMENT_TYPES,
        "STATUS_ORDER": views.STATUS_ORDER, "is_system_failure": is_system_failure,
        # a document's row
        "row_names": row_names, "row_cursor": row_cursor, "document_url": document_url,
        # who may do what (leadflow.domain.audience)
        "retry_offered": retry_offered, "may_retry": audience.may_retry, "may_see_credits": audience.may_see_credits,
        "may_work_on_data": audience.may_work_on_data, "may_decide": audience.may_decide,
        # a date typed on a page: its placeholder's example, shown in the page's format
        "example_day": EXAMPLE_DAY,
        # the review queue's field inputs
        "unreadable_fields": unreadable_fields, "FIELD_PREFIX": FIELD_PREFIX, "FIELD_HINTS": review_service.TYPED_LIKE,
        # codes as words, in the page's language (or the one given)
        "status_words": status_words, "code_words": code_words, "page_language": page_language,
        # the client's words (the portal, and client rows pushed over sockets)
        **i18n.TEMPLATE_HELPERS,
    }


def type_label(document_type: str | None, language: str | None = None) -> str:
    """'bank_statement' -> 'Bank statement' / 'Kontoauszug', in the page's language (`language`,
    when given, is the page's: a list looks it up once)."""
    if not document_type:
        return "—"
    if document_type == PACKET_KIND:   # a packet (issue 40) is no type of its own
        return _once(("type", document_type, language or page_language()),
                     lambda: gettext("Several documents in one file"))
    return _once(("type", document_type, language or page_language()),
                 lambda: gettext(document_types.name(document_type)))


def _once(key: tuple, words_for):
    """The words for `key` (what, which, language), put into words once per request or push: a
    row asks for the same few (a type, a status) a hundred times a page, and each gettext or
    table lookup through the locale cost some 10-20 µs."""
    said = g._get_current_object().__dict__.setdefault("words_said", {})
    found = said.get(key)
    if found is None:
        found = said[key] = words_for()
    return found


def field_label(name: str) -> str:
    """'closing_balance' -> 'Closing balance' / 'Schlusssaldo', in the page's language."""
    return words.field(name, page_language())


def page_language() -> str:
    """The language the page is rendered in: Flask-Babel's locale (the user's language; a socket
    push renders in its watcher's, leadflow.realtime.hub)."""
    locale = get_locale()
    return locale.language if locale is not None and locale.language in words.LANGUAGES else words.DEFAULT


def status_words(status: str | None, language: str | None = None) -> str:
    """'VERIFIED' -> 'Verified' / 'Geprüft'."""
    language = language or page_language()
    return _once(("status", status, language), lambda: words.status(status, language))


def code_words(code: str | None, language: str | None = None) -> str:
    """A rejection code, an audit action or a service's error code as words; never the code."""
    language = language or page_language()
    return _once(("code", code, language), lambda: words.code(code, language))


def _day(value, language: str | None = None) -> str:
    return words.day(value, language or page_language())


def _moment(value, language: str | None = None) -> str:
    return words.moment(value, language or page_language())


def _month(value, language: str | None = None) -> str:
    return words.month(value, language or page_language())


def _number(value, language: str | None = None) -> str:
    return words.number(value, language or page_language())


def _money(value, language: str | None = None) -> str:
    return words.money(value, language or page_language())


def _dates_in(text, language: str | None = None):
    return words.dates_in(text, language or page_language())


def _without_codes(text, language: str | None = None) -> str:
    """Free text (a history note) with its codes in words and its dates in the page's format."""
    language = language or page_language()
    return words.dates_in(words.without_codes(text, language), language)


def retry_offered(viewer, document: Document) -> bool:
    return audience.retry_offered(viewer.role, document.status, document.rejection_code)


def row_names(document: Document) -> dict:
    """The client's, the case's and the brokerage's names for a row, with the links that
    filter by them; looked up once per request (a page preloads them all in three queries)."""
    store = g._get_current_object()   # once: each `g.` through Flask's proxy costs a few µs, a row asked ~10
    cache = store.__dict__.setdefault("row_names", {})
    key = (document.owner_id, document.workspace_id, document.brokerage_id)
    found = cache.get(key)
    if found is not None:
        return found
    if not store.__dict__.get("names_batched"):
        # The first row of a list: fetch the names of every document this request loaded
        # (the whole list), so that a list costs three queries, not three per row.
        preload_names([o for o in db.session.identity_map.values() if isinstance(o, Document)])
    users, cases, brokerages = (store.__dict__.setdefault("names_" + kind, {})
                                for kind in ("user", "workspace", "brokerage"))
    if document.owner_id not in users or document.brokerage_id not in brokerages or (
            document.workspace_id is not None and document.workspace_id not in cases):
        preload_names([document])
    client, role = users.get(document.owner_id, ("—", None))
    found = cache[key] = {
        "client": client, "client_role": role,
        "client_url": _link("dashboard.index", "client", document.owner_id),
        "workspace": cases.get(document.workspace_id) if document.workspace_id else None,
        "workspace_url": _link("cases.show", "workspace_id", document.workspace_id) if document.workspace_id else None,
        "brokerage": brokerages.get(document.brokerage_id, ""),
    }
    return found


def document_url(document_id: str) -> str:
    """url_for("documents.show", document_id=...), built once per request."""
    return _link("documents.show", "document_id", document_id)


# Stands for a row's id in a link built once; no route or query string holds these digits otherwise.
_PLACEHOLDER = "8070605040302010"


def _link(endpoint: str, key: str, value) -> str:
    """url_for(endpoint, **{key: value}) for an id (digits, or a document's hex id: nothing to
    quote), from the link built once per request with a placeholder: a row's links cost a string
    join, not a route build each (a hundred rows made some 300 url_for calls per page)."""
    patterns = g._get_current_object().__dict__.setdefault("link_patterns", {})
    pattern = patterns.get((endpoint, key))
    if pattern is None:
        pattern = patterns[(endpoint, key)] = url_for(endpoint, **{key: int(_PLACEHOLDER)}).split(_PLACEHOLDER)
    return f"{pattern[0]}{value}{pattern[1]}"


def preload_names(rows: list[Document]) -> None:
    """Load the names row_names needs for these rows: one query per table, not per row."""
    g.names_batched = True
    for kind, read, ids in (("user", views.users_with_roles, {d.owner_id for d in rows}),
                            ("workspace", views.workspace_names, {d.workspace_id for d in rows} - {None}),
                            ("brokerage", views.brokerage_names, {d.brokerage_id for d in rows})):
        known = g.setdefault("names_" + kind, {})
        missing = ids - set(known)
        if missing:
            known.update(read(db.session, missing))


def row_cursor(document: Document) -> str:
    return Cursor.after(document).encode()


# Every date on a page goes through `day` or `moment` (one pattern per language), every date
# inside read values or notes through `dates_in`; counts and euros through `number` and `money`.
FILTERS = {"day": _day, "moment": _moment, "month": _month, "dates_in": _dates_in, "without_codes": _without_codes,
           "number": _number, "money": _money}
