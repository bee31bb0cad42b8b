"""RuneWars Miniatures: attacks (threat, damage, wounds, morale), activation order, command tools, scoring
and army building, each step citing the Rules Reference."""
