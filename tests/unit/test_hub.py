"""The live-socket registry's per-user cap: one user cannot hold a web process's sockets."""
from leadflow.realtime.hub import Hub


def test_past_the_cap_the_users_oldest_socket_is_told_to_close_and_others_are_untouched():
    hub = Hub(app=None, max_sockets_per_user=2)
    first, second = hub.connect(1), hub.connect(1)
    someone_else = hub.connect(2)
    third = hub.connect(1)
    assert first.evicted and first.outbox.get_nowait() is None
    assert not second.evicted and not third.evicted and not someone_else.evicted
    hub.disconnect(first)  # the closing socket's own cleanup changes nothing for the others
    assert sorted(hub.connected_user_ids()) == [1, 2]


def test_the_last_socket_of_a_user_leaves_no_entry_behind():
    hub = Hub(app=None, max_sockets_per_user=5)
    only = hub.connect(7)
    hub.disconnect(only)
    assert hub.connected_user_ids() == []


def test_staff_of_any_brokerage_share_a_kind_until_a_retry_button_or_the_review_form_sets_them_apart():
    from types import SimpleNamespace

    from leadflow.domain.audience import Role
    from leadflow.realtime.hub import Watcher, row_kind
    failed = SimpleNamespace(status="ACTION_REQUIRED", rejection_code="SYSTEM_RETRIES_EXHAUSTED")
    pending = SimpleNamespace(status="PENDING", rejection_code=None)
    advisor, other_advisor = Watcher(1, Role.ADVISOR, 1), Watcher(2, Role.ADVISOR, 2)
    admin, platform = Watcher(3, Role.BROKERAGE_ADMIN, 1), Watcher(4, Role.PLATFORM_ADMIN, None)
    assert row_kind(advisor, pending) == row_kind(other_advisor, pending) == row_kind(admin, pending)
    assert row_kind(advisor, failed) != row_kind(admin, failed)  # only the admin may retry it
    assert len({row_kind(w, failed) for w in (advisor, admin, platform)}) == 3
    # a client's row is in their language, whatever the document
    assert row_kind(Watcher(5, Role.CLIENT, 1, "de"), pending) == row_kind(Watcher(6, Role.CLIENT, 1, "de"), failed)
    assert row_kind(Watcher(5, Role.CLIENT, 1, "de"), pending) != row_kind(Watcher(6, Role.CLIENT, 1, "en"), pending)


def test_events_noted_before_a_fan_out_keep_only_each_documents_latest_and_none_without_sockets():
    hub = Hub(app=None, background=False)
    hub.on_event({"type": "document_status", "document_id": "a", "status": "PENDING"})
    assert hub._pending == {}  # no one connected: nothing to render later
    hub.connect(1)
    for document_id, status in (("a", "PENDING"), ("b", "PENDING"), ("a", "PROCESSING")):
        hub.on_event({"type": "document_status", "document_id": document_id, "status": status})
    assert [(d, e["status"]) for d, e in hub._pending.items()] == [("b", "PENDING"), ("a", "PROCESSING")]


def test_a_push_is_one_text_frame_whatever_its_length():
    from leadflow.realtime.hub import Push
    from wsproto.frame_protocol import FrameDecoder, Opcode
    for text in ("ü" * 10, "x" * 300, "y" * 70_000):
        decoder = FrameDecoder(client=True)
        decoder.receive_bytes(Push(text).frame)
        frame = decoder.process_buffer()
        assert frame.opcode == Opcode.TEXT and frame.frame_finished and frame.payload == text.encode()


def test_a_push_is_written_at_once_where_the_socket_takes_it_and_queued_in_order_where_it_does_not():
    from leadflow.realtime.hub import Client, Push
    wire, takes = [], [None]  # how many bytes the socket takes now (None: all)

    def write(data):
        n = len(data) if takes[0] is None else min(takes[0], len(data))
        wire.append(data[:n])
        return n

    client = Client(1, write)
    first, second, third = Push("<tr id='a'></tr>"), Push("<tr id='b'></tr>"), Push("<tr id='c'></tr>")
    client.push(first)
    assert wire == [first.frame] and client.outbox.empty()

    takes[0] = 5  # a full socket buffer: the rest of the frame begun must go first, then the next one
    client.push(second)
    client.push(third)
    assert wire[-1] == second.frame[:5]
    assert client.outbox.get_nowait() == second.frame[5:] and client.outbox.get_nowait() is third

    takes[0] = None
    client.sending = True  # the socket's own loop is writing: never in between
    client.push(first)
    assert client.outbox.get_nowait() is first


def test_a_socket_that_fails_to_write_gets_its_push_queued_for_its_loop_to_find_out():
    from leadflow.realtime.hub import Client, Push

    def broken(data):
        raise BrokenPipeError()
    client = Client(1, broken)
    client.push(Push("x"))
    assert client.outbox.get_nowait() == "x"


def test_a_page_that_connects_while_the_process_stops_is_told_to_go_at_once():
    # Its handshake was under way when close_all ran: it must not hold the stopping process open.
    hub = Hub(app=None)
    open_before = hub.connect(1)
    assert hub.close_all() == 1
    assert open_before.evicted and open_before.going_away
    late = hub.connect(2)
    assert late.evicted and late.going_away and late.outbox.get_nowait() is None
    assert hub.connected_user_ids() == [1]  # the late one is not registered; the first leaves on its own
    hub.disconnect(late)
    hub.disconnect(open_before)
    assert hub.connected_user_ids() == []


def test_a_push_of_a_packets_document_carries_its_line_under_the_packet_for_its_client_only():
    from types import SimpleNamespace

    from leadflow.domain.audience import Role
    from leadflow.realtime.hub import PACKET_PART, ROW, Watcher, partials_of
    child = SimpleNamespace(packet_id="p1", status="PENDING", rejection_code=None)
    alone = SimpleNamespace(packet_id=None, status="PENDING", rejection_code=None)
    client, advisor = Watcher(1, Role.CLIENT, 1, "de"), Watcher(2, Role.ADVISOR, 1)
    assert partials_of(client, child) == (ROW, PACKET_PART)
    assert partials_of(client, alone) == (ROW,)
    assert partials_of(advisor, child) == (ROW,), "staff see a packet's documents as rows, on its page"
