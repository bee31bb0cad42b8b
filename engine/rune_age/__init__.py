"""Rune Age: battle, siege, spending gold, Monument victory and the Event phase."""
