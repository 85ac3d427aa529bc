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
