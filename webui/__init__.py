"""The table page: a Flask app factory (filled in by the web issue)."""
