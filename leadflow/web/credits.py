"""The brokerage admin's credits page: balance, open reservations, pages settled per month as a
chart, the ledger check and the clients who reached today's page allowance."""
from flask import Blueprint, current_app, render_template
from flask_login import current_user

from leadflow import clock
from leadflow.billing import service as billing
from leadflow.domain.audience import CREDITS_ROLES
from leadflow.extensions import db
from leadflow.models import Brokerage
from leadflow.services import views
from leadflow.web.auth import roles_required

bp = Blueprint("credits", __name__)
CHART_MONTHS = 12


@bp.get("/credits")
@roles_required(*CREDITS_ROLES)
def index():
    brokerage_id = current_user.brokerage_id
    months = views.settled_by_month(db.session, brokerage_id, clock.now(), CHART_MONTHS)
    allowance = current_app.config["CLIENT_DAILY_PAGE_ALLOWANCE"]
    return render_template("credits/index.html", wallet=billing.wallet_state(db.session, brokerage_id),
                           reservations=views.open_reservations(db.session, brokerage_id), months=months,
                           chart=bar_chart(months), brokerage=db.session.get(Brokerage, brokerage_id),
                           allowance=allowance,
                           at_allowance=billing.clients_at_allowance(db.session, brokerage_id, allowance, clock.now()),
                           # The same check as `leadflow ledger-check`, not a sum of the wallet's own columns.
                           ledger_problems=billing.check_all(db.session, brokerage_id).get(brokerage_id, []))


def bar_chart(months: list[tuple[str, int]], width: int = 720, height: int = 240) -> dict:
    """Geometry of an inline SVG bar chart: one bar per month, scaled to the largest."""
    top, bottom, left = 24, 40, 48
    plot = height - top - bottom
    highest = max((pages for _, pages in months), default=0)
    step = _nice_ceiling(-(-highest // 4)) or 1      # four gridlines at round numbers
    scale_max = step * 4
    slot = (width - left - 8) / max(len(months), 1)
    bars = []
    for i, (key, pages) in enumerate(months):
        bar_height = round(plot * pages / scale_max, 1)
        x = round(left + i * slot + slot * 0.15, 1)
        bars.append({"month": key, "pages": pages,
                     "x": x, "width": round(slot * 0.7, 1), "y": round(top + plot - bar_height, 1),
                     "height": bar_height, "cx": round(x + slot * 0.35, 1)})
    ticks = [{"value": step * k, "y": round(top + plot - plot * k / 4, 1)} for k in range(5)]
    return {"width": width, "height": height, "bars": bars, "ticks": ticks, "left": left,
            "baseline": top + plot, "right": width - 8}


def _nice_ceiling(value: int) -> int:
    """1, 2 or 5 times a power of ten, at least `value` (0 stays 0)."""
    if value <= 0:
        return 0
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return step * factor
        step *= 10
