"""The client's language: English or German, remembered as `User.language`, and the portal's words in both.

Verification notes already come in both languages (`{"code", "en", "de"}`) and checklist items carry
their own names; this module holds the rest of what a client reads: the page, the statuses, and the
messages the upload script shows (handed to it as JSON, so one table serves server and browser).
"""
from leadflow.errors import InvalidInput

LANGUAGES = {"en": "English", "de": "Deutsch"}
DEFAULT = "en"

# What a client reads for each status. Upper case because the badge is set that way; English keeps
# the words staff use where they mean the same to a client (VERIFIED, REJECTED).
STATUS = {
    "PENDING": ("RECEIVED", "EINGEGANGEN"),
    "PROCESSING": ("CHECKING", "WIRD GEPRÜFT"),
    "EXTRACTING": ("READING", "WIRD GELESEN"),
    "VERIFIED": ("VERIFIED", "AKZEPTIERT"),
    "REJECTED": ("REJECTED", "ABGELEHNT"),
    "ACTION_REQUIRED": ("WITH A SPECIALIST", "BEI EINER FACHKRAFT"),
}

# A checklist item's state (leadflow.domain.checklist.ItemState.state).
ITEM_STATE = {
    "done": ("Complete", "Vollständig"),
    "waiting": ("Being checked", "Wird geprüft"),
    "rejected": ("Please upload again", "Bitte neu hochladen"),
    "missing": ("Still needed", "Noch offen"),
    "not_needed": ("Not needed", "Nicht erforderlich"),
}

# What exactly to upload for each checklist item (leadflow.domain.checklist.ITEMS keys).
ITEM_HINT = {
    "identity": ("A valid passport or national ID card: the photo page, or both sides of a card.",
                 "Ein gültiger Reisepass oder Personalausweis: die Lichtbildseite bzw. beide Seiten der Karte."),
    "residence_permit": ("Only if you are not a citizen of the EU, the EEA or Switzerland: both sides of the card.",
                         "Nur wenn Sie nicht Bürger der EU, des EWR oder der Schweiz sind: beide Seiten der Karte."),
    "payslips": ("Your three most recent monthly payslips.",
                 "Ihre drei letzten monatlichen Gehaltsabrechnungen."),
    "bank_statements": ("Statements of the account your salary is paid into, covering the last three months.",
                        "Auszüge des Kontos, auf das Ihr Gehalt fließt, für die letzten drei Monate."),
    "wage_tax_certificate": ("The Lohnsteuerbescheinigung your employer issued for last year.",
                             "Die Lohnsteuerbescheinigung Ihres Arbeitgebers für das letzte Jahr."),
    "tax_assessment": ("The latest Steuerbescheid from your tax office.",
                       "Ihr letzter Steuerbescheid vom Finanzamt."),
    "employment_contract": ("Your current employment contract, every page.",
                            "Ihr aktueller Arbeitsvertrag, alle Seiten."),
}

TYPE_NAME = {
    "payslip": ("Payslip", "Gehaltsabrechnung"),
    "bank_statement": ("Bank statement", "Kontoauszug"),
    "tax_assessment": ("Tax assessment", "Steuerbescheid"),
    "wage_tax_certificate": ("Wage tax certificate", "Lohnsteuerbescheinigung"),
    "employment_contract": ("Employment contract", "Arbeitsvertrag"),
    "id_document": ("Passport or ID card", "Reisepass oder Personalausweis"),
    "residence_permit": ("Residence permit", "Aufenthaltstitel"),
    "invoice": ("Invoice", "Rechnung"),
    "receipt": ("Receipt", "Quittung"),
}

TEXT = {
    # the page
    "title": ("Your documents", "Ihre Unterlagen"),
    "lead": ("A German lender asks for the documents below before it decides on your mortgage. "
             "Upload them here: we check each one within moments and tell you if anything is missing.",
             "Bevor eine deutsche Bank über Ihre Finanzierung entscheidet, braucht sie die folgenden Unterlagen. "
             "Laden Sie sie hier hoch: Wir prüfen jedes Dokument sofort und sagen Ihnen, wenn etwas fehlt."),
    "language": ("Language", "Sprache"),
    "cases": ("Your cases", "Ihre Vorgänge"),
    "no_case": ("Your advisor has not opened a case for you yet. You can upload documents already; "
                "they will be added to your case.",
                "Ihr Berater hat noch keinen Vorgang für Sie angelegt. Sie können schon Unterlagen hochladen; "
                "sie werden Ihrem Vorgang zugeordnet."),
    # the upload card
    "upload_heading": ("Add documents", "Unterlagen hinzufügen"),
    "drop_title": ("Drag files here", "Dateien hierher ziehen"),
    "drop_or": ("or", "oder"),
    "drop_choose": ("choose files", "Dateien auswählen"),
    "drop_hint": ("PDF, JPEG or PNG photos; bank statements also as CAMT XML or MT940. Up to {mb} MB each. "
                  "Several at once is fine.",
                  "PDF, JPEG- oder PNG-Fotos; Kontoauszüge auch als CAMT-XML oder MT940. Bis {mb} MB pro Datei. "
                  "Mehrere auf einmal sind kein Problem."),
    "kind_label": ("What are they?", "Was ist das?"),
    "kind_unsure": ("I am not sure: find out for me", "Weiß ich nicht: bitte erkennen"),
    "kind_checklist": ("For the checklist", "Für die Checkliste"),
    "kind_other": ("Something else", "Etwas anderes"),
    "upload": ("Upload", "Hochladen"),
    "clear": ("Clear the list", "Liste leeren"),
    # the checklist
    "checklist_heading": ("What the lender needs", "Was die Bank braucht"),
    "progress": ("{done} of {total} complete", "{done} von {total} vollständig"),
    "progress_label": ("Checklist progress", "Fortschritt der Checkliste"),
    "accepted_count": ("{verified} of {needed} accepted", "{verified} von {needed} akzeptiert"),
    "add_files": ("Add files", "Dateien hinzufügen"),
    "drop_on_item": ("or drop them here", "oder hierher ziehen"),
    "upload_better": ("Upload a better one", "Besseres Dokument hochladen"),
    "other_heading": ("Other documents", "Weitere Unterlagen"),
    "other_hint": ("Documents that are not on the checklist, or whose kind we are still working out.",
                   "Unterlagen, die nicht auf der Checkliste stehen oder deren Art wir noch klären."),
    "open_file": ("Open the file", "Datei öffnen"),
    # the no-script upload answer
    "uploaded_one": ("Uploaded “{name}”. We are checking it now.", "„{name}“ hochgeladen. Wir prüfen es jetzt."),
    "not_uploaded": ("“{name}” was not uploaded: {reason}", "„{name}“ wurde nicht hochgeladen: {reason}"),
    "choose_first": ("Choose or drop files first.", "Bitte wählen Sie zuerst Dateien aus oder ziehen Sie sie hierher."),
    "language_saved": ("Language: English.", "Sprache: Deutsch."),
}

# What the upload script shows; {name}, {pct}, {n}, {ok}, {failed}, {size}, {max} are filled in there.
SCRIPT_TEXT = {
    "ready": ("Ready to upload", "Bereit zum Hochladen"),
    "queued": ("Waiting…", "Wartet…"),
    "uploading": ("Uploading… {pct}%", "Wird hochgeladen… {pct} %"),
    "checking": ("Checking the file…", "Datei wird geprüft…"),
    "done": ("Uploaded. We are checking it now.", "Hochgeladen. Wir prüfen es jetzt."),
    "failed": ("Not uploaded: {message}", "Nicht hochgeladen: {message}"),
    "remove": ("Remove", "Entfernen"),
    "summary_one": ("Uploaded 1 file. We are checking it now.", "1 Datei hochgeladen. Wir prüfen sie jetzt."),
    "summary_many": ("Uploaded {n} files. We are checking them now.", "{n} Dateien hochgeladen. Wir prüfen sie jetzt."),
    "summary_some": ("Uploaded {ok} of {n} files. {failed} could not be uploaded: see the list.",
                     "{ok} von {n} Dateien hochgeladen. {failed} konnten nicht hochgeladen werden: siehe Liste."),
    "summary_none": ("Nothing was uploaded: see the reason beside each file.",
                     "Nichts wurde hochgeladen: Den Grund finden Sie neben jeder Datei."),
    "choose_first": TEXT["choose_first"],
    "network": ("The connection broke off. Please try again.",
                "Die Verbindung wurde unterbrochen. Bitte versuchen Sie es erneut."),
    "signed_out": ("You were signed out. Please sign in again and retry.",
                   "Sie wurden abgemeldet. Bitte melden Sie sich erneut an und versuchen Sie es noch einmal."),
    "leave": ("Uploads are still running. Leave anyway?", "Es laufen noch Uploads. Trotzdem verlassen?"),
}

# The API's refusals, by error code, in German (English shows the API's own message).
ERROR_DE = {
    "unsupported_type": "Dieser Dateityp wird nicht unterstützt. Bitte laden Sie ein PDF, ein JPEG- oder PNG-Foto "
                        "oder einen Kontoauszug als CAMT-XML oder MT940 hoch.",
    "file_too_large": "Die Datei ist {size} MB groß; erlaubt sind höchstens {max} MB.",
    "too_large": "Die Datei ist {size} MB groß; erlaubt sind höchstens {max} MB.",
    "content_mismatch": "Der Inhalt der Datei passt nicht zu ihrer Endung. Bitte laden Sie die Originaldatei hoch.",
    "empty_file": "Die Datei ist leer.",
    "empty": "Die Datei ist leer.",
    "upload_missing": "Die Datei ist nicht im Speicher angekommen. Bitte versuchen Sie es erneut.",
    "storage_unavailable": "Die Datei konnte gerade nicht gespeichert werden. Bitte versuchen Sie es erneut.",
    "unavailable": "Die Datei konnte gerade nicht gespeichert werden. Bitte versuchen Sie es erneut.",
}


def language_of(user) -> str:
    """The user's language, or the default for anyone without a valid one."""
    language = getattr(user, "language", None)
    return language if language in LANGUAGES else DEFAULT


def checked_language(value) -> str:
    """A language a client may choose; InvalidInput for anything else."""
    if value not in LANGUAGES:
        raise InvalidInput(f"Choose one of: {', '.join(LANGUAGES)}.", code="unknown_language")
    return value


def t(key: str, language: str, **values) -> str:
    return _pick(TEXT[key], language).format(**values)


def status_label(status: str, language: str) -> str:
    return _pick(STATUS.get(status, (status.replace("_", " "),) * 2), language)


def item_state_label(state: str, language: str) -> str:
    return _pick(ITEM_STATE[state], language)


def item_name(item, language: str) -> str:
    return item.de if language == "de" else item.en


def item_hint(item, language: str) -> str:
    return _pick(ITEM_HINT.get(item.key, ("", "")), language)


def type_name(document_type: str | None, language: str) -> str:
    return _pick(TYPE_NAME[document_type], language) if document_type in TYPE_NAME else ""


def note_text(note: dict, language: str) -> str:
    """A verification note in the language, falling back to English when it has none."""
    return (note.get(language) or note.get("en") or "") if isinstance(note, dict) else str(note)


def script_text(language: str) -> dict:
    """Everything the upload script needs to say, in one language."""
    texts = {key: _pick(pair, language) for key, pair in SCRIPT_TEXT.items()}
    texts["errors"] = ERROR_DE if language == "de" else {}
    return texts


TEMPLATE_HELPERS = {
    "t": t, "status_label": status_label, "item_state_label": item_state_label, "item_name": item_name,
    "item_hint": item_hint, "type_name": type_name, "note_text": note_text, "client_language": language_of,
    "LANGUAGES": LANGUAGES,
}


def _pick(pair: tuple[str, str], language: str) -> str:
    return pair[1] if language == "de" else pair[0]
