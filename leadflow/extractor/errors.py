"""The failures a job can end in, each carrying the wire `error.code` LeadFlow reads."""


class ExtractionError(Exception):
    """A job could not produce content; `code` and `retryable` go into the job.failed callback."""

    code = "internal_error"
    retryable = True

    def __init__(self, message: str, *, retryable: bool | None = None):
        super().__init__(message)
        self.message = message
        if retryable is not None:
            self.retryable = retryable

    def as_wire(self) -> dict:
        return {"code": self.code, "message": self.message, "retryable": self.retryable}


class FetchFailed(ExtractionError):
    """The document URL could not be fetched (network error, timeout or an error status)."""

    code = "fetch_failed"


class UnsupportedType(ExtractionError):
    """The bytes are none of the formats this service reads (checked by magic bytes)."""

    code = "unsupported_type"
    retryable = False


class Unreadable(ExtractionError):
    """The file claims a known format but is damaged, truncated, encrypted or undecodable."""

    code = "unreadable"
    retryable = False


class TooLarge(ExtractionError):
    """The file, its page count or an image's pixel count is over the service's limits."""

    code = "too_large"
    retryable = False


class InternalError(ExtractionError):
    """A fault of this service (a bug, or a missing OCR engine); worth retrying after a fix."""

    code = "internal_error"
    retryable = True
