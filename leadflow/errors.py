"""The errors a use case may raise to its caller; the web layer turns each into a status code."""


class LeadflowError(Exception):
    """Base: carries a stable code and a message a user can read.

    The message is an English message id (marked N_ where it is raised); `values` fill in its
    %(name)s places. The API answers with it filled in, in English; a page translates the id first
    (leadflow.web.templating.error_words) and fills in the same values."""
    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None, **values):
        self.msgid, self.values = message, values
        self.message = message % values if values else message
        super().__init__(self.message)
        if code:
            self.code = code


class InvalidInput(LeadflowError):
    """The request is malformed or refers to something it may not use."""
    status, code = 400, "invalid_input"


class NotFound(LeadflowError):
    """No such thing, or not one the caller may see (the two look the same from outside)."""
    status, code = 404, "not_found"


class Forbidden(LeadflowError):
    """The caller is known but their role does not allow this."""
    status, code = 403, "forbidden"


class Conflict(LeadflowError):
    """The thing is not in a state that allows this now."""
    status, code = 409, "conflict"


class TooLarge(LeadflowError):
    """The file is over the size limit."""
    status, code = 413, "file_too_large"


class Unavailable(LeadflowError):
    """A part we depend on (storage, database) is down; nothing was lost, try again."""
    status, code = 503, "unavailable"
