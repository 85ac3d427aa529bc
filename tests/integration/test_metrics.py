"""/metrics over HTTP against the running app: for operators only (a token, or this machine when no
token is set), in the Prometheus format, with documents per status summed over brokerages, queue
depth, upload-to-settled latency, callback outcomes and sweep runs; /healthz and /readyz stay open."""
import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.corpus import SAMPLES

pytestmark = pytest.mark.usefixtures("live")

PAYSLIP = SAMPLES / "payslips" / "synthetic_payslip_A1_01.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
ELSEWHERE = {"REMOTE_ADDR": "203.0.113.9"}  # an address that is not this machine


@pytest.fixture
def metrics_token(app):
    saved = app.config.get("METRICS_TOKEN")
    app.config["METRICS_TOKEN"] = "operator-secret"
    yield "operator-secret"
    app.config["METRICS_TOKEN"] = saved


def scrape(url: str, token: str | None = None) -> dict[tuple[str, tuple], float]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.get(url + "/metrics", headers=headers, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"].startswith("text/plain; version=")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text) for sample in family.samples}


def test_without_a_token_configured_metrics_answer_only_this_machine(app, world):
    assert requests.get(world.url + "/metrics", timeout=10).status_code == 200  # the test server is loopback
    relayed = requests.get(world.url + "/metrics", headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10)
    assert relayed.status_code == 404, "a proxy on this machine must not make /metrics public"
    from_elsewhere = app.test_client().get("/metrics", environ_base=ELSEWHERE)
    assert from_elsewhere.status_code == 404
    for open_path in ("/healthz", "/readyz"):
        assert app.test_client().get(open_path, environ_base=ELSEWHERE).status_code == 200


def test_with_a_token_configured_metrics_answer_only_its_bearer(app, world, metrics_token):
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": metrics_token}):
        answer = requests.get(world.url + "/metrics", headers=headers, timeout=10)
        assert answer.status_code == 401 and answer.headers["WWW-Authenticate"].startswith("Bearer")
    assert app.test_client().get("/metrics", environ_base=ELSEWHERE,
                                 headers={"Authorization": f"Bearer {metrics_token}"}).status_code == 200
    scrape(world.url, metrics_token)


def test_metrics_count_documents_queues_latency_callbacks_and_sweeps(app, world, live):
    before = scrape(world.url)
    ids = [p.api.upload(PAYSLIP, title="Payslip", kind="payslip", workspace_id=w).json()["id"]
           for p, w in ((world.client_a, world.workspace_a), (world.client_b, world.workspace_b))]
    statuses = [world.platform_admin.api.wait_for_status(i, SETTLED)["status"] for i in ids]
    live.drain()
    from leadflow import sweeps
    with app.app_context():
        sweeps.run("pending")

    after = scrape(world.url)
    by_status = {dict(labels)["status"]: value for (name, labels), value in after.items()
                 if name == "leadflow_documents"}
    assert sum(by_status.values()) == 2 and all(by_status[s] == statuses.count(s) for s in statuses)
    assert set(by_status) >= {"PENDING", "PROCESSING", "EXTRACTING", "VERIFIED", "REJECTED", "ACTION_REQUIRED"}
    assert not any("brokerage" in dict(labels) for (name, labels) in after), "nothing per brokerage"

    assert after[("leadflow_queue_messages", (("queue", "document-processing"),))] == 0

    def grew(name, **labels):
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0) - before.get(key, 0)

    for status in set(statuses):
        assert grew("leadflow_document_settle_seconds_count", status=status) == statuses.count(status)
        assert grew("leadflow_document_settle_seconds_bucket", status=status, le="+Inf") == statuses.count(status)
    assert grew("leadflow_callback_deliveries_total", outcome="applied") >= 2
    assert grew("leadflow_sweep_runs_total", sweep="pending", result="ok") == 1
