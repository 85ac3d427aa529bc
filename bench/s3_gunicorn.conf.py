"""gunicorn's settings for the benchmarks' S3 server (`bench/s3_server.py`), given explicitly so
that the project's own gunicorn.conf.py (LeadFlow's web) is not read for it."""
worker_class = "gthread"
# One worker: moto keeps the buckets in its process's memory.
workers = 1
threads = 16
keepalive = 30
# No worker timeout: the chaos run freezes the server (SIGSTOP on its group) for as long as it
# is told, and a worker killed for its silence would take every stored object with it.
timeout = 0
graceful_timeout = 2
