"""The notes the pipeline writes on a document for its client: a code and parameters, with the words
from the catalogs under translations/ (English message ids here, German in translations/de).

A note is still stored with both languages (`{"code", "en", "de"}`), as older rows are and as the
portal and the API read them; the words are rendered here, once, when the note is written. The
catalog is read with Babel itself rather than through Flask-Babel's request locale, so a use case
run by a worker, a sweep or a unit test without an app writes the same German.
"""
from functools import lru_cache

from babel.support import NullTranslations, Translations

from leadflow import config
from leadflow.domain.verification.notes import Note


def N_(msgid: str) -> str:
    """Marks a message id for `pybabel extract`."""
    return msgid


# code -> what the client reads; {names} are the note's parameters.
TEXTS = {
    "waiting_for_credits": N_("Waiting for extraction credits: your brokerage has been told."),
    "waiting_for_allowance": N_("You have uploaded more pages today than we read for one client in a day; "
                                "we will read this document tomorrow."),
    "file_missing": N_("The file did not reach our storage. Please upload it again."),
    "file_too_large": N_("The file is larger than we accept. Please upload a smaller file."),
    "unsupported_file": N_("This file type is not supported. Please upload a PDF or a photo (JPEG, PNG)."),
    "unreadable": N_("This PDF is damaged and cannot be opened. Please upload the original file again."),
    "too_many_pages": N_("This PDF has {pages} pages; we accept at most {limit}. "
                         "Please upload only the pages we asked for."),
    "blank_pages": N_("Every page of this PDF is blank. Please upload the document with its content."),
    "system_retry": N_("Still being checked: we had a technical problem and will try again automatically. "
                       "Nothing for you to do."),
    "system_failure": N_("Still being checked: our team is looking at this document. Nothing for you to do."),
    "rerun_failed": N_("The {mode} request failed ({code}); the earlier result stands."),
    "file_unreadable": N_("We could not read this file. Please upload a clear PDF or photo of the document."),
    "packet_split": N_("This upload held {count} documents; each is checked on its own."),
    "packet_unsure": N_("This upload holds several documents, and where one ends is unsure: our team looks at "
                        "it before they are checked. Nothing for you to do."),
    "packet_part_too_long": N_("This upload holds a part longer than one document may be: our team looks at it "
                               "before its documents are checked. Nothing for you to do."),
    "packet_part_merged": N_("These pages belong to another document of the same upload; they are checked there."),
}


def note(key: str, stored_as: str | None = None, **params) -> Note:
    """The note `key` names, in English and German; its code is `stored_as` when that differs (the
    extraction service's own failure codes share one text)."""
    msgid = TEXTS[key]
    return Note(stored_as or key, msgid.format(**params), _catalog("de").gettext(msgid).format(**params))


@lru_cache(maxsize=None)
def _catalog(language: str):
    # Without a compiled catalog (`make i18n-compile`) the German falls back to the English words.
    found = Translations.load(str(config.ROOT / "translations"), [language])
    return found if isinstance(found, Translations) else NullTranslations()
