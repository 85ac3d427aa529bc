"""The client's language: English or German, remembered as `User.language`, and the portal's words.

The words are English message ids here and in leadflow.domain.document_types; the catalogs under
translations/ hold their German (`make i18n-extract i18n-update i18n-compile`). Flask-Babel picks a
request's locale (`select_locale`); the helpers below take the language explicitly as well, because a
socket push renders a client's row in that client's language, not the sender's. Verification notes
come with both languages stored (`{"code", "en", "de"}`) and checklist items carry their own names.
The upload script's messages are handed to it as JSON, so one table serves server and browser.
"""
from flask import has_request_context, request
from flask_babel import force_locale, get_locale, gettext
from flask_login import current_user

from leadflow import words
from leadflow.domain import document_types, filetypes
from leadflow.errors import InvalidInput

LANGUAGES = {"en": "English", "de": "Deutsch"}
DEFAULT = "en"


def N_(msgid: str) -> str:
    """Marks a message id for `pybabel extract`; `_in` translates it where it is shown."""
    return msgid


# What a client reads for each status. Upper case because the badge is set that way; English keeps
# the words staff use where they mean the same to a client (VERIFIED, REJECTED).
STATUS = {
    "PENDING": N_("RECEIVED"),
    "PROCESSING": N_("CHECKING"),
    "EXTRACTING": N_("READING"),
    "VERIFIED": N_("VERIFIED"),
    "REJECTED": N_("REJECTED"),
    "ACTION_REQUIRED": N_("WITH A SPECIALIST"),
}

# A checklist item's state (leadflow.domain.checklist.ItemState.state).
ITEM_STATE = {
    "done": N_("Complete"),
    "waiting": N_("Being checked"),
    "rejected": N_("Please upload again"),
    "missing": N_("Still needed"),
    "not_needed": N_("Not needed"),
}

# What exactly to upload for each checklist item (leadflow.domain.checklist.ITEMS keys).
ITEM_HINT = {
    "identity": N_("A valid passport or national ID card: the photo page, or both sides of a card."),
    "residence_permit": N_("Only if you are not a citizen of the EU, the EEA or Switzerland: both sides of the card."),
    "payslips": N_("Your three most recent monthly payslips."),
    "bank_statements": N_("Statements of the account your salary is paid into, covering the last three months."),
    "wage_tax_certificate": N_("The Lohnsteuerbescheinigung your employer issued for last year."),
    "tax_assessment": N_("The latest Steuerbescheid from your tax office."),
    "employment_contract": N_("Your current employment contract, every page."),
}

TEXT = {
    # the page
    "title": N_("Your documents"),
    "lead": N_("A German lender asks for the documents below before it decides on your mortgage. "
             "Upload them here: we check each one within moments and tell you if anything is missing."),
    "language": N_("Language"),
    "cases": N_("Your cases"),
    "no_case": N_("Your advisor has not opened a case for you yet. You can upload documents already; "
                "they will be added to your case."),
    # the upload card
    "upload_heading": N_("Add documents"),
    "drop_title": N_("Drag files here"),
    "drop_or": N_("or"),
    "drop_choose": N_("choose files"),
    "drop_hint": N_("PDF, JPEG or PNG photos; bank statements also as CAMT XML or MT940. Up to {mb} MB each. "
                  "Several at once is fine."),
    "kind_label": N_("What are they?"),
    "kind_unsure": N_("I am not sure: find out for me"),
    "kind_checklist": N_("For the checklist"),
    "kind_other": N_("Something else"),
    "upload": N_("Upload"),
    "clear": N_("Clear the list"),
    # the checklist
    "checklist_heading": N_("What the lender needs"),
    "progress": N_("{done} of {total} complete"),
    "progress_label": N_("Checklist progress"),
    "accepted_count": N_("{verified} of {needed} accepted"),
    "add_files": N_("Add files"),
    "drop_on_item": N_("or drop them here"),
    "upload_better": N_("Upload a better one"),
    "other_heading": N_("Other documents"),
    "other_hint": N_("Documents that are not on the checklist, or whose kind we are still working out."),
    "open_file": N_("Open the file"),
    # the no-script upload answer
    "uploaded_one": N_("Uploaded “{name}”. We are checking it now."),
    "not_uploaded": N_("“{name}” was not uploaded: {reason}"),
    "choose_first": N_("Choose or drop files first."),
}

# What the upload script shows; {name}, {pct}, {n}, {ok}, {failed}, {size}, {max} are filled in there.
SCRIPT_TEXT = {
    "ready": N_("Ready to upload"),
    "queued": N_("Waiting…"),
    "uploading": N_("Uploading… {pct}%"),
    "checking": N_("Checking the file…"),
    "done": N_("Uploaded. We are checking it now."),
    "failed": N_("Not uploaded: {message}"),
    "remove": N_("Remove"),
    "summary_one": N_("Uploaded 1 file. We are checking it now."),
    "summary_many": N_("Uploaded {n} files. We are checking them now."),
    "summary_some": N_("Uploaded {ok} of {n} files. {failed} could not be uploaded: see the list."),
    "summary_none": N_("Nothing was uploaded: see the reason beside each file."),
    "choose_first": TEXT["choose_first"],
    "network": N_("The connection broke off. Please try again."),
    "signed_out": N_("You were signed out. Please sign in again and retry."),
    "leave": N_("Uploads are still running. Leave anyway?"),
}

# The API's refusals the upload script explains itself, by error code. In English the script shows the
# API's own message instead (errors is empty), so these English ids are only what the German translates.
ERRORS = {
    "unsupported_type": N_("This file type is not supported. Please upload a PDF, a JPEG or PNG photo "
                           "or a bank statement as CAMT XML or MT940."),
    "file_too_large": N_("The file is {size} MB; at most {max} MB are allowed."),
    "too_large": N_("The file is {size} MB; at most {max} MB are allowed."),
    "content_mismatch": N_("The file's content does not match its extension. Please upload the original file."),
    "empty_file": N_("The file is empty."),
    "empty": N_("The file is empty."),
    "upload_missing": N_("The file has not arrived in storage. Please try again."),
    "storage_unavailable": N_("The file could not be stored just now. Please try again."),
    "unavailable": N_("The file could not be stored just now. Please try again."),
}

def select_locale() -> str:
    """Flask-Babel's locale: the signed-in user's language (clients choose it on the portal, staff in
    the page's header), else the browser's best match, else English."""
    if not has_request_context():
        return DEFAULT
    if getattr(current_user, "is_authenticated", False):
        return language_of(current_user)
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT


def language_of(user) -> str:
    """The user's language, or the default for anyone without a valid one."""
    language = getattr(user, "language", None)
    return language if language in LANGUAGES else DEFAULT


def checked_language(value) -> str:
    """A language a client may choose; InvalidInput for anything else."""
    if value not in LANGUAGES:
        raise InvalidInput(f"Choose one of: {', '.join(LANGUAGES)}.", code="unknown_language")
    return value


def error_words(error) -> str:
    """A service's refusal as a page says it: its message id in the request's language, filled in
    (a status as its words), and any code in it as words."""
    locale = get_locale()
    language = locale.language if locale is not None and locale.language in LANGUAGES else DEFAULT
    values = {name: words.status(value, language) if value in words.STATUS else value
              for name, value in error.values.items()}
    return words.without_codes(gettext(error.msgid, **values), language)


def t(key: str, language: str, **values) -> str:
    return _in(language, TEXT[key]).format(**values)


def status_label(status: str, language: str) -> str:
    return _in(language, STATUS[status]) if status in STATUS else words.status(status, language)


def item_state_label(state: str, language: str) -> str:
    return _in(language, ITEM_STATE[state])


def item_name(item, language: str) -> str:
    return item.de if language == "de" else item.en


def item_hint(item, language: str) -> str:
    return _in(language, ITEM_HINT[item.key]) if item.key in ITEM_HINT else ""


def type_name(document_type: str | None, language: str) -> str:
    return _in(language, document_types.TYPES[document_type].name) if document_type in document_types.TYPES else ""


def note_text(note: dict, language: str) -> str:
    """A verification note in the language, falling back to English when it has none."""
    return (note.get(language) or note.get("en") or "") if isinstance(note, dict) else str(note)


def script_text(language: str) -> dict:
    """Everything the upload script needs to say, in one language."""
    texts = {key: _in(language, msgid) for key, msgid in SCRIPT_TEXT.items()}
    texts["errors"] = {code: _in(language, msgid) for code, msgid in ERRORS.items()} if language != DEFAULT else {}
    return texts


def upload_types() -> dict:
    """What the upload page offers, from leadflow.domain.filetypes: `types` maps each file name ending
    to its content type (the script sends it), `accept` is the file inputs' accept attribute."""
    # PDF and photos first, as a chooser lists them; then the bank statements' formats.
    ordered = sorted(filetypes.ALLOWED, key=lambda t: (t != "application/pdf", not t.startswith("image/"), t))
    types = {ending.lstrip("."): content_type for content_type in ordered for ending in filetypes.ALLOWED[content_type]}
    offered = [t for t in ordered if t == "application/pdf" or t.startswith("image/")]
    return {"types": types, "accept": ",".join(["." + ending for ending in types] + offered)}


TEMPLATE_HELPERS = {
    "t": t, "status_label": status_label, "item_state_label": item_state_label, "item_name": item_name,
    "item_hint": item_hint, "type_name": type_name, "note_text": note_text, "client_language": language_of,
    "LANGUAGES": LANGUAGES, "upload_types": upload_types,
}


def _in(language: str, msgid: str) -> str:
    """A message id in the language; the locale of the request around it is left as it was."""
    if language == DEFAULT:
        return msgid
    with force_locale(language):
        return gettext(msgid)
