"""The shapes the JSON API's operations refer to by name: its schemas, parameters, error answers
and ways in, and the webhook the extraction service sends. The operations themselves are in
the docstrings of the handlers that answer them (leadflow.web.openapi gathers them)."""
from leadflow.domain.applicants import ROLES
from leadflow.domain.lifecycle import Status
from leadflow.domain.filetypes import ALLOWED

JSON = "application/json"


def _nullable(kind: str, **more) -> dict:
    return {"type": [kind, "null"], **more}


TIMESTAMP = {"type": "string", "format": "date-time"}
NULLABLE_TIMESTAMP = _nullable("string", format="date-time")
DOCUMENT_ID = {"type": "string", "pattern": "^[0-9a-f]{32}$", "description": "32 lowercase hex digits."}

SCHEMAS = {
    "Error": {
        "type": "object", "required": ["error"], "additionalProperties": False,
        "description": 'Every refusal: `{"error": {"code", "message"}}`; the code is stable, the message '
                       "is for a person.",
        "properties": {"error": {
            "type": "object", "required": ["code", "message"],
            "properties": {"code": {"type": "string", "examples": ["invalid_input", "not_found"]},
                           "message": {"type": "string"}}}},
    },
    "VerificationNote": {
        "type": "object", "required": ["code", "en", "de"],
        "properties": {"code": {"type": "string"}, "en": {"type": "string"}, "de": {"type": "string"},
                       "fields": {"type": "array", "items": {"type": "string"},
                                  "description": "The fields a person is to read (fields_unreadable)."}},
    },
    "Document": {
        "type": "object",
        "required": ["id", "status", "title", "kind", "document_type", "confidence", "workspace_id", "owner_id",
                     "brokerage_id", "page_count", "verification_notes", "rejection_code", "filename",
                     "content_type", "size_bytes", "created_at", "updated_at", "verified_at", "applicant_id",
                     "joint", "applicants", "packet_id", "pages", "packet"],
        "properties": {
            "id": DOCUMENT_ID,
            "status": {"type": "string", "enum": [s.value for s in Status]},
            "title": {"type": "string"},
            "kind": _nullable("string", description="What the uploader said it is."),
            "document_type": _nullable("string", description="What extraction found, or a person decided."),
            "confidence": _nullable("number"),
            "workspace_id": _nullable("integer", description="The case it belongs to."),
            "owner_id": {"type": "integer"},
            "brokerage_id": {"type": "integer"},
            "page_count": _nullable("integer"),
            "verification_notes": {"type": "array", "items": {"$ref": "#/components/schemas/VerificationNote"}},
            "rejection_code": _nullable("string"),
            "filename": {"type": "string"},
            "content_type": {"type": "string"},
            "size_bytes": {"type": "integer"},
            "created_at": TIMESTAMP,
            "updated_at": TIMESTAMP,
            "verified_at": NULLABLE_TIMESTAMP,
            "applicant_id": _nullable("integer", description="The case's applicant it is recorded for; null: it "
                                                             "names no one we could read (it counts as the client's)."),
            "joint": {"type": "boolean", "description": "A joint account's statement: it belongs to both applicants."},
            "applicants": {"type": "array", "items": {"$ref": "#/components/schemas/Applicant"},
                           "description": "Whose it is, with their names (two when joint); empty when it is not "
                                          "part of a case or names no one we could read."},
            "packet_id": {**_nullable("string"), "description": "The packet (an upload of several documents) this "
                                                                "document was found in; null for any other."},
            "pages": {"type": ["object", "null"], "required": ["first", "last"],
                      "description": "Its pages in its packet's file (from 1); null for a document of its own.",
                      "properties": {"first": {"type": "integer"}, "last": {"type": "integer"}}},
            "packet": {"oneOf": [{"$ref": "#/components/schemas/Packet"}, {"type": "null"}],
                       "description": "For a packet: its split and its documents; null for any other."},
        },
    },
    "Packet": {
        "type": "object", "required": ["id", "state", "revision", "parts", "children"],
        "description": "How an upload of several documents was split.",
        "properties": {
            "id": DOCUMENT_ID,
            "state": {"type": "string", "enum": ["reading", "unsure", "split", "single"],
                      "description": "reading: being read; unsure: waits for a person (the packet is "
                                     "ACTION_REQUIRED); split: its documents exist; single: it held one document, "
                                     "the packet itself."},
            "revision": {"type": "integer", "description": "Rises with every split applied; a correction names it."},
            "parts": {"type": "array", "items": {"$ref": "#/components/schemas/PacketPart"}},
            "children": {"type": "array", "items": DOCUMENT_ID, "description": "Its documents' ids, in part order."},
        },
    },
    "PacketPart": {
        "type": "object",
        "required": ["index", "first", "last", "document_type", "confidence", "boundary_confidence", "sure",
                     "decided", "document_id"],
        "properties": {
            "index": {"type": "integer", "description": "From 1, in page order: the `part` a correction names."},
            "first": {"type": "integer"}, "last": {"type": "integer"},
            "document_type": _nullable("string"),
            "confidence": _nullable("number", description="Of its type."),
            "boundary_confidence": _nullable("number", description="The less sure of its two edges."),
            "sure": {"type": "boolean", "description": "False: a person should look at it."},
            "decided": {"type": "boolean", "description": "A person set its pages or type."},
            "document_id": {**_nullable("string"), "description": "The document made from it, once made."},
        },
    },
    "PacketChildren": {
        "type": "object", "required": ["packet", "documents"],
        "properties": {"packet": {"oneOf": [{"$ref": "#/components/schemas/Packet"}, {"type": "null"}]},
                       "documents": {"type": "array", "items": {"$ref": "#/components/schemas/Document"}}},
    },
    "SplitChange": {
        "type": "object", "required": ["change"],
        "properties": {
            "change": {"type": "string", "enum": ["confirm", "move_boundary", "merge", "split", "change_type"]},
            "part": {"type": "integer", "minimum": 1, "description": "The part changed (its `index`)."},
            "page": {"type": "integer", "minimum": 1, "description": "Where the part starts (move_boundary), or "
                                                                     "where the second part starts (split)."},
            "document_type": {"type": "string", "description": "change_type: its type; split: the second part's."},
            "revision": {"type": "integer", "minimum": 0, "description": "The packet's revision the caller saw."},
        },
    },
    "Applicant": {
        "type": "object", "required": ["id", "role", "name", "date_of_birth", "citizenship"],
        "description": "A person who applies for the case's mortgage.",
        "properties": {
            "id": _nullable("integer", description="Null for a client not stored as an applicant yet."),
            "role": {"type": "string", "enum": list(ROLES)},
            "name": {"type": "string"},
            "date_of_birth": _nullable("string", format="date"),
            "citizenship": _nullable("string", description="ISO 3166 alpha-2 (or alpha-3, as an MRZ writes "
                                                           "it); null while unknown."),
        },
    },
    "Applicants": {
        "type": "object", "required": ["applicants"],
        "properties": {"applicants": {"type": "array", "items": {"$ref": "#/components/schemas/Applicant"}}},
    },
    "NewApplicant": {
        "type": "object", "required": ["name"], "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 200},
            "date_of_birth": _nullable("string", format="date", description="Empty or null: unknown."),
            "citizenship": _nullable("string", maxLength=3, description="ISO 3166 alpha-2; empty or null: unknown."),
        },
    },
    "ApplicantCorrection": {
        "type": "object", "minProperties": 1, "additionalProperties": False,
        "description": "Only the fields sent change.",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 200},
            "date_of_birth": _nullable("string", format="date", description="Empty or null: unknown."),
            "citizenship": _nullable("string", maxLength=3, description="ISO 3166 alpha-2; empty or null: unknown."),
        },
    },
    "ApplicantRemoved": {
        "type": "object", "required": ["back_to_a_person", "applicants"],
        "properties": {
            "back_to_a_person": {"type": "array", "items": DOCUMENT_ID,
                                 "description": "The documents that went back to a person (ACTION_REQUIRED)."},
            "applicants": {"type": "array", "items": {"$ref": "#/components/schemas/Applicant"}},
        },
    },
    "DocumentPage": {
        "type": "object", "required": ["documents", "next_cursor"],
        "properties": {"documents": {"type": "array", "items": {"$ref": "#/components/schemas/Document"}},
                       "next_cursor": _nullable("string", description="Pass as `cursor` for the next page.")},
    },
    "HistoryEntry": {
        "type": "object", "required": ["kind", "at"],
        "description": "A client sees `status` entries only; staff see every audit row and callback.",
        "properties": {
            "kind": {"type": "string", "enum": ["status", "audit", "callback"]},
            "at": TIMESTAMP,
            "from_status": _nullable("string"), "to_status": _nullable("string"),
            "action": {"type": "string"}, "actor_id": _nullable("integer"), "note": _nullable("string"),
            "delivery_id": {"type": "string"}, "job_id": _nullable("string"), "event_type": _nullable("string"),
            "payload": {"description": "The callback's body as it came."},
        },
    },
    "History": {
        "type": "object", "required": ["history"],
        "properties": {"history": {"type": "array", "items": {"$ref": "#/components/schemas/HistoryEntry"}}},
    },
    "Version": {
        "type": "object",
        "required": ["id", "part", "number", "cause", "actor_id", "job_id", "replaces_id", "created_at"],
        "properties": {"id": {"type": "string"}, "part": {"type": "string", "enum": ["content", "schema"]},
                       "number": {"type": "integer"}, "cause": {"type": "string"},
                       "actor_id": _nullable("integer"), "job_id": _nullable("string"),
                       "replaces_id": _nullable("string"), "created_at": TIMESTAMP},
    },
    "Versions": {
        "type": "object", "required": ["versions"],
        "properties": {"versions": {"type": "array", "items": {"$ref": "#/components/schemas/Version"}}},
    },
    "Content": {
        "type": "object", "required": ["version", "cause", "content"],
        "properties": {"version": {"type": "integer"}, "cause": {"type": "string"},
                       "content": {"type": "object", "description": "The fields read, by name."}},
    },
    "Schema": {
        "type": "object", "required": ["version", "cause", "schema"],
        "properties": {"version": {"type": "integer"}, "cause": {"type": "string"},
                       "schema": {"type": "object", "description": "The JSON Schema the content follows."}},
    },
    "UploadOffer": {
        "type": "object", "required": ["filename", "content_type", "size"],
        "properties": {
            "filename": {"type": "string", "minLength": 1, "maxLength": 300},
            "content_type": {"type": "string", "enum": sorted(ALLOWED)},
            "size": {"type": "integer", "minimum": 1, "description": "The file's size in bytes."},
            "title": {"type": "string", "maxLength": 300},
            "kind": {"type": "string", "maxLength": 40},
            "workspace_id": {"type": "integer", "minimum": 1},
            "split": {"type": "string", "enum": ["auto", "none"],
                      "description": "`auto`: the file may hold several documents (a packet); send no kind then."},
        },
    },
    "UploadTarget": {
        "type": "object", "required": ["document_id", "upload"],
        "properties": {
            "document_id": DOCUMENT_ID,
            "upload": {
                "type": "object", "required": ["method", "url"],
                "description": "Send the file there as told: `PUT` with `headers` (local storage) or a "
                               "`POST` form with `fields` and the file last (S3); then `complete`.",
                "properties": {"method": {"type": "string", "enum": ["PUT", "POST"]}, "url": {"type": "string"},
                               "headers": {"type": "object", "additionalProperties": {"type": "string"}},
                               "fields": {"type": "object", "additionalProperties": {"type": "string"}}}},
        },
    },
    "Customisation": {
        "type": "object", "required": ["output_spec"],
        "properties": {"output_spec": {"type": "object", "description": "The output shape the extraction "
                                                                         "service is asked for."}},
    },
    "Corrections": {
        "type": "object", "required": ["changes"],
        "properties": {"changes": {"type": "object", "description": "Field name to its corrected value."}},
    },
    "ShareRequest": {
        "type": "object", "required": ["email"],
        "properties": {"email": {"type": "string", "maxLength": 320}},
    },
    "Share": {
        "type": "object", "required": ["document_id", "user_id"],
        "properties": {"document_id": DOCUMENT_ID, "user_id": {"type": "integer"}},
    },
    "Decision": {
        "type": "object",
        "description": "One of: the type a person read, the fields the reader missed, or a rejection.",
        "properties": {"document_type": {"type": "string"}, "reject": {"type": "string"},
                       "fields": {"type": "object", "additionalProperties": {"type": "string"}}},
    },
    "Credits": {
        "type": "object", "required": ["wallet", "open_reservations"],
        "properties": {
            "wallet": {"type": "object", "required": ["granted", "balance", "reserved", "settled"],
                       "properties": {name: {"type": "integer", "description": "Pages."}
                                      for name in ("granted", "balance", "reserved", "settled")}},
            "open_reservations": {"type": "array", "items": {
                "type": "object", "required": ["job_id", "pages", "created_at", "expires_at"],
                "properties": {"job_id": {"type": "string"}, "pages": {"type": "integer"},
                               "created_at": TIMESTAMP, "expires_at": NULLABLE_TIMESTAMP}}},
        },
    },
    "ExtractionCallback": {
        "type": "object", "required": ["type", "job_id", "data"],
        "description": "A finished job. Any JSON object is recorded; one of another type is ignored.",
        "properties": {
            "type": {"type": "string", "enum": ["job.completed", "job.failed"]},
            "job_id": {"type": "string", "maxLength": 64},
            "data": {"type": "object", "properties": {
                "document_type": {"type": "string"}, "confidence": {"type": "number"},
                "pages": {"type": "integer"}, "content": {"type": "object"}, "schema": {"type": "object"},
                "error": {"type": "object", "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                                                          "retryable": {"type": "boolean"}}}}},
        },
    },
    "CallbackReceipt": {
        "type": "object", "required": ["delivery_id", "duplicate"],
        "properties": {"delivery_id": {"type": "string", "description": "The `webhook-id`."},
                       "duplicate": {"type": "boolean"}},
    },
    "Health": {
        "type": "object", "required": ["status"],
        "properties": {"status": {"type": "string", "enum": ["ok", "unavailable"]},
                       "database": {"type": "string", "enum": ["up", "down"]}},
    },
}

PARAMETERS = {
    "DocumentId": ("path", {"name": "document_id", "schema": {"type": "string"},
                            "description": "The document's id; anything else, or another tenant's, is a 404."}),
    "WorkspaceId": ("path", {"name": "workspace_id", "schema": {"type": "integer"},
                             "description": "The case's id; another tenant's is a 404."}),
    "ApplicantRole": ("path", {"name": "role", "schema": {"type": "string", "enum": list(ROLES)},
                               "description": "The client or the co-applicant."}),
    "Version": ("query", {"name": "version", "schema": {"type": "integer", "minimum": 1},
                          "description": "A version number; the newest when absent."}),
}
# Standard Webhooks (https://www.standardwebhooks.com): HMAC-SHA256 over `id.timestamp.body`.
SIGNATURE_HEADERS = [
    {"name": "webhook-id", "in": "header", "required": True, "schema": {"type": "string", "maxLength": 255},
     "description": "The delivery's id: recorded once, a repeat is a duplicate."},
    {"name": "webhook-timestamp", "in": "header", "required": True, "schema": {"type": "string"},
     "description": "Unix seconds; refused when more than 5 minutes away."},
    {"name": "webhook-signature", "in": "header", "required": True, "schema": {"type": "string"},
     "description": "`v1,<base64 HMAC-SHA256>` entries, space-separated (secret rotation)."},
]

_REFUSALS = {
    "BadRequest": (400, "The request is malformed; nothing was written."),
    "Unauthenticated": (401, "No session and no valid bearer token."),
    "Forbidden": (403, "The caller's role may not do this."),
    "NotFound": (404, "No such thing, or not one the caller may see."),
    "Conflict": (409, "Not in a state that allows this now."),
    "Gone": (410, "This link was used already."),
    "TooLarge": (413, "The file is over the size limit."),
    "Unavailable": (503, "A part we depend on is down; nothing was lost, try again."),
}
RESPONSES = {name: {"description": text, "content": {JSON: {"schema": "Error"}}}
             for name, (_status, text) in _REFUSALS.items()}

SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer",
               "description": "An API token: `flask --app app leadflow create-token EMAIL` prints one."},
    "session": {"type": "apiKey", "in": "cookie", "name": "session",
                "description": "The browser's session after signing in; a request that changes something also "
                               "sends the page's CSRF token as `X-CSRFToken`."},
}

WEBHOOKS = {
    "extractionResult": {"post": {
        "summary": "A job's result, from the extraction service to LeadFlow",
        "description": "Sent by the extraction service to the job's `callback_url` "
                       "(`POST /api/extraction/callbacks`), signed as Standard Webhooks. A delivery may come "
                       "twice, late or out of order; its `webhook-id` makes it count once.",
        "tags": ["extraction"],
        "parameters": SIGNATURE_HEADERS,
        "requestBody": {"required": True, "content": {JSON: {"schema": {
            "$ref": "#/components/schemas/ExtractionCallback"}}}},
        "responses": {"202": {"description": "Recorded."},
                      "200": {"description": "Recorded before: a duplicate."},
                      "401": {"description": "The signature is missing, stale or wrong."}},
    }},
}
