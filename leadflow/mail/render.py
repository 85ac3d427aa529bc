"""An email's words: Jinja templates under templates/mail/ (a .txt and an .html per kind), in the
recipient's language from the catalogs under translations/.

Rendered without Flask (one Jinja environment per language, Babel's catalogs read directly, as
`leadflow.notes` does), so a worker, a sweep or a unit test composes the same message.
"""
from functools import lru_cache

from babel.support import NullTranslations, Translations
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from leadflow import config, words

LANGUAGES = ("en", "de")
TEMPLATES = config.ROOT / "templates" / "mail"


def render(kind: str, language: str, **context) -> tuple[str, str, str]:
    """(subject, text, html) of the email `kind` in `language` (English for any other)."""
    env = _environment(language if language in LANGUAGES else "en")
    text_template = env.get_template(f"{kind}.txt")
    # The subject is set at the top of the .txt, in the same words as its body.
    context = {**context, "language": language}
    subject = " ".join(str(text_template.make_module(context).subject).split())
    text = text_template.render(context).strip() + "\n"
    html = env.get_template(f"{kind}.html").render(subject=subject, **context)
    return subject, text, html


@lru_cache(maxsize=None)
def _environment(language: str) -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), extensions=["jinja2.ext.i18n"],
                      autoescape=select_autoescape(["html"], default_for_string=False, default=False),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.install_gettext_translations(_catalog(language), newstyle=True)
    # The pages' filters (leadflow.web.templating), bound to the email's language.
    env.filters.update({"day": lambda value: words.day(value, language),
                        "moment": lambda value: words.moment(value, language),
                        "without_codes": lambda text: words.dates_in(words.without_codes(text, language), language)})
    return env


def _catalog(language: str):
    if language == "en":
        return NullTranslations()  # the message ids are the English words
    found = Translations.load(str(config.ROOT / "translations"), [language])
    return found if isinstance(found, Translations) else NullTranslations()
