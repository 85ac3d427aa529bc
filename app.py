"""Composition root: `flask --app app ...` and WSGI servers load `app` from here.

The `leadflow serve` command (web app, worker, scheduler and extractor in one process) lives
with the runtime it starts, in tasks.embedded; LeadFlow itself never imports tasks.
"""
from leadflow.cli import cli
from leadflow.factory import create_app
from tasks.embedded import serve

cli.add_command(serve)
app = create_app()
