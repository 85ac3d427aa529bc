"""Headless Chromium for the browser tests: one browser per session, one context per signed-in person,
and a network cable between a browser and the app that a test can pull out and plug back in."""
import socket
import struct
import threading

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.plugins.live import wait_until

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}
# A page is Live once its socket is open; the server answers within a second, so this is generous.
LIVE_TIMEOUT_MS = 10_000
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def sign_in(browser, world):
    """`sign_in(person, base_url=...)` opens a fresh context, signs the person in on the login
    screen and returns the page they land on, once its socket is Live."""
    contexts = []

    def open_page(person, base_url=world.url):
        context = browser.new_context(base_url=base_url, viewport=VIEWPORT)
        contexts.append(context)
        page = context.new_page()
        page.goto("/login")
        page.fill("#email", person.email)
        page.fill("#password", person.password)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(lambda url: "/login" not in url)
        expect(page.locator("#connection")).to_have_text("Live", timeout=LIVE_TIMEOUT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(autouse=True)
def nothing_left_in_flight(world):
    """After each test, wait until every document has settled. `live.drain()` waits for the worker
    but not for the extractor, whose callbacks leave from its own threads: one still on its way
    would land in the next test's TRUNCATE."""
    yield

    def unsettled():
        documents = world.platform_admin.api.get("/api/documents").json()["documents"]
        return {d["id"]: d["status"] for d in documents if d["status"] not in SETTLED}

    try:
        wait_until(lambda: not unsettled(), timeout=20, message="every document to settle")
    except AssertionError as timeout:
        raise AssertionError(f"{timeout}; still moving: {unsettled()}") from None


@pytest.fixture
def cable(live):
    """A TCP forwarder in front of the app. Chromium's offline emulation leaves an open websocket
    untouched, so a real outage is simulated one layer down: `unplug()` resets every connection
    and refuses new ones, `plug_in()` lets them through again."""
    port = int(live.url.rsplit(":", 1)[1])
    forwarder = Cable(port)
    yield forwarder
    forwarder.stop()


class Cable:
    """Forwards 127.0.0.1:<its port> to the app, byte for byte, while plugged in."""

    def __init__(self, target_port: int):
        self._target = ("127.0.0.1", target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)  # so the accept loop notices stop()
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._plugged = threading.Event()
        self._plugged.set()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True, name="cable-accept").start()

    def unplug(self) -> None:
        self._plugged.clear()
        with self._lock:
            sockets, self._open = self._open, set()
        for sock in sockets:
            _reset(sock)

    def plug_in(self) -> None:
        self._plugged.set()

    def stop(self) -> None:
        self._stopping.set()
        self.unplug()
        self._listener.close()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                downstream, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if not self._plugged.is_set():
                _reset(downstream)
                continue
            try:
                upstream = socket.create_connection(self._target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _reset(downstream)
                continue
            with self._lock:
                self._open.update((downstream, upstream))
            for src, dst in ((downstream, upstream), (upstream, downstream)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True, name="cable-pump").start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.difference_update((src, dst))
            for sock in (src, dst):
                _close(sock)


def _reset(sock: socket.socket) -> None:
    """Abort the connection (RST), as a dropped network would, and wake any thread reading it."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
