"""Runewars (Revised Edition): battles, damage and routs, play order, Supremacy Bonus, winter, movement,
recruiting, combat rounds, retreats, diplomacy, duels, bids and the end of the game, one module per topic
(each registers its situations when :mod:`engine.situations` imports it)."""
