"""The Runecodex web app (see :func:`webapp.app.create_app`)."""
