"""Countries a citizenship is chosen from: ISO 3166 alpha-2 codes, named in the page's language (CLDR, through Babel)."""
from functools import lru_cache

from babel import Locale

# CLDR territories that are no country of citizenship: groupings, placeholders, pseudo-locales.
NOT_COUNTRIES = frozenset({"EU", "EZ", "QO", "UN", "XA", "XB", "ZZ"})


@lru_cache(maxsize=4)
def named(language: str) -> tuple[tuple[str, str], ...]:
    """(code, name) of every country, sorted by name in `language`."""
    territories = Locale.parse(language if language in ("de", "en") else "en").territories
    return tuple(sorted(((code, name) for code, name in territories.items()
                         if len(code) == 2 and code.isalpha() and code not in NOT_COUNTRIES),
                        key=lambda pair: pair[1]))


def is_country(code: str) -> bool:
    return code in dict(named("en"))


def name_of(code: str | None, language: str) -> str | None:
    """A stored citizenship's name; an MRZ's alpha-3 code is shown as it is."""
    return dict(named(language)).get(code or "", code) if code else None
