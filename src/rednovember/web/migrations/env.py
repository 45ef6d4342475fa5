"""Alembic's environment: the connection comes from web/schema.py (no alembic.ini, no URL)."""

from alembic import context

from rednovember.web.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
