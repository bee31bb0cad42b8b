"""Runeslingers: damage and blocking, the Ailment Phase, drawing, the ladder, conflicting effects and decks."""
