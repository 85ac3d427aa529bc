"""Who may see a document."""
import pytest

from leadflow.domain.audience import DocumentFacts, Role, Viewer, audience, may_see, may_see_credits, sees_full_history

DOC = DocumentFacts(brokerage_id=1, owner_id=10, workspace_member_ids=frozenset({11, 10}),
                    shared_with_ids=frozenset({12}))


def viewer(user_id, role, brokerage_id=1):
    return Viewer(id=user_id, role=Role(role), brokerage_id=brokerage_id)


def test_the_owner_a_workspace_member_and_a_direct_share_may_see_it():
    assert may_see(viewer(10, "client"), DOC)
    assert may_see(viewer(11, "client"), DOC)
    assert may_see(viewer(12, "client"), DOC)


def test_nobody_of_another_brokerage_sees_it_even_with_a_share_on_record():
    assert not may_see(viewer(12, "client", brokerage_id=2), DOC)
    assert not may_see(viewer(12, "advisor", brokerage_id=2), DOC)


def test_staff_of_its_brokerage_and_platform_admins_may_see_it():
    assert may_see(viewer(20, "advisor"), DOC)
    assert may_see(viewer(21, "brokerage_admin"), DOC)
    assert may_see(viewer(30, "platform_admin", brokerage_id=None), DOC)


def test_another_brokerages_staff_and_other_clients_may_not():
    assert not may_see(viewer(22, "advisor", brokerage_id=2), DOC)
    assert not may_see(viewer(23, "brokerage_admin", brokerage_id=2), DOC)
    assert not may_see(viewer(13, "client"), DOC)


def test_the_audience_lists_everyone_once_owner_first():
    assert audience(DOC, brokerage_staff_ids=[20, 11], platform_admin_ids=[30, 10]) == [10, 12, 11, 20, 30]


@pytest.mark.parametrize("role, allowed", [("brokerage_admin", True), ("advisor", False), ("client", False),
                                           ("platform_admin", False)])
def test_only_a_brokerage_admin_sees_the_credits(role, allowed):
    assert may_see_credits(Role(role)) is allowed


@pytest.mark.parametrize("role, full", [("advisor", True), ("brokerage_admin", True), ("platform_admin", True),
                                        ("client", False)])
def test_only_staff_and_platform_admins_read_a_documents_full_history(role, full):
    assert sees_full_history(Role(role)) is full
