"""The quick reference's icons: simple geometric glyphs drawn by the project, inline SVG.

Each icon is a few shapes on a 24 × 24 grid, stroked or filled in the current text colour
(``currentColor``), so it prints in black on paper and follows the page's colours on screen. They are
our own drawings, not the publishers' art: they stand for a die result, action, modifier, unit class
or ailment, and the sheet's icon key names each one and gives its rule (the corpus paragraph's short
form) beside it.

``rules/quickref.yaml`` picks an icon per paragraph of an ``icons`` block by the names below;
:func:`svg` returns the markup, :data:`ICONS` is the catalogue (checked when the topics file is read).
"""

from __future__ import annotations

import html

_S = 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"'
_F = 'fill="currentColor"'

ICONS: dict[str, str] = {
    # --- die results (RuneWars Miniatures)
    "hit": f'<path {_F} d="M12 2l2.6 6.6L21 12l-6.4 3.4L12 22l-2.6-6.6L3 12l6.4-3.4z"/>',
    "surge": f'<path {_F} d="M13.5 2L5 13.5h6L9.5 22 19 9.5h-6.2z"/>',
    "morale": (f'<path {_S} d="M12 3l8 4v5c0 5-3.6 8.2-8 9-4.4-.8-8-4-8-9V7z"/>'
               f'<path {_S} d="M12 8v5"/><circle {_F} cx="12" cy="16.5" r="1.3"/>'),
    "accuracy": (f'<circle {_S} cx="12" cy="12" r="8"/><circle {_S} cx="12" cy="12" r="3.5"/>'
                 f'<path {_S} d="M12 1.5v4M12 18.5v4M1.5 12h4M18.5 12h4"/>'),
    "mortal-strike": (f'<path {_F} d="M12 3c-4.4 0-8 3.2-8 7.3 0 2.4 1.2 4.4 3 5.7V20h10v-4c1.8-1.3 3-3.3 3-5.7'
                      f'C20 6.2 16.4 3 12 3z"/><circle fill="#fff" cx="8.8" cy="11" r="2"/>'
                      f'<circle fill="#fff" cx="15.2" cy="11" r="2"/>'),
    "blank": f'<rect {_S} x="4" y="4" width="16" height="16" rx="3"/>',
    # --- actions (RuneWars Miniatures)
    "march": f'<path {_S} d="M12 21V4M6 10l6-6 6 6"/>',
    "shift": f'<path {_S} d="M12 4v16M4 12h16M9 7l3-3 3 3M9 17l3 3 3-3M7 9l-3 3 3 3M17 9l3 3-3 3"/>',
    "reform": (f'<path {_S} d="M19 12a7 7 0 1 1-2.1-5"/><path {_S} d="M17.5 2.5l-.6 4.5-4.5-.6"/>'
               f'<circle {_F} cx="12" cy="12" r="1.8"/>'),
    "melee": f'<path {_S} d="M4 20L17 7M15 4l5 5M6 13l5 5M3.5 16.5l4 4"/>',
    "ranged": (f'<path {_S} d="M3 21L20 4M14 4h6v6"/><path {_S} d="M3 15l3 3-3 3M6 12l3 3"/>'),
    "rally": (f'<path {_S} d="M6 21V3"/><path {_F} d="M7 4h12l-3 4 3 4H7z"/>'),
    "skill": (f'<path {_F} d="M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 16.9 5.9 20.4l1.5-6.8L2.2 9l6.9-.7z"/>'),
    # --- modifiers (RuneWars Miniatures)
    "turn": f'<path {_S} d="M7 21V12a5 5 0 0 1 5-5h6M14 3l4 4-4 4"/>',
    "charge": (f'<path {_S} d="M12 22V9"/><path {_F} d="M12 1.5l2 4 4.5.5-3.3 3 1 4.4L12 11l-4.2 2.4 1-4.4'
               f'-3.3-3 4.5-.5z"/>'),
    "turning-charge": (f'<path {_S} d="M6 22v-7a5 5 0 0 1 5-5h2"/><path {_F} d="M17 5l1.6 3.2 3.4.4-2.5 2.3.7 '
                       f'3.4L17 12.6l-3.2 1.7.7-3.4L12 8.6l3.4-.4z"/>'),
    "wheel": (f'<path {_S} d="M4 20a16 16 0 0 1 16-16"/><path {_S} d="M15 2.5l5 1.5-1.5 5"/>'
              f'<path {_S} d="M4 20h6"/>'),
    "defend": f'<path {_S} d="M12 2.5l8 3.5v5.5c0 5-3.5 8.5-8 10-4.5-1.5-8-5-8-10V6z"/>',
    "enhance": f'<path {_S} d="M12 4v16M4 12h16"/><circle {_S} cx="12" cy="12" r="9.5"/>',
    "bonus": (f'<path {_S} d="M4 6l6 6-6 6M12 6l6 6-6 6"/>'),
    # --- tokens: banes and boons (RuneWars Miniatures)
    "blight": (f'<circle {_S} cx="12" cy="12" r="9"/><path {_S} d="M8 8l8 8M16 8l-8 8"/>'),
    "immobilize": (f'<circle {_S} cx="12" cy="12" r="9"/><path {_S} d="M8 12h8"/>'
                   f'<path {_S} d="M9 8v8M15 8v8"/>'),
    "panic": (f'<circle {_S} cx="12" cy="12" r="9"/><path {_S} d="M12 7v6"/>'
              f'<circle {_F} cx="12" cy="16.5" r="1.3"/>'),
    "stun": (f'<circle {_S} cx="12" cy="12" r="9"/><path {_S} d="M7 12a5 5 0 0 1 10 0 2.5 2.5 0 0 1-5 0"/>'),
    "inspiration": (f'<circle {_S} cx="12" cy="12" r="9"/><path {_F} d="M12 5.5l1.8 4 4.4.4-3.3 2.9 1 4.3'
                    f'L12 14.8l-3.9 2.3 1-4.3-3.3-2.9 4.4-.4z"/>'),
    # --- unit classes (Runewars): the base shapes
    "triangle": f'<path {_F} d="M12 3l10 17H2z"/>',
    "circle": f'<circle {_F} cx="12" cy="12" r="9"/>',
    "rectangle": f'<rect {_F} x="2.5" y="6" width="19" height="12" rx="1"/>',
    "hexagon": f'<path {_F} d="M7 3h10l5 9-5 9H7l-5-9z"/>',
    # --- Fate card (Runewars)
    "fate-card": (f'<rect {_S} x="5" y="2" width="14" height="20" rx="2"/><path {_S} d="M5 8h14M5 13h14M5 18h14"/>'
                  f'<circle {_F} cx="12" cy="5" r="1.5"/>'),
    "destiny": (f'<path {_F} d="M12 2l2.4 7.6L22 12l-7.6 2.4L12 22l-2.4-7.6L2 12l7.6-2.4z"/>'),
    "rout": (f'<path {_S} d="M20 12H5M10 6l-6 6 6 6"/><path {_S} d="M20 7v10"/>'),
    "damage": (f'<path {_F} d="M12 21s-8-5.2-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.8-8 11-8 11z"/>'),
    "special": (f'<path {_F} d="M12 2l2 7h7l-5.6 4.3 2.1 7L12 16l-5.5 4.3 2.1-7L3 9h7z"/>'),
    # --- ailments (Runeslingers)
    "burn": f'<path {_F} d="M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 2-4.5 2-7 2 1.5 2.5 3 2.5 4.5C12 9 11 5 12 2z"/>',
    "debilitate": (f'<path {_S} d="M12 20.5s-8-5-8-10.5a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.5-8 10.5-8 10.5z"/>'
                   f'<path {_S} d="M12 7.5l-2 5h4l-2 5"/>'),
    "curse": (f'<circle {_S} cx="12" cy="12" r="9"/><path {_S} d="M12 5l6 11H6z"/>'),
    "fragment": (f'<path {_S} d="M4 4h7l-1 6 3 2-2 8H4zM14 4h6v16h-6l2-8-3-2z"/>'),
    "weaken": (f'<path {_S} d="M4 15l5-5 4 4 7-7"/><path {_S} d="M4 20h16"/><path {_S} d="M20 7v5"/>'),
    "insanity": (f'<path {_S} d="M12 12a2 2 0 1 1 2-2 4 4 0 1 1-4-4 6 6 0 1 1-6 6 8 8 0 0 1 8-8"/>'),
    # --- Rune Age resources and dice
    "gold": (f'<circle {_S} cx="12" cy="12" r="9"/><circle {_S} cx="12" cy="12" r="5"/>'),
    "influence": (f'<path {_F} d="M4 19h16l-1.5-9-4 3.5L12 6l-2.5 7.5-4-3.5z"/>'),
    "strength": (f'<path {_F} d="M6 3l12 0-2.5 9L18 21H6l2.5-9z"/>'),
    "attrition": (f'<rect {_S} x="3" y="3" width="18" height="18" rx="3.5"/>'
                  f'<path {_F} d="M12 6.5c-3 0-5 2-5 4.6 0 1.6.8 2.8 2 3.6V17h6v-2.3c1.2-.8 2-2 2-3.6'
                  f' 0-2.6-2-4.6-5-4.6z"/>'
                  f'<circle fill="#fff" cx="10" cy="11.2" r="1.2"/><circle fill="#fff" cx="14" cy="11.2" r="1.2"/>'),
}


def is_icon(name: str) -> bool:
    """Return whether *name* is one of the project's icons."""
    return name in ICONS


def svg(name: str, label: str = "", cls: str = "icon") -> str:
    """Return icon *name* as inline SVG markup (``aria-label`` = *label*, hidden when empty)."""
    body = ICONS[name]
    aria = f'role="img" aria-label="{html.escape(label, quote=True)}"' if label else 'aria-hidden="true"'
    return (f'<svg class="{html.escape(cls, quote=True)}" viewBox="0 0 24 24" width="24" height="24" '
            f'xmlns="http://www.w3.org/2000/svg" {aria}>{body}</svg>')
