"""Runeslingers: damage and blocking, ailments, drawing, the ladder, conflicting effects and decks."""
