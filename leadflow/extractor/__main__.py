"""`python -m leadflow.extractor`: run the extraction service standalone from the environment."""
import logging
import sys

from leadflow.extractor.config import ConfigError, from_env
from leadflow.extractor.service import run_until_stopped, serve


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # it warns on every repaired xref
    try:
        config = from_env()
    except ConfigError as exc:
        print(f"leadflow.extractor: refusing to start: {exc}", file=sys.stderr)
        return 2
    service, server = serve(config)
    if config.faults.any:
        logging.getLogger(__name__).warning("fault injection is on: %s", config.faults)
    logging.getLogger(__name__).info("extractor listening on http://%s:%d", config.host, server.server_port)
    run_until_stopped(service, server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
