"""Composition root: `flask --app app ...` and WSGI servers load `app` from here."""
from leadflow.factory import create_app

app = create_app()
