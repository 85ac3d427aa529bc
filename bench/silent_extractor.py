"""An extraction service that accepts every job and never reports back, for the callback
benchmark: documents wait in EXTRACTING on accepted jobs, so the benchmark's deliveries name real
jobs and are applied the way the service's own would be.

    python -m bench.silent_extractor     # listens on 127.0.0.1:$EXTRACTOR_PORT
"""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the client's session expects

    def do_GET(self):
        self._answer(200 if self.path == "/health" else 404, {"status": "ok"})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path != "/jobs":
            return self._answer(404, {"error": "not found"})
        job_id = json.loads(body or b"{}").get("job_id")
        self._answer(202, {"job_id": job_id, "status": "accepted"})

    def _answer(self, code: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):  # one line per job would be most of its work
        pass


def main() -> int:
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ["EXTRACTOR_PORT"])), Handler)
    print(f"silent extractor listening on http://127.0.0.1:{server.server_port}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
