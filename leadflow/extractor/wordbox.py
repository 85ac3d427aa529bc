"""A word and its box: what the layout, the joining of words and the field readers share."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Word:
    """One word and its box; y grows downwards from the top of the page, units are the source's
    own (PDF points or image pixels). `conf` is OCR's 0-100 confidence, 100 for a text layer."""
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    page: int
    conf: float = 100.0
    spaced: bool = False  # joined from a title's spaced letters: its gap to the next word is no column's

    @property
    def height(self) -> float:
        return max(self.y1 - self.y0, 0.1)
