"""The database schema's history (Alembic). ``Store`` brings every database to the newest
revision when it opens it; ``web/schema.py`` runs Alembic with the store's own connection."""
