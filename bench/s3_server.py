"""moto's S3 as a WSGI app, served by gunicorn for the benchmarks (`bench._stack`).

`moto_server` runs on werkzeug's development server, which answers every request with
`Connection: close`: each of LeadFlow's puts then opens a new connection, where S3 keeps it
alive. That cost is the benchmark's, not LeadFlow's (a boto3 put of 6 kB, 800 in a loop on the
2-core machine of 2026-12-03: 2.2 ms of client CPU against 2.6 ms, the server's 3.9 ms against
4.6 ms), so the stack serves the same app from one gunicorn worker with threads, which keeps
connections alive (settings in `bench/s3_gunicorn.conf.py`)."""
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

app = DomainDispatcherApplication(create_backend_app)
