"""Blueprints, one per area."""


def register_blueprints(app) -> None:
    from leadflow.web import (api, api_applicants, api_packets, api_versions, auth, callbacks, cases, credits,  # noqa: F401
                              dashboard, documents, files, health, notifications, openapi, pages, portal, review,
                              templating, ws)
    templating.register(app)
    app.register_blueprint(auth.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(portal.bp)
    app.register_blueprint(dashboard.bp)
    app.register_blueprint(cases.bp)
    app.register_blueprint(documents.bp)
    app.register_blueprint(credits.bp)
    app.register_blueprint(review.bp)
    # api_versions, api_applicants and api_packets add their routes to api.bp when imported, before the blueprint is registered.
    app.register_blueprint(api.bp)
    app.register_blueprint(callbacks.bp)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(files.files_bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(notifications.bp)
    from leadflow.web import packages
    app.register_blueprint(packages.bp)
    from leadflow.web import packets   # a packet's split on its page, its pages' pictures (issue 40)
    app.register_blueprint(packets.bp)
    ws.register(app)
    if app.config.get("BENCH_ENDPOINTS"):
        from leadflow.web import bench
        app.register_blueprint(bench.bp)
