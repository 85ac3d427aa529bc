"""The catalogs: every message id the code and the templates use has a German translation, the
compiled catalogs are those of the .po files, and the helpers pick words by the language they are given."""
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from leadflow.domain import document_types
from leadflow.web import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"


def _catalog(language: str, compiled: bool = False):
    path = TRANSLATIONS / language / "LC_MESSAGES" / ("messages.mo" if compiled else "messages.po")
    with path.open("rb") as file:
        return read_mo(file) if compiled else read_po(file)


def _used_message_ids() -> set[str]:
    """What `make i18n-extract` finds, read the same way (babel.cfg over the code and templates)."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    return {message if isinstance(message, str) else message[0]
            for _file, _line, message, _comments, _context in
            extract_from_dir(str(ROOT), method_map, options_map)}


def test_every_message_id_in_the_code_and_templates_has_a_german_translation():
    used = _used_message_ids()
    assert {"Your documents", "RECEIVED", "Bank statement", "Ready to upload"} <= used  # the scan finds them
    german = _catalog("de")
    untranslated = sorted(msgid for msgid in used
                          if msgid not in german or not german[msgid].string or german[msgid].fuzzy)
    assert not untranslated, "run make i18n-update, translate in translations/de, make i18n-compile"


def test_the_compiled_catalogs_are_those_of_the_po_files():
    for language in ("de", "en"):
        # An untranslated plural is compiled as its own English forms: the same as leaving it out.
        source = {_key(m.id): _key(m.string) for m in _catalog(language)
                  if m.id and any(_key(m.string)) and not m.fuzzy and _key(m.string) != _key(m.id)}
        compiled = {_key(m.id): _key(m.string) for m in _catalog(language, compiled=True)
                    if m.id and _key(m.string) != _key(m.id)}
        assert compiled == source, f"make i18n-compile ({language})"


def test_a_translation_fills_in_only_what_its_message_is_given():
    for message in _catalog("de"):
        if message.id and message.string:
            assert set(_names(message.string)) <= set(_names(message.id)), message.id


def test_every_document_type_has_a_name_and_a_name_for_sentences():
    from leadflow.domain.verification import DOCUMENT_TYPES
    assert DOCUMENT_TYPES == tuple(document_types.TYPES)
    assert document_types.name("bank_statement") == "Bank statement"
    assert document_types.in_sentence("employment_contract") == "an employment contract"
    assert document_types.name("something_new") == "Something new"
    assert document_types.in_sentence("something_new") == "an unknown document"


def test_the_pipelines_notes_come_in_both_languages_from_the_catalog_without_an_app():
    from leadflow import notes
    for key in notes.TEXTS:
        note = notes.note(key, pages=60, limit=50, mode="reprocess", code="timeout", count=3).as_dict()
        assert note["code"] == key and note["en"] and note["de"] and note["de"] != note["en"], key
    pages = notes.note("too_many_pages", pages=60, limit=50)
    assert pages.en.startswith("This PDF has 60 pages; we accept at most 50.")
    assert pages.de.startswith("Dieses PDF hat 60 Seiten; wir nehmen höchstens 50.")
    assert notes.note("file_unreadable", stored_as="corrupt_file").code == "corrupt_file"


@pytest.fixture
def babel_app():
    from flask import Flask
    from flask_babel import Babel
    app = Flask("leadflow", root_path=str(ROOT))
    Babel(app, locale_selector=i18n.select_locale)
    return app


def test_the_portal_words_come_from_the_catalog_in_the_language_asked(babel_app):
    with babel_app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.status_label("PENDING", "de") == "EINGEGANGEN"
        assert i18n.status_label("PENDING", "en") == "RECEIVED"
        assert i18n.status_label("ACTION_REQUIRED", "de") == "BEI EINER FACHKRAFT"
        assert i18n.status_label("A_NEW_STATUS", "de") == "Etwas anderes"   # words, never the code
        assert i18n.item_state_label("rejected", "de") == "Bitte neu hochladen"
        assert i18n.type_name("payslip", "de") == "Gehaltsabrechnung"
        assert i18n.type_name("payslip", "en") == "Payslip"
        assert i18n.t("progress", "de", done=2, total=7) == "2 von 7 vollständig"
        script = i18n.script_text("de")
        assert script["ready"] == "Bereit zum Hochladen" and script["errors"]["empty_file"] == "Die Datei ist leer."
        assert i18n.script_text("en")["errors"] == {}, "in English the script shows the API's own message"


@pytest.mark.parametrize("header, expected", [("de-DE,de;q=0.9,en;q=0.8", "de"), ("fr, en;q=0.5", "en"),
                                              ("fr", "en"), ("", "en")])
def test_a_visitor_who_is_not_signed_in_gets_the_best_match_of_their_browser(babel_app, header, expected):
    from flask_login import LoginManager
    LoginManager(babel_app).user_loader(lambda user_id: None)
    with babel_app.test_request_context(headers={"Accept-Language": header} if header else {}):
        assert i18n.select_locale() == expected


def _names(text) -> list[str]:
    """The names a message fills in, {name} or %(name)s; of every form of a plural."""
    import re
    return [brace or percent for brace, percent in re.findall(r"\{(\w+)\}|%\((\w+)\)s", " ".join(_key(text)))]


def _key(text) -> tuple:
    """A message id or string as a tuple: one entry, or one per plural form (a .po and a .mo
    hand plural forms over as a tuple or a list)."""
    return (text,) if isinstance(text, str) else tuple(text)
