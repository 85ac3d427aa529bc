"""Drawing a drawn layout: a label and its value where the style puts them, address blocks, tables, page furniture.

A Page wraps bench.synthetic's Sheet with a cursor (y, mm from the top) and the style, so the
type modules say what stands on the page and the style decides how it looks.
"""
import random

from reportlab.lib.units import mm

from bench.layout_space._style import Style
from bench.synthetic._sheet import PAGE_H, PAGE_W, Sheet

BOTTOM = 262.0  # below this the footer lives; content moves to a new page
# Where German compounds of the lexicons break at a line's end: the part after the hyphen.
COMPOUND_TAILS = ("betrag", "bezug", "bezüge", "verdienst", "lohn", "entgelt", "gehalt", "zeitraum", "monat",
                  "klasse", "saldo", "kontostand", "einkommen", "steuer", "nummer", "datum", "bezuege")


def hyphenate(label: str) -> tuple[str, str] | None:
    """ "Auszahlungsbetrag" -> ("Auszahlungs-", "betrag"); None when no known tail ends the word."""
    lower = label.lower()
    for tail in COMPOUND_TAILS:
        if lower.endswith(tail) and len(label) - len(tail) >= 4:
            cut = len(label) - len(tail)
            return f"{label[:cut]}-", label[cut:]
    return None


class Page:
    def __init__(self, style: Style, rng: random.Random, title: str, furniture: dict | None = None):
        self.style, self.rng = style, rng
        self.sheet = Sheet(style.family, title)
        self.left = style.margin
        self.right = PAGE_W - style.margin + 2
        self.y = 18.0
        self.furniture = furniture or {}
        self.size = style.size

    # --- furniture ----------------------------------------------------------------------------

    def letterhead(self, name: str, lines=(), align: str | None = None) -> None:
        """The issuer's name and address at the top, with a logo box for some."""
        s, rng = self.style, self.rng
        align = align or rng.choice(("left", "left", "right", "center"))
        x = {"left": self.left, "right": self.right, "center": PAGE_W / 2}[align]
        if s.logo:
            initials = "".join(w[0] for w in name.split()[:2]).upper()
            bx = self.left if align != "left" else self.right - 22
            self.sheet.box(bx, self.y - 6, 22, 12, 0.8, shade=rng.choice((None, 0.85)))
            self.sheet.text(bx + 11, self.y + 2, initials, 12, bold=True, align="center")
        self.sheet.text(x, self.y, name, self.size + rng.choice((1.5, 2.5, 3.5)), bold=True, align=align)
        y = self.y + 5
        for line in lines:
            self.sheet.text(x, y, line, self.size - 1.5, align=align)
            y += 3.8
        self.y = y + 4

    def address(self, lines, x: float | None = None, y: float | None = None, sender: str = "") -> float:
        """A window envelope's block; the sender's line small above it for some issuers."""
        x = self.left if x is None else x
        y = max(self.y, 45.0) if y is None else y
        if sender:
            self.sheet.text(x, y - 5, sender, 6.5)
            self.sheet.rule(x, y - 4.2, x + min(85, self.sheet.width(sender, 6.5)), 0.2)
        bottom = self.sheet.lines(x, y, [line for line in lines if line], self.size + 0.5, leading=(self.size + 0.5) * 0.45)
        return bottom

    def title(self, text: str, size: float | None = None, align: str = "left") -> None:
        x = {"left": self.left, "right": self.right, "center": PAGE_W / 2}[align]
        text, size = self.style.title(text), size or self.size + 3
        while size > 7 and self.sheet.width(text, size, True) > self.right - self.left:
            size -= 0.5  # a long title set smaller, as a designer would, not off the page
        self.sheet.text(x, self.y, text, size, bold=True, align=align)
        self.y += 9

    def heading(self, text: str) -> None:
        self.room(12)
        self.sheet.text(self.left, self.y, self.style.word(text), self.size + 0.5, bold=True)
        if self.style.rules:
            self.sheet.rule(self.left, self.y + 1.5, self.right, 0.4)
        self.y += 6

    def text(self, value: str, size: float | None = None, bold: bool = False, x: float | None = None) -> None:
        self.room(6)
        self.sheet.text(self.left if x is None else x, self.y, value, size or self.size, bold)
        self.y += (size or self.size) * 0.48

    def paragraph(self, text: str, width: float | None = None, size: float | None = None, x: float | None = None,
                  bold: bool = False) -> None:
        """Running text broken into lines that fit (in a column from x when given)."""
        size = size or self.size
        width = width or (self.right - (self.left if x is None else x))
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if self.sheet.width(trial, size, bold) > width and line:
                self.text(line, size, bold, x)
                line = word
            else:
                line = trial
        if line:
            self.text(line, size, bold, x)
        self.y += 1.5

    # --- a label and its value --------------------------------------------------------------

    def pair(self, label: str, value: str, x: float | None = None, width: float | None = None,
             placement: str | None = None, bold: bool = False) -> None:
        """One printed field where the style (or the caller) puts it; the cursor moves below it."""
        x = self.left if x is None else x
        width = width or (self.right - x)
        placement = placement or self.style.placement
        size = self.size
        self.room(12)
        s = self.sheet
        if placement == "colon":
            s.text(x, self.y, f"{label}: {value}", size, bold)
            self.y += size * 0.5
        elif placement == "leader":
            s.leader(x, x + width, self.y, label, value, size, bold)
            self.y += size * 0.5
        elif placement == "below":
            s.text(x, self.y, label, size - 1.5)
            s.text(x, self.y + size * 0.42, value, size, bold)
            self.y += size * 0.95
        elif placement == "box":
            s.box(x, self.y - size * 0.4, width, size * 0.95, 0.3)
            s.text(x + 1.2, self.y, label, size - 2)
            s.text(x + 1.2, self.y + size * 0.4, value, size, bold)
            self.y += size * 1.05
        elif placement == "wrap" and (" " in label.strip() or hyphenate(label)):
            # A long label broken over two lines (between words, or hyphenated inside a compound
            # as a narrow column breaks "Auszahlungs-betrag"); its value stands on the second.
            if " " in label.strip():
                words = label.split()
                half = max(1, len(words) // 2)
                first, second = " ".join(words[:half]), " ".join(words[half:])
            else:
                first, second = hyphenate(label)
            s.text(x, self.y, first, size, bold)
            s.text(x, self.y + size * 0.42, second, size, bold)
            s.text(x + width, self.y + size * 0.42, value, size, bold, align="right")
            self.y += size * 0.95
        else:  # right: label left, value flush right at the column's end
            s.text(x, self.y, label, size, bold)
            s.text(x + width, self.y, value, size, bold, align="right")
            self.y += size * 0.5

    def pairs(self, items, x: float | None = None, width: float | None = None, columns: int | None = None,
              placement: str | None = None) -> None:
        """Several fields, in one column or two side by side (the second column starts at the middle)."""
        columns = columns or (2 if self.style.two_columns and len(items) > 3 else 1)
        x = self.left if x is None else x
        width = width or (self.right - x)
        if columns == 1:
            for label, value in items:
                self.pair(label, value, x, width, placement)
            return
        gap = 8
        column_width = (width - gap) / 2
        half = (len(items) + 1) // 2
        top = self.y
        for label, value in items[:half]:
            self.pair(label, value, x, column_width, placement)
        left_bottom = self.y
        self.y = top
        for label, value in items[half:]:
            self.pair(label, value, x + column_width + gap, column_width, placement)
        self.y = max(self.y, left_bottom)

    def columns_row(self, items, bold_values: bool = True) -> None:
        """Fields as a one-row table: the labels as column headers, the values under them."""
        self.room(14)
        width = (self.right - self.left) / len(items)
        for index, (label, value) in enumerate(items):
            right = self.left + (index + 1) * width - 1
            self.sheet.text(right, self.y, label, self.size - 1.5, align="right")
            self.sheet.text(right, self.y + self.size * 0.5, value, self.size, bold_values, align="right")
        if self.style.rules:
            self.sheet.rule(self.left, self.y + 1.2, self.right, 0.3)
        self.y += self.size * 1.05

    def summary_box(self, items) -> None:
        """The totals in a shaded box, label left and value right."""
        height = len(items) * self.size * 0.5 + 4
        self.room(height + 4)
        x = self.left + (self.right - self.left) * 0.4
        self.sheet.box(x, self.y - 1, self.right - x, height, 0.6, shade=0.92)
        self.y += 3.5
        for label, value in items:
            self.sheet.text(x + 2, self.y, label, self.size, True)
            self.sheet.text(self.right - 2, self.y, value, self.size, True, align="right")
            self.y += self.size * 0.5
        self.y += 3

    def table(self, header, rows, widths, aligns=None) -> None:
        """A table over the page's width (widths are shares); rows go on to the next page, under the header again."""
        self.room(self.size * 1.5)
        self.row(header, widths, aligns, bold=True, rule=True)
        for cells in rows:
            if self.y > BOTTOM - 4:
                self.new_page()
                self.row(header, widths, aligns, bold=True, rule=True)
            self.row(cells, widths, aligns)
        self.y += 3

    def row(self, cells, widths, aligns=None, bold: bool = False, rule: bool | None = None) -> None:
        """One table row; a rule under it where the style rules its tables (always under a header)."""
        size = self.size - 0.5
        aligns = aligns or ["left"] * len(widths)
        total = self.right - self.left
        x = self.left
        for cell, share, align in zip(cells, widths, aligns):
            w = total * share / sum(widths)
            if cell:
                self.sheet.text(x + w - 1 if align == "right" else x + 1, self.y, str(cell), size, bold, align)
            x += w
        if self.style.rules if rule is None else rule:
            self.sheet.rule(self.left, self.y + size * 0.15, self.right, 0.3)
        self.y += size * 0.5

    # --- pages --------------------------------------------------------------------------------

    def room(self, needed: float) -> None:
        if self.y + needed > BOTTOM:
            self.new_page()

    def new_page(self) -> None:
        self._furnish()
        self.sheet.new_page()
        self.y = 20.0
        repeat = self.furniture.get("repeat")
        if repeat:
            # A later page repeats who and what it is about, as German letters and assessments do.
            for line in repeat:
                self.sheet.text(self.left, self.y, line, self.size - 1)
                self.y += (self.size - 1) * 0.45
            self.y += 4

    def _furnish(self) -> None:
        s, c = self.style, self.sheet.canvas
        if s.watermark:
            c.saveState()
            c.setFillGray(0.88)
            c.setFont(self.sheet.bold, 70)
            c.translate(PAGE_W / 2 * mm, PAGE_H / 2 * mm)
            c.rotate(40)
            c.drawCentredString(0, 0, s.watermark)
            c.restoreState()
        footer = self.furniture.get("footer")
        if s.footer and footer:
            self.sheet.rule(self.left, 272, self.right, 0.3)
            for index, line in enumerate(footer):
                self.sheet.text(PAGE_W / 2, 276 + index * 3.2, line, 6.5, align="center")
        if s.page_numbers:
            word = "Page" if s.language == "en" else "Seite"
            self.sheet.text(self.right, 290, f"{word} {self.sheet.pages}", 7, align="right")

    def pdf(self) -> bytes:
        self._furnish()
        return self.sheet.pdf()
