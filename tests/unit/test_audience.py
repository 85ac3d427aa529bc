"""Who may see a document, and who may do what to it."""
import pytest

from leadflow.domain.audience import (DocumentFacts, Role, Viewer, audience, awaits_retry, may_decide, may_retry, may_see,
                                      may_see_credits, may_share, may_work_on_data, retry_offered, sees_full_history)
from leadflow.domain.lifecycle import Status

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


@pytest.mark.parametrize("role, allowed", [("platform_admin", True), ("brokerage_admin", False), ("advisor", False),
                                           ("client", False)])
def test_only_a_platform_admin_decides_a_document_in_review(role, allowed):
    assert may_decide(Role(role)) is allowed


@pytest.mark.parametrize("role, allowed", [("brokerage_admin", True), ("platform_admin", True), ("advisor", False),
                                           ("client", False)])
def test_only_admins_retry_a_failure_of_ours(role, allowed):
    assert may_retry(Role(role)) is allowed


@pytest.mark.parametrize("role, allowed", [("advisor", True), ("brokerage_admin", True), ("platform_admin", True),
                                           ("client", False)])
def test_staff_and_platform_admins_correct_reprocess_customise_and_revert(role, allowed):
    assert may_work_on_data(Role(role)) is allowed


def test_a_client_shares_only_their_own_document_and_staff_share_any_they_see():
    assert may_share(Role.CLIENT, viewer_id=10, owner_id=10)
    assert not may_share(Role.CLIENT, viewer_id=11, owner_id=10)
    assert may_share(Role.ADVISOR, viewer_id=20, owner_id=10)
    assert may_share(Role.PLATFORM_ADMIN, viewer_id=30, owner_id=10)


@pytest.mark.parametrize("status, code, waits", [
    ("ACTION_REQUIRED", "SYSTEM_RETRIES_EXHAUSTED", True),
    ("REJECTED", "SYSTEM_EXTRACTION_FAILED", True),
    ("ACTION_REQUIRED", None, False),                 # a person decides its type instead
    ("REJECTED", "UNREADABLE", False),               # the client's file problem, not ours
    ("PENDING", "SYSTEM_RETRIES_EXHAUSTED", False),   # an automatic retry is on its way
    ("VERIFIED", None, False),
])
def test_only_a_settled_failure_of_ours_awaits_a_retry(status, code, waits):
    assert awaits_retry(Status(status), code) is waits


def test_the_retry_button_needs_both_the_role_and_a_failure_of_ours():
    assert retry_offered(Role.BROKERAGE_ADMIN, Status.ACTION_REQUIRED, "SYSTEM_RETRIES_EXHAUSTED")
    assert not retry_offered(Role.ADVISOR, Status.ACTION_REQUIRED, "SYSTEM_RETRIES_EXHAUSTED")
    assert not retry_offered(Role.PLATFORM_ADMIN, Status.VERIFIED, None)


def test_the_models_role_strings_are_understood_like_the_enum():
    # The User row carries its role as a plain string; the predicates must not care.
    assert may_decide("platform_admin") and may_retry("brokerage_admin") and not may_work_on_data("client")


@pytest.mark.parametrize("role, sees, plans", [
    ("client", False, False), ("advisor", True, True), ("brokerage_admin", True, True),
    ("platform_admin", True, False),
])
def test_case_checks_are_staffs_and_the_payout_date_the_advisors(role, sees, plans):
    from leadflow.domain.audience import may_plan_payout, may_see_case_checks
    assert (may_see_case_checks(role), may_plan_payout(role)) == (sees, plans)


@pytest.mark.parametrize("role, names, corrects", [
    ("client", True, False), ("advisor", True, True), ("brokerage_admin", True, True),
    ("platform_admin", False, False),
])
def test_the_client_names_a_co_applicant_and_only_the_advisor_corrects_or_removes_one(role, names, corrects):
    from leadflow.domain.audience import may_correct_applicants, may_name_applicants
    assert (may_name_applicants(role), may_correct_applicants(role)) == (names, corrects)
