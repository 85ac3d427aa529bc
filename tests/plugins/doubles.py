"""A stand-in for the extraction service, for tests that must decide when (and whether) it
answers. The real service's side of the contract is tested over HTTP in tests/extractor."""


class HoldingService:
    """Accepts every job and reports nothing by itself: the test sends the callbacks, or none
    (a dropped callback). It does not remember jobs either: asked about one, it knows nothing."""

    def __init__(self):
        self.jobs: list[dict] = []

    def healthy(self) -> bool:
        return True

    def submit(self, **job) -> None:
        self.jobs.append(job)

    def job(self, job_id: str):
        return None
