"""Serves LocalStorage's signed URLs: GET /files/<token> streams, PUT /files/upload/<token> stores.

The signed token is the whole authorisation, as a pre-signed S3 URL is: no login, no CSRF
(the app exempts these routes). With S3 configured these URLs are never issued, and every
route here answers 404.
"""
import logging
import re
from urllib.parse import quote

from flask import Blueprint, Response, abort, current_app, jsonify, request
from werkzeug.wsgi import wrap_file

from leadflow.storage import ObjectMissing, StorageError
from leadflow.storage.local import URL_PREFIX, InvalidToken, LocalStorage

log = logging.getLogger(__name__)

files_bp = Blueprint("files", __name__, url_prefix=URL_PREFIX)

_CHUNK = 64 * 1024
# Types a browser may show inline. Anything else (HTML, SVG, ...) is sent as an attachment
# under a sandboxing CSP, so an uploaded file can never run script on the app's origin.
_INLINE_TYPES = frozenset(
    {"application/pdf", "image/png", "image/jpeg", "image/gif", "image/webp", "text/plain"}
)


@files_bp.get("/<token>")
def download(token: str):
    """A stored file, by a signed link (local storage only).
    ---
    get:
      tags: [files]
      summary: Read a stored file by its signed link
      description: Only where files are stored locally; with S3 the links point at S3 and this answers 404.
      security: []
      parameters: [{name: token, in: path, required: true, schema: {type: string}}]
      responses:
        200: {description: The file., content: {application/octet-stream: {schema: {type: string, format: binary}}}}
        403: {description: The link is invalid or expired., content: {application/json: {schema: Error}}}
        404: NotFound
    """
    storage = _local_storage()
    try:
        key = storage.verify_download(token)
    except InvalidToken as exc:
        log.info("refused a download token: %s", exc)
        return _error(403, "invalid_token", "This link is invalid or has expired.")
    try:
        stream, info = storage.open(key)
    except ObjectMissing:
        return _error(404, "not_found", "No file is stored here.")
    content_type = info.content_type or "application/octet-stream"
    response = Response(
        wrap_file(request.environ, stream, _CHUNK),
        content_type=content_type,
        direct_passthrough=True,
    )
    response.content_length = info.size
    filename = key.rsplit("/", 1)[-1]
    if content_type.split(";")[0].strip().lower() in _INLINE_TYPES:
        response.headers["Content-Disposition"] = _disposition("inline", filename)
    else:
        response.headers["Content-Disposition"] = _disposition("attachment", filename)
        response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response.headers["X-Content-Type-Options"] = "nosniff"
    # A signed link to a private document: no shared cache may keep it.
    response.headers["Cache-Control"] = "private, no-store"
    return response


@files_bp.put("/upload/<token>")
def upload(token: str):
    """The target of a direct upload (local storage only).
    ---
    put:
      tags: [files]
      summary: Store a file at the signed target POST /api/documents/uploads gave out
      description: The body is the file, sent as the content type the link was made for; a link works once.
      security: []
      parameters: [{name: token, in: path, required: true, schema: {type: string}}]
      requestBody: {required: true, content: {application/octet-stream: {schema: {type: string, format: binary}}}}
      responses:
        204: {description: Stored.}
        400: BadRequest
        403: {description: The link is invalid or expired., content: {application/json: {schema: Error}}}
        404: NotFound
        410: Gone
        413: TooLarge
        503: Unavailable
    """
    storage = _local_storage()
    try:
        grant = storage.verify_upload(token)
    except InvalidToken as exc:
        log.info("refused an upload token: %s", exc)
        return _error(403, "invalid_token", "This upload link is invalid or has expired.")
    if storage.is_sealed(grant.key):
        # The upload was completed and moved to the document's own key: a link is one-shot.
        return _error(410, "upload_completed", "This upload is complete; its link cannot be used again.")
    # Exactly the type the link was issued for, as S3's POST policy condition demands.
    if (request.headers.get("Content-Type") or "").strip() != grant.content_type:
        return _error(400, "wrong_content_type", f"Upload as {grant.content_type}.")
    too_large = _error(413, "too_large", f"The file is larger than {grant.max_bytes} bytes.")
    if request.content_length is not None and request.content_length > grant.max_bytes:
        return too_large
    # Content-Length may be absent (chunked) or wrong: count what actually arrives.
    body = _read_at_most(request.stream, grant.max_bytes + 1)
    if len(body) > grant.max_bytes:
        return too_large
    if not body:
        return _error(400, "empty", "The file is empty.")
    try:
        storage.put(grant.key, body, grant.content_type)
    except StorageError:
        log.exception("could not store an upload")
        return _error(503, "storage_unavailable", "The file could not be stored; try again.")
    return "", 204


def _local_storage() -> LocalStorage:
    storage = current_app.extensions.get("leadflow_storage")
    if not isinstance(storage, LocalStorage):
        # S3 is configured (or nothing is): these URLs do not exist.
        abort(_error(404, "not_found", "Not found."))
    return storage


def _disposition(kind: str, filename: str) -> str:
    # RFC 6266: a plain ASCII name for old clients, the exact name percent-encoded for the
    # rest. Quotes and anything else that could break out of the header are replaced.
    plain = re.sub(r"[^A-Za-z0-9._ -]", "_", filename)
    value = f'{kind}; filename="{plain}"'
    if plain != filename:
        value += f"; filename*=UTF-8''{quote(filename, safe='')}"
    return value


def _read_at_most(stream, limit: int) -> bytes:
    chunks, total = [], 0
    while total < limit:
        chunk = stream.read(min(_CHUNK, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _error(status: int, code: str, message: str):
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    return response
