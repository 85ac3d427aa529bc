"""Group commit: requests waiting while a write is in flight are written together next, each
gets its own result (or the error of the write that held it), and a lone request writes at once;
with threads here, and with greenlets under gevent's patching in a process of its own."""
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from leadflow.group_commit import GroupCommit


class Writes:
    """A write that records what it was given; the first one can be held until released."""

    def __init__(self, hold_first: bool = False):
        self.calls: list[list] = []
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold_first:
            self.release.set()
        self.fail_with: Exception | None = None

    def __call__(self, items):
        self.calls.append(list(items))
        self.started.set()
        assert self.release.wait(timeout=30)
        if self.fail_with is not None:
            raise self.fail_with
        return [f"written {item}" for item in items]


def until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        threading.Event().wait(0.001)


def submit_in_threads(group: GroupCommit, items) -> tuple[list[threading.Thread], dict]:
    results: dict = {}

    def run(item):
        try:
            results[item] = group.submit(item)
        except Exception as exc:  # noqa: BLE001 (the error is the result here)
            results[item] = exc

    threads = [threading.Thread(target=run, args=(item,)) for item in items]
    for t in threads:
        t.start()
    return threads, results


def test_a_lone_request_is_written_at_once_by_itself():
    writes = Writes()
    group = GroupCommit(writes)
    assert group.submit("a") == "written a"
    assert group.submit("b") == "written b"
    assert writes.calls == [["a"], ["b"]]


def test_requests_arriving_during_a_write_are_written_together_next_each_with_its_own_result():
    writes = Writes(hold_first=True)
    group = GroupCommit(writes)
    first, results = submit_in_threads(group, ["first"])
    assert writes.started.wait(timeout=10)
    others, more = submit_in_threads(group, [f"r{n}" for n in range(5)])
    until(lambda: len(group._waiting) == 5)
    writes.release.set()
    for t in first + others:
        t.join(timeout=10)
    assert writes.calls[0] == ["first"]
    assert sorted(writes.calls[1]) == [f"r{n}" for n in range(5)] and len(writes.calls) == 2
    assert {**results, **more} == {item: f"written {item}" for item in ["first", *(f"r{n}" for n in range(5))]}


def test_a_write_takes_at_most_max_items_and_the_rest_are_written_after_it():
    writes = Writes(hold_first=True)
    group = GroupCommit(writes, max_items=2)
    first, _ = submit_in_threads(group, ["first"])
    assert writes.started.wait(timeout=10)
    others, results = submit_in_threads(group, ["a", "b", "c"])
    until(lambda: len(group._waiting) == 3)
    writes.release.set()
    for t in first + others:
        t.join(timeout=10)
    assert [len(call) for call in writes.calls] == [1, 2, 1]
    assert results == {item: f"written {item}" for item in "abc"}


def test_a_failed_write_fails_every_request_it_held_and_the_next_requests_are_written():
    writes = Writes(hold_first=True)
    writes.fail_with = RuntimeError("database gone")
    group = GroupCommit(writes)
    first, results = submit_in_threads(group, ["first"])
    assert writes.started.wait(timeout=10)
    others, more = submit_in_threads(group, ["a", "b"])
    until(lambda: len(group._waiting) == 2)
    writes.release.set()
    for t in first + others:
        t.join(timeout=10)
    assert all(isinstance(r, RuntimeError) for r in [*results.values(), *more.values()])
    writes.fail_with = None
    assert group.submit("c") == "written c"


def test_under_gevent_greenlets_share_writes_and_a_stopped_leader_hands_the_lead_on():
    # In a process of its own: gevent must patch threading before GroupCommit is imported, as
    # gunicorn's gevent worker does before it loads the app.
    script = textwrap.dedent("""
        from gevent import monkey
        monkey.patch_all()
        import gevent
        from leadflow.group_commit import GroupCommit

        calls = []
        def write(items):
            calls.append(list(items))
            gevent.sleep(0.01)  # the commit's round trip: other greenlets run meanwhile
            return [i * 10 for i in items]

        group = GroupCommit(write)
        greenlets = [gevent.spawn(group.submit, i) for i in range(40)]
        gevent.joinall(greenlets, timeout=30)
        assert [g.value for g in greenlets] == [i * 10 for i in range(40)], [g.value for g in greenlets]
        assert sorted(i for call in calls for i in call) == list(range(40)), calls
        assert len(calls) < 10, calls

        # The leader's greenlet is killed in the middle of its write: the requests that came
        # meanwhile are still written, by the next leader.
        def stuck(items):
            if items == ["leader"]:
                gevent.sleep(30)
            return items
        group = GroupCommit(stuck)
        leader = gevent.spawn(group.submit, "leader")
        gevent.sleep(0)
        waiting = [gevent.spawn(group.submit, n) for n in ("a", "b")]
        gevent.sleep(0)
        leader.kill()
        gevent.joinall(waiting, timeout=10)
        assert [g.value for g in waiting] == ["a", "b"], [g.value for g in waiting]
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr[-3000:]


@pytest.mark.parametrize("max_items", [1, 3])
def test_many_threads_at_once_each_get_their_own_result(max_items):
    group = GroupCommit(lambda items: [item * 2 for item in items], max_items=max_items)
    threads, results = submit_in_threads(group, list(range(50)))
    for t in threads:
        t.join(timeout=30)
    assert results == {n: n * 2 for n in range(50)}


def test_a_leader_that_found_nobody_writing_gathers_those_arriving_in_its_window(monkeypatch):
    from leadflow import group_commit
    writes = Writes()
    group = GroupCommit(writes, gather_seconds=0.002)
    window_open = threading.Event()
    window_close = threading.Event()

    class Window:  # the leader's wait, held open until the others have joined
        @staticmethod
        def sleep(seconds):
            assert seconds == 0.002
            window_open.set()
            assert window_close.wait(timeout=30)

    monkeypatch.setattr(group_commit, "time", Window)
    leader, results = submit_in_threads(group, ["a"])
    assert window_open.wait(timeout=10)
    others, more = submit_in_threads(group, ["b", "c"])
    until(lambda: len(group._waiting) == 3)
    window_close.set()
    for t in leader + others:
        t.join(timeout=10)
    assert writes.calls == [["a", "b", "c"]], "one write for the leader and those that came in its window"
    assert {**results, **more} == {"a": "written a", "b": "written b", "c": "written c"}


def test_what_follows_a_write_runs_after_its_other_requests_are_answered_and_its_failure_is_only_logged(caplog):
    """The worker's nudge: a request held with others is answered once their write committed, not
    once the leader has also told Redis; a nudge that fails leaves every answer standing."""
    writes = Writes(hold_first=True)
    followed: list[list] = []
    release_then = threading.Event()

    def then(results):
        assert release_then.wait(timeout=30)
        followed.append(list(results))
        if len(followed) == 2:
            raise ConnectionError("redis gone")

    group = GroupCommit(writes, then=then)
    first, results = submit_in_threads(group, ["first"])
    assert writes.started.wait(timeout=10)
    others, more = submit_in_threads(group, ["a", "b"])
    until(lambda: len(group._waiting) == 2)
    writes.release.set()
    # "first" led the first write and now waits in its `then`; the next write ("a", "b") has
    # started without it, and its follower is answered while both leaders still wait.
    until(lambda: len(more) == 1)
    assert list(more.values()) == [f"written {next(iter(more))}"] and results == {}
    release_then.set()
    for t in first + others:
        t.join(timeout=10)
    assert results == {"first": "written first"} and more == {"a": "written a", "b": "written b"}
    assert sorted(map(sorted, followed)) == [["written a", "written b"], ["written first"]]
    assert "what follows a group write failed" in caplog.text

